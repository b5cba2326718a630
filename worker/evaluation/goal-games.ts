/**
 * A goal evaluation's battles in the report. Each battle is one game between its two contestants, written as the
 * judgments the report, the matrix, the exports and before/after already read (council-games.ts does the same for
 * rankings): the winner shown first with a plain `A>B` (exactly one game for it), a tie as `A=B`. How a battle is won
 * is the goal battle's own rule (rooms/goal-battle/outcome.ts): the side that reached the goal (both in one turn:
 * fewer tokens, then lower latency), or whose opponent failed a turn while it replied; otherwise the judge asked in
 * both orders, a tie when they disagree (or when no judge was named). A battle with no winner — both sides failed
 * the same turn, the simulated user or the judge failed, or it was stopped — is no contest: a failed call, counted
 * in no game (a retry plays it again). Each side's tokens, latency and cost count as that contestant's "answers".
 */
import type { GoalSideTotals } from "../db/schema";
import type { GoalEndedReason, GoalWinner } from "../shared/constants";
import type { JudgeSummary, ReportAnswer, ReportJudgment } from "./report";

export interface ReportGoal {
  itemId: string;
  sample: number;
  /** side A */
  first: string;
  /** side B */
  second: string;
  battleId: string;
  status: "complete" | "failed";
  winner: GoalWinner | null;
  endedReason: GoalEndedReason | null;
  rationale: string | null;
  sides: { A: GoalSideTotals; B: GoalSideTotals } | null;
  completedAt: number;
}

export const GOAL_COUNTING =
  "each goal battle is one game: won by the side that reached the goal first (or whose opponent failed a turn), else by the judge in both orders (a tie when they disagree); a battle no side won is no contest and counts nowhere";

/** Who decided the battles the goal rule did not: the judge, when there is one. */
export const GOAL_RULE = "goal rule";

/** The decider a battle's game is credited to: the judge for a battle that ran to the limit, else the goal rule. */
const deciderOf = (g: ReportGoal, judge: string | null) => (g.endedReason === "limit" && judge ? judge : GOAL_RULE);

/** The one-game judgment a battle stands for (a failed judgment, with no verdict, for a battle no one won). */
export function judgmentOfGoal(g: ReportGoal, judge: string | null): ReportJudgment & { completedAt: number } {
  const won = g.status === "complete" && g.winner !== null && g.winner !== "none";
  const base = {
    itemId: g.itemId,
    sample: g.sample,
    judge: deciderOf(g, judge),
    costUsd: null,
    completedAt: g.completedAt,
  };
  if (!won) return { ...base, first: g.first, second: g.second, status: "failed", verdict: null };
  if (g.winner === "tie") return { ...base, first: g.first, second: g.second, status: "complete", verdict: "A=B" };
  const [first, second] = g.winner === "A" ? [g.first, g.second] : [g.second, g.first];
  return { ...base, first, second, status: "complete", verdict: "A>B" };
}

/** Each side's part in a battle, as the contestant's answer: its tokens, latency (its replies' sum) and cost. */
export function answersOfGoal(g: ReportGoal): ReportAnswer[] {
  if (!g.sides) return [];
  return (
    [
      [g.first, g.sides.A],
      [g.second, g.sides.B],
    ] as const
  ).map(([contestant, side]) => ({
    itemId: g.itemId,
    contestant,
    sample: g.sample,
    status: side.failed ? "failed" : "complete",
    tokensIn: side.tokensIn,
    tokensOut: side.tokensOut,
    latencyMs: side.latencyMs,
    firstTokenMs: null,
    costUsd: side.costUsd,
    style: null,
  }));
}

/** Per decider (the goal rule, the judge): the battles it decided, and the battles nobody won under the goal rule. */
export function goalSummaries(goals: readonly ReportGoal[], judge: string | null): JudgeSummary[] {
  const judgments = goals.map((g) => judgmentOfGoal(g, judge));
  const names = [...new Set(judgments.map((j) => j.judge))].sort();
  return names.map((name) => {
    const own = judgments.filter((j) => j.judge === name);
    return {
      judge: name,
      judgments: own.length,
      failures: own.filter((j) => j.status === "failed").length,
      pairs: 0,
      flips: 0,
      flipRate: null,
      costUsd: 0,
    };
  });
}

/** How one contestant fared in one battle, as the matrix shows it (with the battle's id, to open its transcript). */
export interface GoalCellBattle {
  battleId: string;
  sample: number;
  opponent: string;
  side: "A" | "B";
  result: "win" | "loss" | "tie" | "none";
  endedReason: GoalEndedReason | null;
  reason: string | null;
}

export function cellBattles(goals: readonly ReportGoal[], itemId: string, contestant: string): GoalCellBattle[] {
  return goals
    .filter((g) => g.itemId === itemId && (g.first === contestant || g.second === contestant))
    .map((g) => {
      const side = g.first === contestant ? "A" : "B";
      const won = g.status === "complete" && (g.winner === "A" || g.winner === "B" || g.winner === "tie");
      const result = !won ? "none" : g.winner === "tie" ? "tie" : g.winner === side ? "win" : "loss";
      return {
        battleId: g.battleId,
        sample: g.sample,
        opponent: side === "A" ? g.second : g.first,
        side,
        result,
        endedReason: g.endedReason,
        reason: g.rationale,
      };
    });
}
