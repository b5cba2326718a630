/**
 * The outcome judge of a goal battle the goal rule left undecided: the judge model compares both sides' whole
 * conversations, asked twice with the sides swapped (as arena judges are); orders that disagree are a tie.
 */
import { buildGoalOutcomeRequest } from "../../judges/goal-prompt";
import { parseJudgeOutput } from "../../judges/parse";
import { combineOrders } from "../../judges/verdict";
import type { GoalWinner } from "../../shared/constants";
import type { GoalBattleContext } from "./context";
import { askJudgeModel } from "./judge-call";
import { transcriptOf } from "./turn";

export type JudgedOutcome = { ok: true; winner: GoalWinner; rationale: string } | { ok: false; error: string };

export async function judgeOutcome(ctx: GoalBattleContext): Promise<JudgedOutcome | null> {
  const r = ctx.record;
  const judge = r.judgeModelId;
  if (!judge) return { ok: true, winner: "tie", rationale: "No judge was named to decide it, so it is a tie." };
  const after = r.currentTurn + 1;
  const [a, b] = [transcriptOf(ctx, "A", after), transcriptOf(ctx, "B", after)];
  const ask = (first: typeof a, second: typeof a) =>
    askJudgeModel(
      ctx,
      "goal-judge",
      { modelId: judge, ...buildGoalOutcomeRequest(r.goal, first, second) },
      parseJudgeOutput,
    );
  const [first, second] = await Promise.all([ask(a, b), ask(b, a)]);
  if (!ctx.current()) return null;
  if (!first.ok || !second.ok) {
    const failed = !first.ok ? first : second;
    return { ok: false, error: failed.ok ? "failed" : failed.error };
  }
  const { verdict, flipped } = combineOrders(first.value.winner, second.value.winner);
  const winner: GoalWinner = verdict === "left" ? "A" : verdict === "right" ? "B" : "tie";
  const rationale = flipped
    ? `The judge's verdict changed when the sides swapped places, so it is a tie. With A first: ${first.value.reasons}`
    : winner === "tie"
      ? `The judge called it a tie in both orders: ${first.value.reasons}`
      : `The judge preferred side ${winner} in both orders: ${first.value.reasons}`;
  return { ok: true, winner, rationale };
}
