import { For } from "solid-js";
import { scoringOf } from "../../../worker/shared/rubric";
import type { AggregationView, RunDetail } from "../../../worker/shared/run";
import { formatScore } from "../lib/format";
import { labelTitle } from "../lib/names";
import { VoteMath } from "./vote-math";
import { TableFrame } from "./table-frame";

/** The final ranking in full; the vote math below it shows every number that produced it. */
export function Ranking(props: { detail: RunDetail; aggregation: AggregationView }) {
  const agg = () => props.aggregation;
  const unranked = () => props.detail.answers.filter((a) => !agg().finalRanking.some((e) => e.label === a.label));
  const title = (label: string) => labelTitle(props.detail, label);
  // The second tie-breaker: correctness, or a custom rubric's heaviest dimension.
  const tieKey = () => scoringOf(props.detail.run.settings).tieKey;
  return (
    <>
      <TableFrame label="Final ranking">
        <table class="ranking">
          <caption>Final ranking</caption>
          <thead>
            <tr>
              <th scope="col">Rank</th>
              <th scope="col">Answer</th>
              <th scope="col">Borda points</th>
              <th scope="col">First-place votes</th>
              <th scope="col">Mean overall</th>
              <th scope="col">Mean {tieKey()}</th>
            </tr>
          </thead>
          <tbody>
            <For each={agg().finalRanking}>
              {(e) => (
                <tr data-label={e.label} classList={{ first: e.rank === 1 }}>
                  <td>{e.rank}</td>
                  <th scope="row">{title(e.label)}</th>
                  <td>{formatScore(e.borda, 2)}</td>
                  <td>{formatScore(e.firstPlaceVotes, 2)}</td>
                  <td>{formatScore(e.meanOverall, 2)}</td>
                  <td>{formatScore(agg().voteBreakdown.scoreMeans[e.label]?.[tieKey()] ?? null, 2)}</td>
                </tr>
              )}
            </For>
            <For each={unranked()}>
              {(a) => (
                <tr data-label={a.label} class="unranked">
                  <td>—</td>
                  <th scope="row">{title(a.label)}</th>
                  <td colspan="4">
                    Not ranked: {a.status === "failed" ? "this model gave no answer" : `its answer is ${a.status}`}
                  </td>
                </tr>
              )}
            </For>
          </tbody>
        </table>
      </TableFrame>
      <VoteMath detail={props.detail} aggregation={agg()} />
    </>
  );
}
