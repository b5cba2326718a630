import { For, Show } from "solid-js";
import type { RunDetail } from "../../../worker/shared/run";
import { isTerminal } from "../lib/run-state";
import { Ranking } from "./ranking";
import { ReviewerCard } from "./reviewer-card";
import { ReviewPlan } from "./review-plan";

/**
 * Review and vote: the ranking with its math once aggregated, and every reviewer's ballot. The outcome and the
 * synthesis lead the page instead (run-outcome.tsx).
 */
export function ReviewSection(props: { detail: RunDetail }) {
  const d = () => props.detail;
  const done = () => d().reviewers.filter((r) => r.status === "done").length;
  return (
    <section class="review" aria-labelledby="review-title">
      <h2 id="review-title">Review and vote</h2>
      <ReviewPlan detail={d()} />
      <Show
        when={d().reviewers.length || d().aggregation}
        fallback={
          <p class="muted">
            {d().run.status === "answering" || d().run.status === "pending"
              ? d().run.settings.autoEvaluate
                ? d().run.settings.reviewers
                  ? "The reviewers review the answers once every answer is in."
                  : "The models review each other's answers once every answer is in."
                : "This run does not evaluate automatically: start the review when the answers are in."
              : isTerminal(d())
                ? "No review for this run."
                : "Starting the review…"}
          </p>
        }
      >
        <Show when={d().run.status === "reviewing"}>
          <p role="status">
            Reviewing: {done()} of {d().reviewers.length} reviewers done.
          </p>
        </Show>
        <Show when={d().aggregation}>{(agg) => <Ranking detail={d()} aggregation={agg()} />}</Show>
        <h3>Reviewers</h3>
        <div class="reviewers">
          <For each={d().reviewers}>{(r) => <ReviewerCard detail={d()} reviewer={r} runEnded={isTerminal(d())} />}</For>
        </div>
      </Show>
    </section>
  );
}
