import { createResource, For, Show } from "solid-js";
import { api, call, type LeaderboardQuery } from "../lib/api";
import { TableFrame } from "./table-frame";

type Odds = Awaited<ReturnType<typeof fetchOdds>>;

const fetchOdds = (query: LeaderboardQuery) => call(api.leaderboard.odds.$get({ query }));

/** "73%"; the ends say "<1%" and ">99%" rather than round a real chance to certainty. */
function percent(p: number): string {
  if (p < 0.005) return "<1%";
  if (p > 0.995) return ">99%";
  return `${Math.round(p * 100)}%`;
}

/**
 * Blue where the row's model is favoured, orange where the column's is, paler towards even odds. Every shade is
 * light enough for the dark text written on it, in either colour scheme.
 */
function shade(p: number): string {
  const strength = Math.min(Math.abs(p - 0.5) * 2, 1);
  const hue = p >= 0.5 ? 212 : 24;
  return `hsl(${hue} 75% ${Math.round(97 - 32 * strength)}%)`;
}

/**
 * Who beats whom among the view's top models: the chance the row's model beats the column's, from the same
 * ratings as the table above (GET /api/leaderboard/odds), as a table whose cells are coloured by that chance.
 */
export function OddsHeatmap(props: { query: LeaderboardQuery; standings: object }) {
  const [odds] = createResource(
    () => ({ query: props.query, standings: props.standings }),
    ({ query }) => fetchOdds(query).catch(() => null),
  );
  const shown = (): Odds | null => {
    const o = odds.latest;
    return o && o.models.filter((m) => m.bt !== null).length >= 2 ? o : null;
  };
  return (
    <Show when={shown()}>
      {(o) => (
        <section class="odds" aria-labelledby="odds-title">
          <h2 id="odds-title">Who beats whom</h2>
          <p id="odds-help" class="muted small">
            The chance the model in the row beats the model in the column in one battle, from the Bradley–Terry ratings
            above: blue where the row's model is favoured, orange where the column's is.
          </p>
          {/* Outside the table, so it wraps at phone width while the table scrolls sideways. */}
          <p id="odds-caption" class="table-title">
            Chance the row's model beats the column's
          </p>
          <TableFrame labelledBy="odds-caption">
            <table class="odds" aria-labelledby="odds-caption" aria-describedby="odds-help">
              <thead>
                <tr>
                  <th scope="col">
                    <span class="sr-only">Row model against column model</span>
                  </th>
                  <For each={o().models}>{(m) => <th scope="col">{m.displayName}</th>}</For>
                </tr>
              </thead>
              <tbody>
                <For each={o().models}>
                  {(row, i) => (
                    <tr>
                      <th scope="row">{row.displayName}</th>
                      <For each={o().odds[i()]}>
                        {(p, j) => (
                          <Show
                            when={p !== null}
                            fallback={
                              <td class="num odds-none">
                                <span aria-hidden="true">—</span>
                                <span class="sr-only">{i() === j() ? "itself" : "not rated yet"}</span>
                              </td>
                            }
                          >
                            <td
                              class="num odds-cell"
                              style={{ "background-color": shade(p!) }}
                              title={`${row.displayName} beats ${o().models[j()].displayName} ${percent(p!)} of the time`}
                            >
                              {percent(p!)}
                            </td>
                          </Show>
                        )}
                      </For>
                    </tr>
                  )}
                </For>
              </tbody>
            </table>
          </TableFrame>
        </section>
      )}
    </Show>
  );
}
