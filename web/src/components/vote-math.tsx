import { For, Show } from "solid-js";
import { scoringOf, shownScoreKeys } from "../../../worker/shared/rubric";
import type { AggregationView, RunDetail } from "../../../worker/shared/run";
import { formatScore } from "../lib/format";
import { labelTitle, reviewerTitle } from "../lib/names";
import { TableFrame } from "./table-frame";

const tieBreakText = (decidedBy: AggregationView["voteBreakdown"]["tieBreaks"][number]["decidedBy"], tieKey: string) =>
  decidedBy === "meanOverall"
    ? "decided by the higher mean overall score"
    : decidedBy === "shared"
      ? "still tied after both tie-breakers, so they share a rank"
      : `decided by the higher mean ${decidedBy === "meanCorrectness" ? "correctness" : tieKey} score`;

type PositionBias = NonNullable<AggregationView["voteBreakdown"]["positionBias"]>;

/** "3 of 4 reviewers ranked first the answer they were shown first (1.3 expected by chance)." */
function positionBiasText(p: PositionBias): string {
  const expected = formatScore(p.expected, 1);
  return `Position bias: ${p.firstShownRankedFirst} of ${p.reviewers} ${p.reviewers === 1 ? "reviewer" : "reviewers"} ranked first the answer they were shown first (${expected} expected by chance).`;
}

type Calibration = NonNullable<AggregationView["voteBreakdown"]["calibration"]>[string];

/** "72% agreement over 14 votes", or how a reviewer without a record was weighed. */
function calibrationText(c: Calibration): string {
  return c
    ? `${Math.round(c.agreement)}% agreement over ${c.comparisons} ${c.comparisons === 1 ? "vote" : "votes"}`
    : "average (no record)";
}

/** How the vote was counted: Borda points per reviewer, tie-breaks, score means and the pairwise matrix. */
export function VoteMath(props: { detail: RunDetail; aggregation: AggregationView }) {
  const agg = () => props.aggregation;
  const vb = () => agg().voteBreakdown;
  const labels = () => agg().finalRanking.map((e) => e.label);
  // Runs from before reviewers saw their own order have neither.
  const shownOrders = () => vb().reviewers.some((r) => r.shownOrder?.length);
  const title = (label: string) => labelTitle(props.detail, label);
  const scoring = () => scoringOf(props.detail.run.settings);
  const reviewerOf = (reviewSetId: string, label: string | null) => {
    const r = props.detail.reviewers.find((x) => x.id === reviewSetId);
    return reviewerTitle(props.detail, { reviewerModelId: r?.reviewerModelId ?? null, reviewerLabel: label });
  };
  return (
    <details class="vote-math" open>
      <summary>How the vote was counted</summary>
      <p class="small">
        Borda count: each reviewer gives N−1 points to its first choice, N−2 to the next, down to 0 for its last, over
        the answers it ranked
        {props.detail.run.settings.selfReview === "exclude"
          ? " (its own answer left out)"
          : ` (its own answer included, its ballot weighted ×${props.detail.run.settings.selfReviewWeight})`}
        .
        <Show when={vb().calibration}>
          {" "}
          Each ballot is weighted by how often its reviewer agreed with people when it judged in the Arena; a reviewer
          without enough judged votes gets the average weight of the others.
        </Show>{" "}
        Ties go to the higher mean overall score{scoring().askedOverall ? "" : " (the rubric's weighted mean)"}, then
        the higher mean {scoring().tieKey}; answers still tied share a rank. Method {agg().methodVersion}.
      </p>
      <Show when={vb().tieBreaks.length} fallback={<p class="small">No tie-breaks were needed.</p>}>
        <ul class="small" aria-label="Tie-breaks applied">
          <For each={vb().tieBreaks}>
            {(t) => (
              <li>
                {t.labels.map(title).join(" and ")} tied on Borda points: {tieBreakText(t.decidedBy, scoring().tieKey)}.
              </li>
            )}
          </For>
        </ul>
      </Show>
      <p class="small">
        {vb().condorcetWinner
          ? `Head to head, ${title(vb().condorcetWinner!)} beats every other answer (Condorcet winner).`
          : "No answer beats every other head to head (no Condorcet winner)."}
      </p>
      <Show when={vb().positionBias}>
        {(p) => (
          <p class="small" data-testid="position-bias">
            {positionBiasText(p())} Each reviewer read the answers in its own shuffled order, so no answer was always
            first.
          </p>
        )}
      </Show>
      <TableFrame label="Borda points by reviewer">
        <table>
          <caption>Borda points by reviewer</caption>
          <thead>
            <tr>
              <th scope="col">Reviewer</th>
              <th scope="col">Weight</th>
              <Show when={shownOrders()}>
                <th scope="col">Shown order</th>
              </Show>
              <th scope="col">Ranking</th>
              <For each={labels()}>{(l) => <th scope="col">{l}</th>}</For>
            </tr>
          </thead>
          <tbody>
            <For each={vb().reviewers}>
              {(r) => (
                <tr>
                  <th scope="row">{reviewerOf(r.reviewSetId, r.reviewerLabel)}</th>
                  <td>
                    {formatScore(r.weight, 2)}
                    <Show when={vb().calibration}>
                      {(cal) => (
                        <span class="muted small calibration" data-testid="calibration">
                          {calibrationText(cal()[r.reviewSetId] ?? null)}
                        </span>
                      )}
                    </Show>
                  </td>
                  <Show when={shownOrders()}>
                    <td data-col="shown-order">{r.shownOrder?.join(", ") || "—"}</td>
                  </Show>
                  <td>{r.ranking.join(" › ")}</td>
                  <For each={labels()}>{(l) => <td>{formatScore(r.points[l], 2)}</td>}</For>
                </tr>
              )}
            </For>
          </tbody>
          <tfoot>
            <tr>
              <th scope="row" colspan={shownOrders() ? 4 : 3}>
                Total
              </th>
              <For each={labels()}>{(l) => <td>{formatScore(vb().bordaTotals[l], 2)}</td>}</For>
            </tr>
          </tfoot>
        </table>
      </TableFrame>
      <TableFrame label="Mean scores">
        <table>
          <caption>Mean scores (0–10)</caption>
          <thead>
            <tr>
              <th scope="col">Answer</th>
              <For each={shownScoreKeys(scoring())}>{(k) => <th scope="col">{k}</th>}</For>
            </tr>
          </thead>
          <tbody>
            <For each={labels()}>
              {(l) => (
                <tr>
                  <th scope="row">{l}</th>
                  <For each={shownScoreKeys(scoring())}>
                    {(k) => <td>{formatScore(vb().scoreMeans[l]?.[k], 2)}</td>}
                  </For>
                </tr>
              )}
            </For>
          </tbody>
        </table>
      </TableFrame>
      <TableFrame label="Pairwise matrix">
        <table class="pairwise">
          <caption>Pairwise: reviewers (weighted) who ranked the row's answer above the column's</caption>
          <thead>
            <tr>
              <th scope="col">
                <span class="sr-only">Row over column</span>
              </th>
              <For each={labels()}>{(l) => <th scope="col">{l}</th>}</For>
            </tr>
          </thead>
          <tbody>
            <For each={labels()}>
              {(row) => (
                <tr>
                  <th scope="row">{row}</th>
                  <For each={labels()}>
                    {(col) => <td>{row === col ? "—" : formatScore(vb().pairwise[row]?.[col] ?? 0, 2)}</td>}
                  </For>
                </tr>
              )}
            </For>
          </tbody>
        </table>
      </TableFrame>
    </details>
  );
}
