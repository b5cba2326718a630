import { For, Show } from "solid-js";
import type { EvaluationReport } from "../../lib/api";
import { ContestantName } from "../contestant-name";
import { TableFrame } from "../table-frame";

type Row = EvaluationReport["rows"][number];

const rating = (n: number | null) => (n === null ? "—" : n.toFixed(0));
const pct = (n: number | null) => (n === null ? "—" : `${(n * 100).toFixed(1)}%`);
const usd = (n: number | null) => (n === null ? "unpriced" : `$${n < 0.01 ? n.toFixed(4) : n.toFixed(2)}`);
const interval = (lower: string, upper: string) => `${lower} – ${upper}`;

/** The evaluation's leaderboard: best rating first; every figure with its 95% interval. */
export function EvaluationLeaderboard(props: { report: EvaluationReport }) {
  const rows = () => [...props.report.rows].sort((a, b) => (b.bt ?? -Infinity) - (a.bt ?? -Infinity));
  const against = () =>
    props.report.baseline
      ? `against ${props.report.rows.find((r) => r.contestant === props.report.baseline)?.displayName ?? props.report.baseline}`
      : "against the others (mean): no baseline was given";
  return (
    <>
      <p id="evaluation-leaderboard-title" class="table-title">
        Leaderboard: win rate {against()}, 95% intervals
      </p>
      <p class="scroll-hint muted small" aria-hidden="true">
        Swipe the table sideways for every column →
      </p>
      <TableFrame labelledBy="evaluation-leaderboard-title" pinned>
        <table class="leaderboard" aria-labelledby="evaluation-leaderboard-title" data-testid="evaluation-leaderboard">
          <thead>
            <tr>
              <th scope="col" title="The best rank its 95% interval allows">
                Rank
              </th>
              <th scope="col">Contestant</th>
              <th scope="col">Rating (95% CI)</th>
              <th scope="col">Win rate (95% CI)</th>
              <th scope="col" title="The win rate predicted at equal answer length">
                Length-controlled
              </th>
              <th scope="col" title="Rating with length and Markdown style held equal">
                Style-controlled
              </th>
              <th scope="col">Games</th>
              <th scope="col">Cost</th>
              <th scope="col">Failures</th>
            </tr>
          </thead>
          <tbody>
            <For each={rows()}>
              {(r: Row) => (
                <tr data-contestant={r.contestant}>
                  <td>{r.rank ?? "—"}</td>
                  <th scope="row">
                    <ContestantName id={r.contestant} names={props.report.names} />
                    <Show when={r.contestant === props.report.baseline}>
                      {" "}
                      <span class="badge">baseline</span>
                    </Show>
                  </th>
                  <td>
                    {rating(r.bt)} <span class="muted small">{interval(rating(r.ciLower), rating(r.ciUpper))}</span>
                  </td>
                  <td data-testid="win-rate">
                    {pct(r.winRate)}{" "}
                    <span class="muted small">{interval(pct(r.winRateLower), pct(r.winRateUpper))}</span>
                  </td>
                  <td>{pct(r.lcWinRate)}</td>
                  <td>
                    {rating(r.styleBt)}{" "}
                    <span class="muted small">{interval(rating(r.styleCiLower), rating(r.styleCiUpper))}</span>
                  </td>
                  <td>{r.games}</td>
                  <td>{usd(r.costUsd)}</td>
                  <td>{r.failures}</td>
                </tr>
              )}
            </For>
          </tbody>
        </table>
      </TableFrame>
    </>
  );
}

/** Whether the leader is apart from the rest at 95%, said plainly. */
export function SeparationNote(props: { report: EvaluationReport }) {
  const nameOf = (id: string) => props.report.rows.find((r) => r.contestant === id)?.displayName ?? id;
  const s = () => props.report.separation;
  return (
    <p class="outcome-strip" data-testid="separation">
      <Show
        when={s().best}
        fallback={
          <Show when={s().tiedWithBest.length > 0} fallback="Too few judged games to rank anyone yet.">
            <strong>Not separable with these items:</strong> {s().tiedWithBest.map(nameOf).join(", ")} overlap at 95%.
            <Show when={s().moreItemsNeeded}>
              {" "}
              About {s().moreItemsNeeded} more items like these would tell them apart.
            </Show>
          </Show>
        }
      >
        {(best) => (
          <>
            <strong>{nameOf(best())}</strong> is best at 95% confidence.
          </>
        )}
      </Show>
    </p>
  );
}
