/**
 * One judgment's battles, as the room writes them: games.ts counts a five-point verdict as arena-hard-auto does
 * (each order its own game; ≫ three battles for its winner, > one, ≈ one tie), and this turns the count into
 * battle rows between the two contestants, A being the one shown first.
 */
import type { Winner } from "../rating/battle-outcome";
import type { FivePointVerdict } from "../shared/constants";
import { gamesOf, isFlip as ordersFlip, leanOf } from "./games";

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

/** The battles one judgment (one order) gives. */
export function battlesOf(j: Judgment): Game[] {
  const { firstWins, secondWins, ties } = gamesOf(j.verdict);
  const game = (winner: Winner, n: number) =>
    Array.from({ length: n }, (): Game => ({ modelA: j.first, modelB: j.second, winner }));
  return [...game("model_a", firstWins), ...game("model_b", secondWins), ...game("tie", ties)];
}

/** The contestant a judgment favours, strongly or not; null for a tie. */
export function favouredBy(j: Judgment): string | null {
  const lean = leanOf(j.verdict);
  return lean > 0 ? j.first : lean < 0 ? j.second : null;
}

/** True when a pair's two orders (`other` shows the pair swapped) favour opposite contestants. */
export const isFlip = (one: Judgment, other: Judgment): boolean => ordersFlip(one.verdict, other.verdict);
