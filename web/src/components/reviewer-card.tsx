import { For, Show } from "solid-js";
import { OVERALL, overallOf, scoringOf, shownScoreKeys } from "../../../worker/shared/rubric";
import type { ReviewerView, RunDetail } from "../../../worker/shared/run";
import { formatCallCost, formatMs, formatScore, formatTokens } from "../lib/format";
import { labelTitle, reviewerTitle } from "../lib/names";

const REVIEW_STATUS_TEXT: Record<ReviewerView["status"], string> = {
  pending: "Waiting",
  running: "Reviewing",
  done: "Done",
  failed: "Failed",
  cancelled: "Cancelled",
};

function prettyJson(raw: string): string {
  try {
    return JSON.stringify(JSON.parse(raw), null, 2);
  } catch {
    return raw;
  }
}

/** One reviewer's ballot: its ranking, its critique and scores of each answer, and its raw output. */
export function ReviewerCard(props: { detail: RunDetail; reviewer: ReviewerView; runEnded: boolean }) {
  const r = () => props.reviewer;
  const reviews = () =>
    props.detail.reviews
      .filter((v) => v.reviewSetId === r().id)
      .sort((a, b) => a.targetLabel.localeCompare(b.targetLabel));
  const name = () => reviewerTitle(props.detail, r());
  const working = () => r().status === "pending" || r().status === "running";
  const scoring = () => scoringOf(props.detail.run.settings);
  /** A custom rubric's overall is not scored but computed: Σ weight·score ÷ Σ weight. */
  const scoreOf = (scores: Record<string, number>, key: string) =>
    key === OVERALL && !scoring().askedOverall ? overallOf(scoring(), scores) : scores[key];
  return (
    <article class="card reviewer-card" aria-label={`Review by ${name()}`} data-status={r().status}>
      <header class="card-head">
        <h4>
          Review by {name()}
          <Show when={r().reviewerLabel === null}>
            {" "}
            <span class="badge" data-testid="judge-only">
              judge only
            </span>
          </Show>
        </h4>
        <p class={`status status-${r().status}`}>
          <Show when={working()}>
            <span class="spinner" aria-hidden="true" />
          </Show>
          {REVIEW_STATUS_TEXT[r().status]}
        </p>
      </header>
      <Show when={r().status === "failed"}>
        <p class="callout error">
          <strong>This review failed:</strong> {r().error ?? "no reason given"}
        </p>
      </Show>
      <Show when={r().ranking}>
        <p>
          Ranking: <strong>{r().ranking!.join(" › ")}</strong>
          <Show when={r().confidence !== null}> · confidence {formatScore(r().confidence, 2)}</Show>
          <Show when={r().weight !== null && r().weight !== 1}> · ballot weight ×{formatScore(r().weight, 2)}</Show>
        </p>
      </Show>
      <Show when={r().latencyMs !== null || r().tokensIn !== null}>
        <p class="muted small">
          {formatMs(r().latencyMs)} · {formatTokens(r().tokensIn, r().tokensOut)} ·{" "}
          {formatCallCost(r(), r().reviewerModelId === null)}
        </p>
      </Show>
      <For each={reviews()}>
        {(v) => (
          <section class="critique" aria-label={`On ${labelTitle(props.detail, v.targetLabel)}`}>
            <h5>On {labelTitle(props.detail, v.targetLabel)}</h5>
            <dl class="scores">
              <For each={shownScoreKeys(scoring())}>
                {(k) => (
                  <div>
                    <dt>{k}</dt>
                    <dd>{formatScore(scoreOf(v.scores, k))}</dd>
                  </div>
                )}
              </For>
            </dl>
            <p class="critique-text">{v.critique}</p>
          </section>
        )}
      </For>
      <details class="raw">
        <summary>Raw output (JSON)</summary>
        <Show
          when={r().rawOutput}
          fallback={
            <p class="muted small">
              {working()
                ? "Not yet: the review is under way."
                : props.runEnded
                  ? "No raw output was recorded."
                  : "Appears once the run has ended."}
            </p>
          }
        >
          <pre>
            <code>{prettyJson(r().rawOutput!)}</code>
          </pre>
        </Show>
      </details>
    </article>
  );
}
