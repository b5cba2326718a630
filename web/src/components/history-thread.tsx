import { Show } from "solid-js";
import type { ContestantNames } from "../../../worker/shared/contestant-name";
import { formatTime } from "../lib/format";
import { Link } from "../lib/router";
import { MODE_TEXT } from "../lib/thread-state";
import type { ThreadSummary } from "../lib/thread-types";
import { threadExportUrl } from "../pages/chat.data";
import { ConfirmDelete } from "./confirm-delete";
import { ContestantName } from "./contestant-name";
import { DownloadLink } from "./download-link";

/** One chat thread in History: its title, last activity, messages and model, and what can be done with it. */
export function HistoryThread(props: {
  thread: ThreadSummary;
  names: ContestantNames;
  onDelete: (thread: ThreadSummary) => Promise<void>;
}) {
  const t = props.thread;
  const title = t.title || "Untitled thread";
  const at = t.lastMessageAt ?? t.updatedAt;
  return (
    <li class="card history-item" data-thread-id={t.id}>
      <div class="history-main">
        <p class="history-kind muted small">Chat thread{t.source === "v1" ? " · called through /v1" : ""}</p>
        <Link href={`/chat/${t.id}`} class="history-question">
          {title}
        </Link>
        <p class="muted small">
          <time datetime={new Date(at).toISOString()}>{formatTime(at)}</time> · {t.messageCount} message
          {t.messageCount === 1 ? "" : "s"} · {MODE_TEXT[t.mode]}
          <Show when={t.modelId}>
            {(id) => (
              <>
                {" "}
                · <ContestantName id={id()} names={props.names} />
              </>
            )}
          </Show>
        </p>
      </div>
      <div class="history-actions" role="group" aria-label={`Actions for "${title.slice(0, 60)}"`}>
        <Link class="button small" href={`/chat/${t.id}`}>
          Open
        </Link>
        <DownloadLink class="button small" href={threadExportUrl(t.id, "json")}>
          Export JSON
        </DownloadLink>
        <DownloadLink class="button small" href={threadExportUrl(t.id, "md")}>
          Export Markdown
        </DownloadLink>
        <ConfirmDelete onDelete={() => props.onDelete(t)} />
      </div>
    </li>
  );
}
