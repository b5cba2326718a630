import { Show } from "solid-js";
import { describeCost, TERMINAL_STATUSES, type RunDetail } from "../../../worker/shared/run";
import { COST_HIDDEN, formatTime, formatTotalCost, RUN_STATUS_TEXT } from "../lib/format";
import type { LiveStatus } from "../lib/live";
import { ConnectionStatus } from "./connection-status";
import { RedactionNote } from "./redaction-note";

/** The question, when it was asked, where the run stands, and what it has cost so far. */
export function RunHeader(props: { detail: RunDetail; connection: LiveStatus }) {
  const run = () => props.detail.run;
  const t = () => props.detail.totals;
  const costHidden = () => run().settings.blind && !TERMINAL_STATUSES.includes(run().status);
  return (
    <header class="run-header">
      <p class="muted small">
        <time datetime={new Date(run().createdAt).toISOString()}>{formatTime(run().createdAt)}</time> ·{" "}
        <span class={`badge status-${run().status}`} data-testid="run-status" role="status">
          <span class="sr-only">Run status: </span>
          {RUN_STATUS_TEXT[run().status]}
        </span>{" "}
        · <ConnectionStatus connection={props.connection} />
      </p>
      <h1 id="run-title" class="question">
        {run().question}
      </h1>
      <p class="muted small">
        {run().settings.blind ? "Blind review" : "Names shown"} · self-review{" "}
        {run().settings.selfReview === "exclude" ? "excluded" : `down-weighted ×${run().settings.selfReviewWeight}`} ·
        concurrency {run().settings.concurrency}
        <Show when={run().settings.reviewerWeights === "calibrated"}> · reviewers weighted by judge agreement</Show>
        <Show when={run().settings.reviewers}>
          {(ids) => ` · ${ids().length} reviewer${ids().length === 1 ? "" : "s"} chosen`}
        </Show>
        <Show when={run().settings.rubric}>
          {(rubric) => (
            <>
              {` · rubric of ${rubric().dimensions.length}`}
              <Show when={run().settings.category}>{(c) => ` (${c()})`}</Show>
            </>
          )}
        </Show>{" "}
        · {t().tokensIn + t().tokensOut} tokens ·{" "}
        <span data-testid="run-cost">
          estimated cost {costHidden() ? COST_HIDDEN : describeCost(t(), formatTotalCost)}
        </span>
      </p>
      <RedactionNote redactions={run().settings.redactions} />
      <Show when={run().error}>
        <p class="callout error">{run().error}</p>
      </Show>
    </header>
  );
}
