/**
 * How a goal battle ends, from what its last turn left: pure, so the rules read in one place (docs/goal-battles.md).
 * A side that failed a turn for good while the other replied loses (both failing is no contest); then the goal: the
 * side that reached it, and when both did in the same turn, fewer tokens, then lower latency, else a tie. Without a
 * decision by the goal rule the judge decides (judgeMode goal or llm) or a person votes (human).
 */
import type { GoalEndedReason, GoalJudgeMode, GoalSide, GoalWinner } from "../../shared/constants";

export interface SideAfterTurn {
  /** how its reply failed for good this turn, null when it replied */
  failure: { timeout: boolean } | null;
  reached: boolean;
  tokens: number;
  latencyMs: number;
}

export type TurnOutcome =
  | { kind: "continue" }
  /** decided now: the winner and why */
  | { kind: "decided"; endedReason: GoalEndedReason; winner: GoalWinner; rationale: string }
  /** ended, the winner left to the judge (or to a person's vote) */
  | { kind: "undecided"; endedReason: GoalEndedReason; rationale: string };

const other = (s: GoalSide): GoalSide => (s === "A" ? "B" : "A");

export function turnOutcome(
  sides: Record<GoalSide, SideAfterTurn>,
  turn: number,
  maxTurns: number,
  judgeMode: GoalJudgeMode,
): TurnOutcome {
  const { A, B } = sides;
  if (A.failure && B.failure) {
    const timeout = A.failure.timeout && B.failure.timeout;
    return {
      kind: "decided",
      endedReason: timeout ? "timeout" : "error",
      winner: "none",
      rationale: `Both sides failed turn ${turn}${timeout ? " by timing out" : ""}: no contest.`,
    };
  }
  const failed = A.failure ? "A" : B.failure ? "B" : null;
  if (failed) {
    const timeout = sides[failed].failure!.timeout;
    return {
      kind: "decided",
      endedReason: timeout ? "timeout" : "error",
      winner: other(failed),
      rationale: `Side ${failed} ${timeout ? "timed out" : "failed"} on turn ${turn} while side ${other(failed)} replied, so side ${other(failed)} wins.`,
    };
  }
  if (A.reached || B.reached) {
    const reached = A.reached && B.reached ? "Both sides" : `Side ${A.reached ? "A" : "B"}`;
    if (judgeMode !== "goal")
      return { kind: "undecided", endedReason: "goal", rationale: `${reached} reached the goal on turn ${turn}.` };
    if (!(A.reached && B.reached))
      return {
        kind: "decided",
        endedReason: "goal",
        winner: A.reached ? "A" : "B",
        rationale: `Side ${A.reached ? "A" : "B"} reached the goal first, on turn ${turn}.`,
      };
    return { kind: "decided", endedReason: "goal", ...sameTurnTieBreak(A, B, turn) };
  }
  if (turn >= maxTurns)
    return {
      kind: "undecided",
      endedReason: "limit",
      rationale: `Neither side reached the goal within ${maxTurns} turns.`,
    };
  return { kind: "continue" };
}

/** Both reached the goal in the same turn: fewer tokens wins, then lower latency; else a tie. */
function sameTurnTieBreak(A: SideAfterTurn, B: SideAfterTurn, turn: number): { winner: GoalWinner; rationale: string } {
  const both = `Both sides reached the goal on turn ${turn}`;
  if (A.tokens !== B.tokens) {
    const w = A.tokens < B.tokens ? "A" : "B";
    return {
      winner: w,
      rationale: `${both}; side ${w} used fewer tokens (${Math.min(A.tokens, B.tokens)} against ${Math.max(A.tokens, B.tokens)}).`,
    };
  }
  if (A.latencyMs !== B.latencyMs) {
    const w = A.latencyMs < B.latencyMs ? "A" : "B";
    return { winner: w, rationale: `${both} with as many tokens; side ${w} was faster.` };
  }
  return { winner: "tie", rationale: `${both} with as many tokens and the same latency: a tie.` };
}
