/**
 * How an evaluation judge's five-point verdict becomes games, as arena-hard-auto counts them: each order a pair
 * was shown in is its own game, a strong verdict (≫) is three games for its winner, a plain one (>) one game, and
 * ≈ one tie. A pair whose two orders lean to opposite contestants is a flip; its games still count as given.
 */

import type { FivePointVerdict } from "../shared/constants";

// The scale is named once, in shared/constants.ts (the request and response schemas spell it too).
export { FIVE_POINT_VERDICTS, type FivePointVerdict } from "../shared/constants";

/** The games one verdict stands for, seen from the answer shown first (A). */
export interface Games {
  firstWins: number;
  secondWins: number;
  ties: number;
}

const GAMES: Record<FivePointVerdict, Games> = {
  "A>>B": { firstWins: 3, secondWins: 0, ties: 0 },
  "A>B": { firstWins: 1, secondWins: 0, ties: 0 },
  "A=B": { firstWins: 0, secondWins: 0, ties: 1 },
  "B>A": { firstWins: 0, secondWins: 1, ties: 0 },
  "B>>A": { firstWins: 0, secondWins: 3, ties: 0 },
};

export const gamesOf = (verdict: FivePointVerdict): Games => GAMES[verdict];

/** +1 when the verdict favours the answer shown first, −1 the second, 0 a tie. */
export const leanOf = (verdict: FivePointVerdict): -1 | 0 | 1 =>
  verdict.startsWith("A>") ? 1 : verdict.startsWith("B>") ? -1 : 0;

/**
 * Whether a pair's two orders favour opposite contestants: `shownFirst` is the verdict with x shown first,
 * `shownSecond` the one with y shown first. A tie in either order is no flip.
 */
export function isFlip(shownFirst: FivePointVerdict, shownSecond: FivePointVerdict): boolean {
  // In the second order y is A, so a lean toward A there is a lean toward y.
  const x = leanOf(shownFirst);
  const y = -leanOf(shownSecond);
  return x !== 0 && y !== 0 && x !== y;
}
