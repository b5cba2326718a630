import { For, Show } from "solid-js";
import type { LeaderboardQuery, Standings } from "../lib/api";
import { RankNote } from "./rank-note";
import { TableFrame } from "./table-frame";

type Order = NonNullable<LeaderboardQuery["order"]>;

interface Props {
  standings: Standings;
  caption: string;
  onOrder: (order: Order) => void;
}

const num = (n: number | null, digits = 0) => (n === null ? "—" : n.toFixed(digits));
const pct = (n: number | null) => (n === null ? "—" : `${n.toFixed(1)}%`);

/** The standings, one row per model; the rating columns sort the way the API can order them (best first). */
export function LeaderboardTable(props: Props) {
  const SortHead = (p: { order: Order; label: string }) => (
    <th scope="col" aria-sort={props.standings.order === p.order ? "descending" : "none"}>
      <button type="button" class="sort" onClick={() => props.onOrder(p.order)}>
        {p.label}
        <span aria-hidden="true">{props.standings.order === p.order ? " ▼" : ""}</span>
      </button>
    </th>
  );
  return (
    <>
      {/* Outside the table, so it wraps at phone width while the table scrolls sideways. */}
      <p id="leaderboard-caption" class="table-title">
        {props.caption}
      </p>
      <p class="scroll-hint muted small" aria-hidden="true">
        Swipe the table sideways for every column →
      </p>
      <TableFrame labelledBy="leaderboard-caption" pinned>
        <table class="leaderboard" aria-labelledby="leaderboard-caption">
          <thead>
            <tr>
              <th
                scope="col"
                aria-describedby="rank-note"
                title="The best and worst rank the Bradley–Terry 95% intervals allow, whatever the sort"
              >
                Rank (BT 95%)
              </th>
              <th scope="col">Model</th>
              <SortHead order="bt" label="BT rating (95% CI)" />
              <SortHead order="elo" label="Elo" />
              <SortHead order="trueskill" label="TrueSkill μ ± σ" />
              <th scope="col">Wins</th>
              <th scope="col">Appearances</th>
              <SortHead order="winRate" label="Win rate" />
              <th scope="col">Tie rate</th>
              <th scope="col">Battles</th>
            </tr>
          </thead>
          <tbody>
            <For each={props.standings.rows}>
              {(r) => (
                <tr data-model={r.modelId}>
                  <td data-testid="rank" title={separationText(r.separation, props.standings.rows)}>
                    {rankText(r.rankUpper ?? r.rank, r.rankLower)}
                  </td>
                  <th scope="row">
                    {r.displayName}
                    <Show when={r.provisional}>
                      {" "}
                      <span
                        class="badge demo"
                        title="Too few battles connect this model to the rest for an exact fit: its rating may move a lot."
                      >
                        provisional
                      </span>
                    </Show>
                    <Show when={r.newModel}>
                      {" "}
                      <span
                        class="badge new"
                        title="Few battles yet: the arena draws this model more often until it has enough (QUORUM_NEW_MODEL_BATTLES)."
                      >
                        new
                      </span>
                    </Show>
                    <Show when={r.displayName !== r.modelId}>
                      <br />
                      <code class="muted small">{r.modelId}</code>
                    </Show>
                    <Show when={r.baseModel}>
                      {(base) => (
                        <>
                          <br />
                          <span class="muted small" data-testid="base-model">
                            on <code>{base()}</code>
                          </span>
                        </>
                      )}
                    </Show>
                  </th>
                  <td class="num">
                    {num(r.bt)}
                    <Show when={r.ciLower !== null && r.ciUpper !== null}>
                      <span class="muted small ci">
                        {" "}
                        {num(r.ciLower)}–{num(r.ciUpper)}
                      </span>
                    </Show>
                  </td>
                  <td class="num">{num(r.elo)}</td>
                  <td class="num" data-col="trueskill">
                    <Show when={r.mu !== null && r.sigma !== null} fallback="—">
                      {num(r.mu, 1)} ± {num(r.sigma, 1)}
                      <span class="muted small ci">μ − 3σ = {num(r.conservative, 1)}</span>
                    </Show>
                  </td>
                  <td class="num">{r.wins}</td>
                  <td class="num">{r.appearances}</td>
                  <td class="num">{pct(r.winRate)}</td>
                  <td class="num">{pct(r.tieRate)}</td>
                  <td class="num">{r.battles}</td>
                </tr>
              )}
            </For>
          </tbody>
        </table>
      </TableFrame>
      <RankNote standings={props.standings} />
    </>
  );
}

/** "3", or the Arena's rank spread "2–5" when the intervals allow more than one rank. */
function rankText(best: number | null, worst: number | null | undefined): string {
  if (best === null) return "—";
  return worst === null || worst === undefined || worst === best ? String(best) : `${best}–${worst}`;
}

/** The rank cell's tooltip: how many battles would tell this model apart from the one rated next below. */
function separationText(
  separation: { modelId: string; battles: number | null } | null,
  rows: readonly { modelId: string; displayName: string }[],
): string | undefined {
  if (!separation) return undefined;
  const next = rows.find((r) => r.modelId === separation.modelId)?.displayName ?? separation.modelId;
  return separation.battles === null
    ? `Rated the same as ${next}: more battles won't separate them at today's rate.`
    : `About ${separation.battles} more battles against ${next} would tell them apart at today's rate.`;
}
