import { For, Show } from "solid-js";
import { formatSpend } from "../lib/format";
import { TableFrame } from "./table-frame";

export interface SpendRow {
  /** what the row is: a day, a provider, a model id, a feature */
  name: string;
  usd: number;
  unknownCostCalls: number;
  calls: number;
}

/** One breakdown of the spend as a table; it scrolls sideways inside its frame on a narrow screen. */
export function SpendTable(props: {
  id: string;
  title: string;
  nameHeader: string;
  rows: SpendRow[];
  /** names are ids (model ids, days): shown as code */
  ids?: boolean;
}) {
  return (
    <section class="spend-table">
      <h2 id={`${props.id}-caption`}>{props.title}</h2>
      <TableFrame labelledBy={`${props.id}-caption`}>
        <table aria-labelledby={`${props.id}-caption`} data-testid={props.id}>
          <thead>
            <tr>
              <th scope="col">{props.nameHeader}</th>
              <th scope="col" class="num">
                Spent
              </th>
              <th scope="col" class="num">
                Calls
              </th>
              <th scope="col" class="num">
                No price
              </th>
            </tr>
          </thead>
          <tbody>
            <For each={props.rows}>
              {(r) => (
                <tr data-name={r.name} data-usd={r.usd}>
                  <th scope="row">
                    <Show when={props.ids} fallback={r.name}>
                      <code>{r.name}</code>
                    </Show>
                  </th>
                  <td class="num">{formatSpend(r)}</td>
                  <td class="num">{r.calls}</td>
                  <td class="num">{r.unknownCostCalls || "—"}</td>
                </tr>
              )}
            </For>
          </tbody>
        </table>
      </TableFrame>
    </section>
  );
}
