/**
 * A goal call's D1 rows: the evaluation's row for the battle (its outcome, linking to the battle's transcript) and,
 * when it was decided, its one `eval` battle (docs/evaluations.md, "Goal battles": side A is `model_a`; a tie is a
 * tie; a battle with no winner is counted nowhere). The judge is named when the judge decided it, not the goal rule.
 */
import { goalRowWrites } from "../../db/evaluation-goal-queries";
import { evalBattleWrites } from "../../db/evaluation-queries";
import type { Write } from "../../db/statements";
import type { Winner } from "../../rating/battle-outcome";
import type { GoalWinner } from "../../shared/constants";
import type { CallRow, ItemRow } from "./call-store";
import type { GoalOutcome } from "./goal-call";

const RATED: Partial<Record<GoalWinner, Winner>> = { A: "model_a", B: "model_b", tie: "tie" };

export function goalWrites(d1: D1Database, evaluationId: string, item: ItemRow, call: CallRow): Write[] {
  const outcome = call.outcome ? (JSON.parse(call.outcome) as GoalOutcome) : null;
  const winner = call.status === "done" && outcome ? RATED[outcome.winner] : undefined;
  return [
    ...goalRowWrites(d1, {
      evaluationId,
      itemId: item.item_id,
      sample: call.sample,
      first: call.first!,
      second: call.second!,
      battleId: outcome?.battleId ?? "",
      status: call.status === "done" ? "complete" : "failed",
      winner: outcome?.winner ?? null,
      endedReason: outcome?.endedReason ?? null,
      rationale: outcome?.rationale ?? null,
      turns: outcome?.turns ?? null,
      sides: outcome?.sides ?? null,
      error: call.error,
      completedAt: call.completed_at ?? Date.now(),
    }),
    ...evalBattleWrites(
      d1,
      evaluationId,
      winner
        ? [
            {
              id: `${evaluationId}/${call.id}/0`,
              modelA: call.first!,
              modelB: call.second!,
              winner,
              judge: outcome?.judge ?? null,
              itemId: item.item_id,
              category: item.category,
            },
          ]
        : [],
    ),
  ];
}
