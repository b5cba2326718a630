/**
 * A finished call's D1 rows: its answer, judgment, review or goal battle row, and a judgment's `eval` battles
 * (arena-hard-auto's count), a review's (a council run's count: one per pair it ranked) or a decided goal battle's.
 */
import { answerRowWrites, evalBattleWrites, judgmentRowWrites } from "../../db/evaluation-queries";
import type { Write } from "../../db/statements";
import { battlesOf } from "../../evaluation/verdicts";
import type { CallRow, CallStore } from "./call-store";
import { goalWrites } from "./goal-writes";
import { reviewWrites } from "./review-writes";

export function callWrites(d1: D1Database, evaluationId: string, store: CallStore, call: CallRow): Write[] {
  const item = store.item(call.item);
  const completedAt = call.completed_at ?? Date.now();
  const status = call.status === "done" ? "complete" : "failed";
  if (call.kind === "answer")
    return answerRowWrites(d1, {
      evaluationId,
      itemId: item.item_id,
      contestant: call.model,
      sample: call.sample,
      status,
      text: call.text ?? "",
      error: call.error,
      latencyMs: call.latency_ms,
      firstTokenMs: call.first_token_ms,
      tokensIn: call.tokens_in,
      tokensOut: call.tokens_out,
      costUsd: call.cost_usd,
      truncated: call.truncated === 1,
      completedAt,
    });
  if (call.kind === "review") return reviewWrites(d1, evaluationId, item, call);
  if (call.kind === "goal") return goalWrites(d1, evaluationId, item, call);
  const first = call.first!;
  const second = call.second!;
  const games = call.verdict ? battlesOf({ first, second, verdict: call.verdict }) : [];
  return [
    ...judgmentRowWrites(d1, {
      evaluationId,
      itemId: item.item_id,
      sample: call.sample,
      judge: call.model,
      first,
      second,
      status,
      verdict: call.verdict,
      reasons: call.reasons,
      error: call.error,
      tokensIn: call.tokens_in,
      tokensOut: call.tokens_out,
      costUsd: call.cost_usd,
      completedAt,
    }),
    ...evalBattleWrites(
      d1,
      evaluationId,
      games.map((g, k) => ({
        id: `${evaluationId}/${call.id}/${k}`,
        ...g,
        judge: call.model,
        itemId: item.item_id,
        category: item.category,
      })),
    ),
  ];
}
