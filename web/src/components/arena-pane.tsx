import { For, Show } from "solid-js";
import type { ComparisonDetail, SideView } from "../../../worker/shared/arena";
import type { Side } from "../../../worker/shared/constants";
import { formatMs, formatTokens } from "../lib/format";
import { Markdown } from "./markdown";
import type { Segment } from "../lib/word-diff";
import { latestTurn, SIDE_LETTER } from "../lib/arena-state";

export const STATUS_TEXT: Record<SideView["status"], string> = {
  pending: "Waiting",
  streaming: "Answering",
  done: "Done",
  failed: "Failed",
};

interface Props {
  side: Side;
  /** null before the first prompt: an empty pane */
  detail: ComparisonDetail | null;
  retrying?: boolean;
  /** left out where nothing may change (a shared page): no retry is offered */
  onRetry?: () => void;
  /** the latest reply as runs of shared and different words, while differences are highlighted */
  diff?: Segment[] | null;
  /** the conversation scrolls in a box of its own (a desktop's side by side panes): it takes the Tab key then */
  scrolls?: boolean;
  /** the conversation's box, for scrolling it with the other side's */
  scrollRef?: (el: HTMLElement) => void;
}

export const working = (s: SideView | undefined) => s?.status === "pending" || s?.status === "streaming";

/** One side of the arena: its conversation, its own progress and numbers, and no name until the vote. */
export function ArenaPane(props: Props) {
  const letter = () => SIDE_LETTER[props.side];
  const revealed = () => props.detail?.reveal?.[props.side] ?? null;
  const current = () => (props.detail ? latestTurn(props.detail)?.[props.side] : undefined);
  const titleId = () => `pane-${props.side}-title`;
  const multiTurn = () => (props.detail?.turns.length ?? 0) > 1;
  return (
    <section
      class="card arena-pane"
      aria-labelledby={titleId()}
      data-side={props.side}
      data-status={current()?.status ?? "empty"}
      aria-busy={working(current())}
    >
      <header class="card-head">
        <div>
          <h2 id={titleId()}>{revealed()?.displayName ?? `Model ${letter()}`}</h2>
          <Show when={revealed()}>
            {(who) => (
              <p class="muted small">
                Model {letter()} · <code>{who().modelId}</code>
              </p>
            )}
          </Show>
        </div>
        <Show when={current()}>
          {(s) => (
            <p class={`status status-${s().status}`}>
              <Show when={working(s())}>
                <span class="spinner" aria-hidden="true" />
              </Show>
              {STATUS_TEXT[s().status]}
            </p>
          )}
        </Show>
      </header>
      <dl class="metrics">
        <div>
          <dt>Latency</dt>
          <dd>{formatMs(current()?.latencyMs)}</dd>
        </div>
        <div>
          <dt>Tokens</dt>
          <dd>{formatTokens(current()?.tokensIn, current()?.tokensOut)}</dd>
        </div>
      </dl>
      <Show
        when={props.detail?.turns.length}
        fallback={<p class="muted placeholder">Its answer appears here, without its name.</p>}
      >
        <div
          class="pane-scroll"
          classList={{ scrolls: !!props.scrolls }}
          ref={(el) => props.scrollRef?.(el)}
          role="region"
          aria-label={`Conversation with Model ${letter()}`}
          tabindex={props.scrolls ? 0 : undefined}
        >
          <ol class="transcript">
            <For each={props.detail!.turns}>
              {(turn) => {
                const s = () => turn[props.side];
                const isLatest = () => turn.turn === props.detail!.turns.length;
                return (
                  <li class="turn" data-turn={turn.turn}>
                    <div class="prompt-bubble">
                      <span class="who">You</span>
                      <p>{turn.prompt}</p>
                    </div>
                    <div class="reply" data-status={s().status} aria-busy={working(s())}>
                      <Show when={s().status === "failed"}>
                        <div class="callout error">
                          <p>
                            <strong>This side failed:</strong> {s().error ?? "no reason given"}
                          </p>
                          <Show when={isLatest() && props.onRetry}>
                            <button
                              type="button"
                              onClick={() => props.onRetry?.()}
                              disabled={props.retrying}
                              aria-label={`Retry Model ${letter()}`}
                            >
                              {props.retrying ? "Retrying…" : "Retry"}
                            </button>
                          </Show>
                        </div>
                      </Show>
                      <Show when={s().truncated}>
                        <p class="callout warn small">
                          {s().status === "failed"
                            ? "The stream broke; what arrived before it is kept below."
                            : "Cut short: the model hit its output limit."}
                        </p>
                      </Show>
                      <Show
                        when={s().text || s().status === "done"}
                        fallback={
                          <Show when={working(s())}>
                            <p class="muted placeholder">Waiting for the first tokens…</p>
                          </Show>
                        }
                      >
                        <Show
                          when={isLatest() && props.diff}
                          fallback={<Markdown text={s().text} class="reply-body" />}
                        >
                          {(diff) => (
                            <p class="reply-body diff-view" data-testid="diff-view">
                              <For each={diff()}>{(seg) => (seg.changed ? <mark>{seg.text}</mark> : seg.text)}</For>
                            </p>
                          )}
                        </Show>
                      </Show>
                      <Show when={multiTurn() && s().status === "done"}>
                        <p class="muted small reply-metrics">
                          {formatMs(s().latencyMs)} · {formatTokens(s().tokensIn, s().tokensOut)}
                        </p>
                      </Show>
                    </div>
                  </li>
                );
              }}
            </For>
          </ol>
        </div>
      </Show>
    </section>
  );
}
