import { For, Show } from "solid-js";
import { formatTime } from "../lib/format";
import { Link } from "../lib/router";
import { MODE_TEXT } from "../lib/thread-state";
import type { ThreadSummary } from "../lib/thread-types";

interface Props {
  threads: ThreadSummary[];
  onNew: () => void;
  loading: boolean;
  error: string | null;
}

/** The threads, newest activity first, each a link that opens it; "New thread" on top. */
export function ThreadList(props: Props) {
  return (
    <nav class="thread-list" aria-label="Threads">
      <button type="button" class="primary new-thread" onClick={() => props.onNew()}>
        New thread
      </button>
      <Show when={props.error}>
        <p class="field-error small">{props.error}</p>
      </Show>
      <Show
        when={props.threads.length}
        fallback={<p class="muted small">{props.loading ? "Loading threads…" : "No threads yet."}</p>}
      >
        <ol>
          <For each={props.threads}>
            {(t) => (
              <li data-thread-id={t.id}>
                <Link href={`/chat/${t.id}`}>
                  <span class="thread-title">{t.title || "Untitled thread"}</span>
                  <span class="muted small">
                    {MODE_TEXT[t.mode]} · {t.messageCount} message{t.messageCount === 1 ? "" : "s"} ·{" "}
                    {formatTime(t.lastMessageAt ?? t.updatedAt)}
                  </span>
                </Link>
              </li>
            )}
          </For>
        </ol>
      </Show>
    </nav>
  );
}
