import { Show } from "solid-js";
import type { Standings } from "../lib/api";

/** True when the table has several rated models and the intervals let every one of them rank first. */
export function allCanRankFirst(rows: Standings["rows"]): boolean {
  const rated = rows.filter((r) => (r.rankUpper ?? r.rank) !== null);
  return rated.length > 1 && rated.every((r) => (r.rankUpper ?? r.rank) === 1);
}

/**
 * What the rank column means, under the table: it comes from the Bradley–Terry intervals whatever column sorts
 * the rows, so sorted by Elo or TrueSkill it need not run 1, 2, 3; and when every model can still rank first,
 * why (their intervals overlap: too few battles to separate them).
 */
export function RankNote(props: { standings: Standings }) {
  const battles = () => props.standings.totalBattles;
  return (
    <>
      <p id="rank-note" class="muted small">
        Rank (BT 95%): every place the Bradley–Terry 95% intervals allow (2–5 is any of 2 to 5), whatever column sorts
        the table
        {props.standings.order === "bt" ? "" : ", so sorted by another column the ranks need not run in order"}.
      </p>
      <Show when={allCanRankFirst(props.standings.rows)}>
        <p class="callout" role="note" data-testid="ranks-overlap">
          Every model ranks 1: their intervals overlap, and {battles()} {battles() === 1 ? "battle is" : "battles are"}{" "}
          too few to separate them. More votes narrow the intervals until the ranks come apart.
        </p>
      </Show>
    </>
  );
}
