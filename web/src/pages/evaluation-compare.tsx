import { createResource, For, Show } from "solid-js";
import { Alert } from "../components/alert";
import { api, call } from "../lib/api";
import { ContestantName } from "../components/contestant-name";
import { TableFrame } from "../components/table-frame";

const pct = (n: number | null) => (n === null ? "—" : `${(n * 100).toFixed(1)}%`);
const signed = (n: number | null, digits: number, scale = 1) =>
  n === null ? "—" : `${n >= 0 ? "+" : "−"}${Math.abs(n * scale).toFixed(digits)}`;

/** Before and after: per contestant the change in win rate and rating with 95% intervals; items worst first. */
export default function EvaluationComparePage() {
  const query = new URLSearchParams(location.search);
  const [a, b] = [query.get("a") ?? "", query.get("b") ?? ""];
  const [result] = createResource(async () => {
    if (!a || !b)
      return { data: null, error: "Open this page from an evaluation's “Compare with…”: it needs ?a= and ?b=." };
    try {
      return { data: await call(api.evaluations.compare.$get({ query: { a, b } })), error: null };
    } catch (err) {
      return { data: null, error: err instanceof Error ? err.message : String(err) };
    }
  });
  return (
    <>
      <h1>Before and after</h1>
      <Alert message={result()?.error ?? null} />
      <Show when={result()?.data}>
        {(d) => (
          <>
            <p>
              <a href={`/evaluations/${encodeURIComponent(d().a.id)}`}>{d().a.name}</a> →{" "}
              <a href={`/evaluations/${encodeURIComponent(d().b.id)}`}>{d().b.name}</a>
            </p>
            <TableFrame label="Change per contestant">
              <table data-testid="compare-contestants">
                <thead>
                  <tr>
                    <th scope="col">Contestant</th>
                    <th scope="col">Win rate before → after</th>
                    <th scope="col">Change (95% CI)</th>
                    <th scope="col">Rating change (95% CI)</th>
                  </tr>
                </thead>
                <tbody>
                  <For each={d().contestants}>
                    {(c) => (
                      <tr>
                        <th scope="row">
                          <Show when={c.before !== c.after}>
                            <ContestantName id={c.before} names={d().names} /> →{" "}
                          </Show>
                          <ContestantName id={c.after} names={d().names} />
                        </th>
                        <td>
                          {pct(c.winRateBefore)} → {pct(c.winRateAfter)}
                        </td>
                        <td>
                          <strong>{signed(c.winRateChange, 1, 100)} pts</strong>{" "}
                          <span class="muted small">
                            {signed(c.winRateChangeLower, 1, 100)} to {signed(c.winRateChangeUpper, 1, 100)}
                          </span>
                          {c.significant ? "" : <span class="muted small"> (not significant)</span>}
                        </td>
                        <td>
                          {signed(c.btChange, 0)}{" "}
                          <span class="muted small">
                            {signed(c.btChangeLower, 0)} to {signed(c.btChangeUpper, 0)}
                          </span>
                        </td>
                      </tr>
                    )}
                  </For>
                </tbody>
              </table>
            </TableFrame>
            <h2>Items that changed, worst first</h2>
            <Show when={d().items.length > 0} fallback={<p class="muted">No item changed its outcome.</p>}>
              <ol data-testid="compare-items">
                <For each={d().items}>
                  {(item) => (
                    <li>
                      {item.itemId}: <ContestantName id={item.contestant} names={d().names} /> {pct(item.scoreBefore)} →{" "}
                      {pct(item.scoreAfter)}
                    </li>
                  )}
                </For>
              </ol>
            </Show>
          </>
        )}
      </Show>
    </>
  );
}
