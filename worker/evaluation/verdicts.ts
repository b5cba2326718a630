/**
 * From a judge's five-point verdicts to battles, counted as arena-hard-auto counts them: each order a pair was
 * shown in is its own game; a strong verdict (A>>B) is three battles for its winner, a plain one (A>B) one, a
 * tie (A=B) one tie. A pair whose two orders lean to opposite contestants is a flip: its games still count as given.
 */
import type { Winner } from "../rating/battle-outcome";
import type { FivePointVerdict } from "../shared/constants";

/** One order of a pair: `first` was shown as A, `second` as B. */
export interface Judgment {
  first: string;
  second: string;
  verdict: FivePointVerdict;
}

/** One battle, its models as the judge saw them (A is `modelA`). */
export interface Game {
  modelA: string;
  modelB: string;
  winner: Winner;
}

const OUTCOME: Record<FivePointVerdict, { winner: Winner; weight: number }> = {
  "A>>B": { winner: "model_a", weight: 3 },
  "A>B": { winner: "model_a", weight: 1 },
  "A=B": { winner: "tie", weight: 1 },
  "B>A": { winner: "model_b", weight: 1 },
  "B>>A": { winner: "model_b", weight: 3 },
};

/** The battles one judgment (one order) gives. */
export function gamesOf(j: Judgment): Game[] {
  const { winner, weight } = OUTCOME[j.verdict];
  return Array.from({ length: weight }, () => ({ modelA: j.first, modelB: j.second, winner }));
}

/** The contestant a judgment favours, strongly or not; null for a tie. */
export function favouredBy(j: Judgment): string | null {
  const { winner } = OUTCOME[j.verdict];
  return winner === "model_a" ? j.first : winner === "model_b" ? j.second : null;
}

/** True when the two orders of one pair favour opposite contestants (a tie in either order is no flip). */
export function isFlip(one: Judgment, other: Judgment): boolean {
  const [a, b] = [favouredBy(one), favouredBy(other)];
  return a !== null && b !== null && a !== b;
}
