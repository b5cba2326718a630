import { For, Show } from "solid-js";
import { MIN_HUMAN_VOTES_PER_PAIR } from "../../../../worker/shared/constants";
import type { EvaluationReport } from "../../lib/api";
import { TableFrame } from "../table-frame";

const pct = (n: number | null) => (n === null ? "—" : `${(n * 100).toFixed(0)}%`);

/**
 * Each judge's flips (the two orders favouring opposite contestants), how often two judges leaned alike, and how
 * often each favoured the side people favoured in the arena on the same pairs.
 */
export function EvaluationJudges(props: { report: EvaluationReport; names: Map<string, string> }) {
  const name = (id: string) => props.names.get(id) ?? id;
  return (
    <section aria-labelledby="evaluation-judges-title">
      <h2 id="evaluation-judges-title">Judges</h2>
      <TableFrame labelledBy="evaluation-judges-title">
        <table data-testid="evaluation-judges">
          <thead>
            <tr>
              <th scope="col">Judge</th>
              <th scope="col">Verdicts</th>
              <th scope="col">Failed</th>
              <th scope="col">Pairs seen both ways</th>
              <th scope="col">Flips</th>
              <th scope="col">Flip rate</th>
            </tr>
          </thead>
          <tbody>
            <For each={props.report.judgeSummaries}>
              {(j) => (
                <tr>
                  <th scope="row">{name(j.judge)}</th>
                  <td>{j.judgments}</td>
                  <td>{j.failures}</td>
                  <td>{j.pairs}</td>
                  <td>{j.flips}</td>
                  <td>{pct(j.flipRate)}</td>
                </tr>
              )}
            </For>
          </tbody>
        </table>
      </TableFrame>
      <Show when={props.report.judgeAgreement.length > 0}>
        <ul>
          <For each={props.report.judgeAgreement}>
            {(a) => (
              <li>
                {name(a.judges[0])} and {name(a.judges[1])} leaned the same way on {pct(a.agreement)} of {a.pairs}{" "}
                pairs.
              </li>
            )}
          </For>
        </ul>
      </Show>
      <h3 id="evaluation-human-agreement-title">Against human votes in the arena</h3>
      <p class="muted">{props.report.methods.humanAgreement}.</p>
      <TableFrame labelledBy="evaluation-human-agreement-title">
        <table data-testid="evaluation-human-agreement">
          <thead>
            <tr>
              <th scope="col">Judge</th>
              <th scope="col">Pairs</th>
              <th scope="col">Human votes</th>
              <th scope="col">Agreed</th>
              <th scope="col">Agreement</th>
            </tr>
          </thead>
          <tbody>
            <For each={props.report.judgeHumanAgreement}>
              {(h) => (
                <tr>
                  <th scope="row">{name(h.judge)}</th>
                  <td>{h.pairs}</td>
                  <td>{h.humanVotes}</td>
                  <td>{h.agreed}</td>
                  <td>
                    {h.agreement !== null
                      ? pct(h.agreement)
                      : h.pairsWithTooFewVotes
                        ? `too few human votes (under ${MIN_HUMAN_VOTES_PER_PAIR} a pair)`
                        : "no human votes on these pairs"}
                  </td>
                </tr>
              )}
            </For>
          </tbody>
        </table>
      </TableFrame>
    </section>
  );
}
