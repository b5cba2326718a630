/**
 * Ranks from confidence intervals, as Chatbot Arena shows them: a model's best rank counts the models surely
 * above it (their lower bound above its upper bound), its worst rank counts every model that may be above it
 * (their upper bound above its lower bound). The two together are the Arena's "rank spread".
 */

export interface RankSpread {
  /** 1 + models whose lower bound is above this one's upper bound; null without an interval */
  best: (number | null)[];
  /** 1 + other models whose upper bound is above this one's lower bound; null without an interval */
  worst: (number | null)[];
}

/** Sorting both bound lists once makes each count a binary search: n log n, for a thousand models and more. */
export function rankSpread(lower: ArrayLike<number>, upper: ArrayLike<number>): RankSpread {
  const n = upper.length;
  const known = (m: number) => !Number.isNaN(lower[m]) && !Number.isNaN(upper[m]);
  const lowers: number[] = [];
  const uppers: number[] = [];
  for (let m = 0; m < n; m++) {
    if (!known(m)) continue;
    lowers.push(lower[m]);
    uppers.push(upper[m]);
  }
  const ascending = (a: number, b: number) => a - b;
  lowers.sort(ascending);
  uppers.sort(ascending);
  const best: (number | null)[] = [];
  const worst: (number | null)[] = [];
  for (let m = 0; m < n; m++) {
    if (!known(m)) {
      best.push(null);
      worst.push(null);
      continue;
    }
    // A model's own lower bound is never above its own upper bound, so it never counts itself here.
    best.push(1 + countAbove(lowers, upper[m]));
    // Its own upper bound is above its own lower bound unless the interval is a point (a pinned anchor).
    const selfAbove = upper[m] > lower[m] ? 1 : 0;
    worst.push(1 + countAbove(uppers, lower[m]) - selfAbove);
  }
  return { best, worst };
}

/** How many of the ascending `sorted` are strictly greater than x. */
function countAbove(sorted: readonly number[], x: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid] > x) hi = mid;
    else lo = mid + 1;
  }
  return sorted.length - lo;
}

/** The best ranks alone: the leaderboard's `rank`. */
export function rankByIntervals(lower: ArrayLike<number>, upper: ArrayLike<number>): (number | null)[] {
  return rankSpread(lower, upper).best;
}
