import { Show } from "solid-js";
import type { AnswerStatus, SynthesisView } from "../../../worker/shared/run";
import { formatCallCost, formatMs, formatTokens } from "../lib/format";
import { Markdown } from "./markdown";

const STATUS_TEXT: Record<AnswerStatus, string> = {
  pending: "Waiting for the ranking",
  streaming: "Writing",
  done: "Done",
  failed: "Failed",
  cancelled: "Cancelled",
};

/** The chair's final answer: streamed like an answer, marked as a synthesis, never ranked. */
export function SynthesisCard(props: { synthesis: SynthesisView }) {
  const s = () => props.synthesis;
  const working = () => s().status === "pending" || s().status === "streaming";
  return (
    <article
      class="card synthesis-card"
      aria-labelledby="synthesis-title"
      data-status={s().status}
      aria-busy={working()}
      data-testid="synthesis"
    >
      <header class="card-head">
        <div>
          <h3 id="synthesis-title">Synthesis by {s().displayName}</h3>
          <p class="muted small">
            <span class="badge">Synthesis</span> written from the ranked answers and their critiques; not ranked ·{" "}
            <code>{s().modelId}</code>
          </p>
        </div>
        <p class={`status status-${s().status}`}>
          <Show when={working()}>
            <span class="spinner" aria-hidden="true" />
          </Show>
          {STATUS_TEXT[s().status]}
        </p>
      </header>
      <dl class="metrics">
        <div>
          <dt>Latency</dt>
          <dd>{formatMs(s().latencyMs)}</dd>
        </div>
        <div>
          <dt>Tokens</dt>
          <dd>{formatTokens(s().tokensIn, s().tokensOut)}</dd>
        </div>
        <div>
          <dt>Cost (est.)</dt>
          <dd>{formatCallCost(s())}</dd>
        </div>
      </dl>
      <Show when={s().status === "failed"}>
        <p class="callout error">
          <strong>The synthesis failed:</strong> {s().error ?? "no reason given"}. The ranking below stands without it.
        </p>
      </Show>
      <Show when={s().truncated}>
        <p class="callout warn small">
          {s().status === "failed"
            ? "The stream broke; what arrived before it is kept below."
            : "Cut short: the model hit its output limit."}
        </p>
      </Show>
      <Show
        when={s().text}
        fallback={
          <Show when={s().status === "streaming"}>
            <p class="muted placeholder">Waiting for the first tokens…</p>
          </Show>
        }
      >
        <Markdown text={s().text} id="synthesis-body" />
      </Show>
    </article>
  );
}
