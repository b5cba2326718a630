/** Orders answers by Borda total and the tie-breakers, and assigns competition ranks (1, 2, 2, 4). */
import type { VoteBreakdown } from "../shared/run";

export interface Standing {
  label: string;
  borda: number;
  meanOverall: number | null;
  /** the mean of the rubric's tie key (correctness by default) */
  meanTieKey: number | null;
}

export type TieBreak = VoteBreakdown["tieBreaks"][number];
type TieKey = "meanOverall" | "meanTieKey";
/** How a tie settled by the tie key's mean is reported: as correctness (the default rubric's) or a rubric's own dimension. */
export type TieKeyName = "meanCorrectness" | "meanDimension";

const TIE_KEYS: readonly TieKey[] = ["meanOverall", "meanTieKey"];

/**
 * Sorts by Borda total; labels tied on it are separated by mean overall, then the tie key's mean (correctness by default)
 * (a missing mean counts lowest), and whatever is still tied shares a rank, ordered by label.
 * Inputs are expected already rounded, so equality here is exact.
 *
 * Every set of labels that needed a tie-breaker gets one `tieBreaks` entry naming the first key that
 * separated any of them, or "shared". When that key splits only some of them, the labels still tied
 * get their own entry after it — e.g. [A, B, C] by meanOverall, then [B, C] by meanCorrectness.
 */
export function placeStandings(
  standings: readonly Standing[],
  tieKeyName: TieKeyName = "meanCorrectness",
): {
  placed: { standing: Standing; rank: number }[];
  tieBreaks: TieBreak[];
} {
  const tiers: Standing[][] = [];
  const tieBreaks: TieBreak[] = [];

  const settle = (group: Standing[], keys: readonly TieKey[]): void => {
    if (group.length === 1) {
      tiers.push(group);
      return;
    }
    const at = keys.findIndex((k) => new Set(group.map((s) => s[k])).size > 1);
    if (at < 0) {
      const shared = [...group].sort(byLabel);
      tieBreaks.push({ labels: shared.map((s) => s.label), decidedBy: "shared" });
      tiers.push(shared);
      return;
    }
    const key = keys[at];
    const entry: TieBreak = { labels: [], decidedBy: key === "meanTieKey" ? tieKeyName : key };
    tieBreaks.push(entry);
    const first = tiers.length;
    for (const sub of groupBy(group, (s) => s[key])) settle(sub, keys.slice(at + 1));
    entry.labels = tiers
      .slice(first)
      .flat()
      .map((s) => s.label);
  };

  for (const group of groupBy(standings, (s) => s.borda)) settle(group, TIE_KEYS);

  const placed: { standing: Standing; rank: number }[] = [];
  for (const tier of tiers) {
    const rank = placed.length + 1;
    for (const standing of tier) placed.push({ standing, rank });
  }
  return { placed, tieBreaks };
}

/** Groups of equal value, best (highest) first; null is lowest. */
function groupBy(items: readonly Standing[], value: (s: Standing) => number | null): Standing[][] {
  const rankValue = (s: Standing) => value(s) ?? -Infinity;
  const sorted = [...items].sort((a, b) =>
    rankValue(a) === rankValue(b) ? byLabel(a, b) : rankValue(a) > rankValue(b) ? -1 : 1,
  );
  const groups: Standing[][] = [];
  for (const s of sorted) {
    const last = groups.at(-1);
    if (last && rankValue(last[0]) === rankValue(s)) last.push(s);
    else groups.push([s]);
  }
  return groups;
}

// Code-unit order rather than localeCompare: the output must not depend on the runtime's locale.
const byLabel = (a: Standing, b: Standing): number => (a.label < b.label ? -1 : a.label > b.label ? 1 : 0);
