import { For, Show } from "solid-js";
import type { EvaluationReport } from "../../lib/api";
import { TableFrame } from "../table-frame";

const pct = (n: number | null) => (n === null ? "—" : `${(n * 100).toFixed(0)}%`);

/** Each judge's flips (the two orders favouring opposite contestants) and how often two judges leaned alike. */
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
    </section>
  );
}
