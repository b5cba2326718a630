import { Show } from "solid-js";
import type { RankingEntry } from "../../../worker/shared/run";

const ORDINAL = new Intl.PluralRules("en", { type: "ordinal" });
const SUFFIX: Record<string, string> = { one: "st", two: "nd", few: "rd", other: "th" };

/** "1st", or "tied 2nd" when another answer shares the rank. */
export function rankText(rank: number, ranking: readonly Pick<RankingEntry, "rank">[]): string {
  const nth = `${rank}${SUFFIX[ORDINAL.select(rank)]}`;
  return ranking.filter((e) => e.rank === rank).length > 1 ? `tied ${nth}` : nth;
}

/** An answer card's place in the final ranking, or that it was left out of it. */
export function RankBadge(props: { rank: number | null; ranking: readonly Pick<RankingEntry, "rank">[] }) {
  return (
    <Show
      when={props.rank}
      fallback={
        <span class="badge rank-badge unranked" data-testid="rank-badge">
          not ranked
        </span>
      }
    >
      {(rank) => (
        <span
          class="badge rank-badge"
          classList={{ first: rank() === 1 }}
          data-testid="rank-badge"
          title={`Ranked ${rankText(rank(), props.ranking)} of ${props.ranking.length} by the reviewers`}
        >
          {rankText(rank(), props.ranking) === "1st" ? "Winner · 1st" : rankText(rank(), props.ranking)}
        </span>
      )}
    </Show>
  );
}
