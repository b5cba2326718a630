import { For, Show } from "solid-js";
import { MIN_AGREEMENT_COMPARISONS } from "../../../worker/shared/constants";
import { reviewerAgreement } from "../../../worker/shared/reviewer-agreement";
import { type AggregationView, type AnswerView, describeCost, type RunDetail } from "../../../worker/shared/run";
import { COST_HIDDEN, formatTotalCost } from "../lib/format";
import { labelTitle } from "../lib/names";
import { isTerminal } from "../lib/run-state";
import { rankText } from "./rank-badge";
import { SynthesisCard } from "./synthesis-card";

const calls = (n: number) => `${n} head-to-head ${n === 1 ? "call" : "calls"}`;

/** "83% (5 of 6 head-to-head calls)", or why there is no figure yet. */
function agreementText(agg: AggregationView): string {
  const a = reviewerAgreement(agg.voteBreakdown.reviewers.map((r) => r.ranking));
  if (a.percent === null)
    return a.comparisons === 0
      ? `too few to say: no two reviewers ranked the same two answers (${MIN_AGREEMENT_COMPARISONS} shared calls needed)`
      : `too few to say: ${a.agreeing} of ${calls(a.comparisons)} agree (${MIN_AGREEMENT_COMPARISONS} needed)`;
  return `${Math.round(a.percent)}% (${a.agreeing} of ${calls(a.comparisons)})`;
}

/** The outcome of a council run at a glance, above everything else: winner, ranking, agreement, tokens and cost. */
export function RunOutcome(props: { detail: RunDetail; aggregation: AggregationView }) {
  const agg = () => props.aggregation;
  const title = (label: string) => labelTitle(props.detail, label);
  const winners = () => agg().finalRanking.filter((e) => e.rank === 1);
  const t = () => props.detail.totals;
  const costHidden = () => props.detail.run.settings.blind && !isTerminal(props.detail);
  return (
    <section class="card outcome-strip" aria-labelledby="outcome-title" data-testid="run-outcome">
      <h2 id="outcome-title" class="outcome-title">
        Outcome
      </h2>
      <p class="winner" data-testid="winner">
        {winners().length > 1 ? "Tied winners: " : "Winner: "}
        <strong>
          {winners()
            .map((w) => title(w.label))
            .join(", ")}
        </strong>
      </p>
      <ol class="outcome-ranking" aria-label="Ranking">
        <For each={agg().finalRanking}>
          {(e) => (
            <li data-label={e.label} data-rank={e.rank}>
              <span class="badge rank-badge" classList={{ first: e.rank === 1 }}>
                {rankText(e.rank, agg().finalRanking)}
              </span>{" "}
              {title(e.label)}
            </li>
          )}
        </For>
      </ol>
      <dl class="outcome-facts">
        <div>
          <dt>Reviewers agree</dt>
          <dd data-testid="reviewer-agreement">{agreementText(agg())}</dd>
        </div>
        <div>
          <dt>Tokens</dt>
          <dd>{t().tokensIn + t().tokensOut}</dd>
        </div>
        <div>
          <dt>Cost (est.)</dt>
          <dd>{costHidden() ? COST_HIDDEN : describeCost(t(), formatTotalCost)}</dd>
        </div>
      </dl>
      <p class="small">
        <a href="#review-title">How the ranking was counted</a>
      </p>
    </section>
  );
}

/** What a run page shows first: the outcome once the answers are ranked, then the synthesis once it has started. */
export function OutcomeFirst(props: { detail: RunDetail }) {
  return (
    <>
      <Show when={props.detail.aggregation}>{(agg) => <RunOutcome detail={props.detail} aggregation={agg()} />}</Show>
      <Show when={props.detail.synthesis?.status !== "pending" && props.detail.synthesis}>
        {(s) => <SynthesisCard synthesis={s()} />}
      </Show>
    </>
  );
}

/** The answers in the order of the final ranking once there is one (unranked ones last), else as labelled. */
export function rankedAnswers(detail: RunDetail): AnswerView[] {
  const ranking = detail.aggregation?.finalRanking;
  if (!ranking) return detail.answers;
  const place = (a: AnswerView) => ranking.findIndex((e) => e.label === a.label);
  const order = (a: AnswerView) => (place(a) < 0 ? ranking.length : place(a));
  return [...detail.answers].sort((x, y) => order(x) - order(y));
}
