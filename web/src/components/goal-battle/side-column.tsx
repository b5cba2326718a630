import { For, Show } from "solid-js";
import { formatMs, formatTokens } from "../../lib/format";
import type { GoalBattleSummary, GoalSide } from "../../lib/goal-battle-types";
import { goalCheckText, type TranscriptTurn } from "../../lib/goal-transcript";
import { Markdown } from "../markdown";

interface Props {
  side: GoalSide;
  battle: GoalBattleSummary;
  /** the side's title: "Side A", or its name once revealed */
  title: string;
  turns: TranscriptTurn[];
  /** the reply arriving now, if any */
  streaming: { turn: number; text: string } | null;
  /** the conversation scrolls in a box of its own (side by side on a desktop) */
  scrolls: boolean;
  scrollRef: (el: HTMLElement) => void;
}

/** One side of a goal battle: its figures, then each turn's user message, its reply and the goal check. */
export function GoalSideColumn(props: Props) {
  const s = () => props.battle.sides[props.side];
  const titleId = () => `goal-side-${props.side}-title`;
  const who = () => (props.battle.user.mode === "script" ? "User (script)" : "User (simulated)");
  const streamingTurn = () => {
    const st = props.streaming;
    return st && !props.turns.some((t) => t.turn === st.turn && t.reply) ? st : null;
  };
  return (
    <section class="card arena-pane goal-side" aria-labelledby={titleId()} data-side={props.side}>
      <header class="card-head">
        <h2 id={titleId()}>{props.title}</h2>
        <Show when={s().goalReachedAt !== null}>
          <p class="status status-done">Goal at turn {s().goalReachedAt}</p>
        </Show>
        <Show when={s().failed}>
          <p class="status status-failed">Failed</p>
        </Show>
      </header>
      <dl class="metrics">
        <div>
          <dt>Turns</dt>
          <dd>{s().turns}</dd>
        </div>
        <div>
          <dt>Tokens</dt>
          <dd>{formatTokens(s().tokensIn, s().tokensOut)}</dd>
        </div>
        <div>
          <dt>Latency</dt>
          <dd>{formatMs(s().latencyMs)}</dd>
        </div>
      </dl>
      <div
        class="pane-scroll"
        classList={{ scrolls: props.scrolls }}
        ref={(el) => props.scrollRef(el)}
        role="region"
        aria-label={`Conversation with side ${props.side}`}
        tabindex={props.scrolls ? 0 : undefined}
      >
        <Show when={props.turns.length || streamingTurn()} fallback={<p class="muted placeholder">No turn yet.</p>}>
          <ol class="transcript">
            <For each={props.turns}>
              {(t) => (
                <li class="turn" data-turn={t.turn}>
                  <Show when={t.user}>
                    {(u) => (
                      <div class="prompt-bubble">
                        <span class="who">
                          {who()} · turn {t.turn}
                        </span>
                        <p>{u().content}</p>
                      </div>
                    )}
                  </Show>
                  <Show when={t.reply}>
                    {(r) => (
                      <div class="reply" data-testid="goal-reply">
                        <Show when={r().error}>
                          <p class="callout error small">This turn failed: {r().error}</p>
                        </Show>
                        <Markdown text={r().content} class="reply-body" />
                        <p class="muted small reply-metrics">
                          {formatMs(r().latencyMs)} · {formatTokens(r().tokensIn, r().tokensOut)}
                        </p>
                        <Show when={goalCheckText(r())}>
                          {(text) => (
                            <p
                              class="goal-check small"
                              classList={{ reached: !!r().goalCheck?.reached }}
                              data-testid="goal-check"
                            >
                              {text()}
                            </p>
                          )}
                        </Show>
                      </div>
                    )}
                  </Show>
                </li>
              )}
            </For>
            <Show when={streamingTurn()}>
              {(st) => (
                <li class="turn" data-turn={st().turn} aria-busy="true">
                  <Markdown text={st().text} class="reply-body" />
                </li>
              )}
            </Show>
          </ol>
        </Show>
      </div>
    </section>
  );
}
