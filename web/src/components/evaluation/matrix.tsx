import { createResource, createSignal, For, Show } from "solid-js";
import { api, call, type EvaluationMatrix } from "../../lib/api";
import { Alert } from "../alert";
import { ItemDetail } from "./item-detail";
import { TableFrame } from "../table-frame";

type Filter = EvaluationMatrix["filter"];

const FILTERS: { value: Filter; label: string }[] = [
  { value: "all", label: "All items" },
  { value: "differ", label: "Where they differ" },
  { value: "failures", label: "Failures" },
  { value: "flips", label: "Flips" },
];

const OUTCOME: Record<EvaluationMatrix["rows"][number]["cells"][number]["outcome"], string> = {
  win: "won",
  loss: "lost",
  tie: "even",
  baseline: "baseline",
  failed: "failed",
  pending: "…",
};

/** A goal battle's result for the cell's contestant, with the battle's transcript a link away. */
const BATTLE_RESULT = { win: "won", loss: "lost", tie: "tied", none: "no contest" } as const;

/** Item × contestant: how each contestant fared on each item; open an item to read its answers and verdicts. */
export function EvaluationMatrixView(props: { id: string; names: Map<string, string>; version: number }) {
  const [filter, setFilter] = createSignal<Filter>("all");
  const [open, setOpen] = createSignal<string | null>(null);
  const [matrix] = createResource(
    () => ({ filter: filter(), version: props.version }),
    async (q) => {
      try {
        return {
          data: await call(
            api.evaluations[":id"].matrix.$get({ param: { id: props.id }, query: { filter: q.filter } }),
          ),
          error: null,
        };
      } catch (err) {
        return { data: null, error: err instanceof Error ? err.message : String(err) };
      }
    },
  );
  const name = (id: string) => props.names.get(id) ?? id;
  return (
    <section aria-labelledby="matrix-title">
      <h2 id="matrix-title">Items</h2>
      <div class="segmented" role="group" aria-label="Show">
        <For each={FILTERS}>
          {(f) => (
            <button type="button" aria-pressed={filter() === f.value} onClick={() => setFilter(f.value)}>
              {f.label}
            </button>
          )}
        </For>
      </div>
      <Alert message={matrix()?.error ?? null} />
      <Show when={matrix()?.data}>
        {(m) => (
          <>
            <p class="muted small" data-testid="matrix-count">
              {m().rows.length} of {m().total} items
            </p>
            <TableFrame label="Items by contestant" pinned>
              <table class="matrix" data-testid="evaluation-matrix">
                <thead>
                  <tr>
                    <th scope="col">Item</th>
                    <For each={m().contestants}>{(c) => <th scope="col">{name(c)}</th>}</For>
                    <th scope="col">Flips</th>
                  </tr>
                </thead>
                <tbody>
                  <For each={m().rows}>
                    {(row) => (
                      <tr data-item={row.itemId}>
                        <th scope="row">
                          <button
                            type="button"
                            class="link"
                            aria-expanded={open() === row.itemId}
                            onClick={() => setOpen(open() === row.itemId ? null : row.itemId)}
                          >
                            {row.itemId}
                          </button>
                          <Show when={row.category}>
                            <span class="muted small"> {row.category}</span>
                          </Show>
                        </th>
                        <For each={row.cells}>
                          {(cell) => (
                            <td class={`outcome-${cell.outcome}`}>
                              {OUTCOME[cell.outcome]}
                              <Show when={cell.score !== null && cell.outcome !== "baseline"}>
                                <span class="muted small"> {Math.round((cell.score ?? 0) * 100)}%</span>
                              </Show>
                              <For each={cell.battles ?? []}>
                                {(b) => (
                                  <a
                                    class="small goal-battle-link"
                                    href={`/goal-battles/${encodeURIComponent(b.battleId)}`}
                                    title={b.reason ?? undefined}
                                  >
                                    {BATTLE_RESULT[b.result]} vs {name(b.opponent)}
                                    {b.endedReason ? ` (${b.endedReason})` : ""}
                                  </a>
                                )}
                              </For>
                            </td>
                          )}
                        </For>
                        <td>{row.flips || ""}</td>
                      </tr>
                    )}
                  </For>
                </tbody>
              </table>
            </TableFrame>
          </>
        )}
      </Show>
      <Show when={open()}>
        {(itemId) => <ItemDetail id={props.id} itemId={itemId()} names={props.names} onClose={() => setOpen(null)} />}
      </Show>
    </section>
  );
}
