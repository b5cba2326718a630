import { Show } from "solid-js";
import { formatMs, formatTokens } from "../lib/format";
import { Link } from "../lib/router";
import { answeredBy, MODE_TEXT } from "../lib/thread-state";
import type { ThreadMessage } from "../lib/thread-types";
import { Markdown } from "./markdown";

/**
 * One message of a thread: the person's words as they typed them, or a reply rendered as Markdown with who
 * answered (and, for the topper, why that model) and its numbers. A dual reply is drawn here once its vote has
 * picked the answer that continues the thread; until then `DualReply` draws it.
 */
export function ChatMessage(props: { message: ThreadMessage }) {
  const m = () => props.message;
  const streaming = () => m().status === "streaming";
  return (
    <Show
      when={m().role === "assistant"}
      fallback={
        <li class="chat-message from-user" data-message-id={m().id}>
          <div class="prompt-bubble">
            <span class="who">You</span>
            <p>{m().content}</p>
          </div>
        </li>
      }
    >
      <li
        class="chat-message from-model"
        data-message-id={m().id}
        data-mode={m().mode}
        data-status={m().status}
        aria-busy={streaming()}
      >
        <p class="reply-head small">
          <span class="badge">{MODE_TEXT[m().mode]}</span>{" "}
          <Show
            when={answeredBy(m())}
            fallback={
              <span class="muted">
                {m().status === "awaiting_choice" ? "No winner: asked again below." : "Answering…"}
              </span>
            }
          >
            {(who) => <span data-testid="answered-by">{who()}</span>}
          </Show>
          <Show when={streaming()}>
            {" "}
            <span class="spinner" aria-hidden="true" />
            <span class="sr-only">Answering</span>
          </Show>
        </p>
        <Show when={m().status === "failed"}>
          <p class="callout error small">
            <strong>This reply failed:</strong> {m().error ?? "no reason given"}
          </p>
        </Show>
        <Show
          when={m().content}
          fallback={
            <Show when={streaming()}>
              <p class="muted placeholder">Waiting for the first tokens…</p>
            </Show>
          }
        >
          <Markdown text={m().content} class="reply-body" />
        </Show>
        <Show when={m().status === "done" || m().status === "awaiting_choice"}>
          <p class="muted small reply-metrics">
            {formatMs(m().latencyMs)} · {formatTokens(m().tokensIn, m().tokensOut)}
            <Show when={m().comparisonId}>
              {(comparison) => (
                <>
                  {" "}
                  ·{" "}
                  <Link href={`/arena/${comparison()}`}>
                    {m().status === "done" ? "The vote that chose it" : "Its comparison"}
                  </Link>
                </>
              )}
            </Show>
          </p>
        </Show>
      </li>
    </Show>
  );
}
