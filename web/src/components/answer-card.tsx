import { createSignal, Show } from "solid-js";
import type { AnswerView, ModelParams, RankingEntry } from "../../../worker/shared/run";
import { ANSWER_STATUS_TEXT, formatCallCost, formatMs, formatTokens } from "../lib/format";
import { answerName } from "../lib/names";
import { Markdown } from "./markdown";
import { RankBadge } from "./rank-badge";

const LONG_CHARS = 1800;
const LONG_LINES = 36;

interface Props {
  answer: AnswerView;
  /** the model's own settings, once the run reveals which model wrote this */
  params?: ModelParams;
  /** a preset's model, shown beside its name in place of its id (the run's `names`) */
  presetModel?: string | null;
  /** the run has ended: failed answers may be retried */
  runEnded: boolean;
  retrying?: boolean;
  /** the run's final ranking, once aggregated: the card shows its place in it */
  ranking?: readonly RankingEntry[];
  /** left out where nothing may change (a shared page): no retry is offered */
  onRetry?: () => void;
}

/** One model's answer: streams in while the model writes, with its own status and numbers. */
export function AnswerCard(props: Props) {
  const [expanded, setExpanded] = createSignal(false);
  const a = () => props.answer;
  const name = () => answerName(a());
  const working = () => a().status === "pending" || a().status === "streaming";
  const long = () => !working() && (a().text.length > LONG_CHARS || a().text.split("\n").length > LONG_LINES);
  const settings = () => {
    const p = props.params;
    if (!p) return "";
    return [
      p.temperature !== undefined && `temperature ${p.temperature}`,
      p.maxTokens !== undefined && `max ${p.maxTokens} tokens`,
      p.systemPrompt && "own system prompt",
    ]
      .filter(Boolean)
      .join(" · ");
  };
  const rank = () => props.ranking?.find((e) => e.label === a().label)?.rank ?? null;
  const titleId = () => `answer-${a().label}-title`;
  const bodyId = () => `answer-${a().label}-body`;
  return (
    <article
      class="card answer-card"
      aria-labelledby={titleId()}
      data-label={a().label}
      data-status={a().status}
      aria-busy={working()}
    >
      <header class="card-head">
        <div>
          <h3 id={titleId()}>{name() ?? `Answer ${a().label}`}</h3>
          <Show when={props.ranking}>{(ranking) => <RankBadge rank={rank()} ranking={ranking()} />}</Show>
          <Show when={name()}>
            <p class="muted small">
              Answer {a().label} ·{" "}
              <Show when={props.presetModel} fallback={<code>{a().modelId}</code>}>
                {(model) => (
                  <>
                    on <code>{model()}</code>
                  </>
                )}
              </Show>
              <Show when={settings()}> · {settings()}</Show>
            </p>
          </Show>
        </div>
        <p class={`status status-${a().status}`}>
          <Show when={working()}>
            <span class="spinner" aria-hidden="true" />
          </Show>
          {ANSWER_STATUS_TEXT[a().status]}
        </p>
      </header>
      <dl class="metrics">
        <div>
          <dt>Latency</dt>
          <dd>{formatMs(a().latencyMs)}</dd>
        </div>
        <div>
          <dt>Tokens</dt>
          <dd>{formatTokens(a().tokensIn, a().tokensOut)}</dd>
        </div>
        <div>
          <dt>Cost (est.)</dt>
          <dd>{formatCallCost(a(), a().modelId === null)}</dd>
        </div>
      </dl>
      <Show when={a().status === "failed"}>
        <div class="callout error">
          <p>
            <strong>This model failed:</strong> {a().error ?? "no reason given"}
          </p>
          <Show when={props.onRetry}>
            <Show when={props.runEnded} fallback={<p class="small">Retry becomes available when the run ends.</p>}>
              <button
                type="button"
                onClick={() => props.onRetry?.()}
                disabled={props.retrying}
                aria-label={`Retry ${name() ?? `Answer ${a().label}`}`}
              >
                {props.retrying ? "Retrying…" : "Retry"}
              </button>
            </Show>
          </Show>
        </div>
      </Show>
      <Show when={a().truncated}>
        <p class="callout warn small">
          {a().status === "failed"
            ? "The stream broke; what arrived before it is kept below."
            : "Cut short: the model hit its output limit."}
        </p>
      </Show>
      <Show when={a().droppedParams.length}>
        <p class="muted small">The model rejected {a().droppedParams.join(", ")}; it answered without.</p>
      </Show>
      <Show
        when={a().text || a().status === "done"}
        fallback={
          <Show when={working()}>
            <p class="muted placeholder">Waiting for the first tokens…</p>
          </Show>
        }
      >
        <div class={long() && !expanded() ? "answer-body collapsed" : "answer-body"}>
          <Markdown text={a().text} id={bodyId()} />
        </div>
        <Show when={long()}>
          <button
            type="button"
            class="link-button"
            aria-expanded={expanded()}
            aria-controls={bodyId()}
            onClick={() => setExpanded(!expanded())}
          >
            {expanded() ? "Collapse answer" : "Show the whole answer"}
          </button>
        </Show>
      </Show>
    </article>
  );
}
