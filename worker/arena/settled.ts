/**
 * The leaderboard's "settled" notice: the ranking the operator cares about (QUORUM_ARENA_FOCUS: the whole order,
 * or the first N in order) is settled when no 95% interval overlaps another where it matters, so that every model
 * in it has a one-rank spread at its place. More votes would then not reorder it, at that confidence.
 */
import { type ArenaFocus, focusName } from "../shared/setting-parsers";
import type { LeaderboardRow } from "../shared/arena";

/** The intervals the ranks are read from cover 95%. */
export const SETTLED_CONFIDENCE = 0.95;

export interface Settled {
  /** "all" or "topN", as QUORUM_ARENA_FOCUS names it */
  focus: string;
  /** the models whose places are settled, best first: the whole order, or the first N */
  models: string[];
  confidence: number;
}

type Ranked = Pick<
  LeaderboardRow,
  "modelId" | "bt" | "ciLower" | "ciUpper" | "rankUpper" | "rankLower" | "provisional"
>;

/**
 * What is settled of the focus, or null while anything in it may still move: a row with no rating yet may land
 * anywhere, and a provisional rating's interval says little, so either keeps the ranking open.
 */
export function settledRanking(rows: readonly Ranked[], focus: ArenaFocus): Settled | null {
  if (rows.length < 2) return null;
  if (rows.some((r) => r.bt === null || r.ciLower === null || r.ciUpper === null || r.provisional)) return null;
  const byRating = [...rows].sort((a, b) => b.bt! - a.bt!);
  const places = focus.top === null ? byRating.length : Math.min(focus.top, byRating.length);
  const inFocus = byRating.slice(0, places);
  const alone = inFocus.every((r, k) => r.rankUpper === k + 1 && r.rankLower === k + 1);
  return alone
    ? { focus: focusName(focus), models: inFocus.map((r) => r.modelId), confidence: SETTLED_CONFIDENCE }
    : null;
}
