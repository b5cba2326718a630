/**
 * Who leads an evaluation, from its `eval` battles' counts alone (the list shows it without building each report):
 * the same Bradley–Terry fit and 95% separation the report makes, since the battles are the report's games one for
 * one. A leader is named only when no other contestant can be above it at 95%; otherwise the reason is given.
 */
import type { Winner } from "../rating/battle-outcome";
import { type Game, standingsOf } from "./standings";

export interface OutcomeCount {
  modelA: string;
  modelB: string;
  winner: Winner;
  battles: number;
}

export type Leader =
  | { winner: string; tiedWithBest: []; reason: null }
  | { winner: null; tiedWithBest: string[]; reason: "not_separable" | "no_games" };

export function leaderOf(
  contestants: readonly string[],
  baseline: string | null,
  counts: readonly OutcomeCount[],
): Leader {
  const games: Game[] = counts.flatMap((c): Game[] => {
    const outcome = c.winner === "model_a" ? 1 : c.winner === "model_b" ? 0 : 0.5;
    return [{ itemId: "", sample: 0, judge: "", a: c.modelA, b: c.modelB, outcome, weight: c.battles }];
  });
  if (games.length === 0) return { winner: null, tiedWithBest: [], reason: "no_games" };
  const { separation } = standingsOf(contestants, games, { baseline });
  if (separation.best !== null) return { winner: separation.best, tiedWithBest: [], reason: null };
  return {
    winner: null,
    tiedWithBest: separation.tiedWithBest,
    reason: separation.tiedWithBest.length ? "not_separable" : "no_games",
  };
}
