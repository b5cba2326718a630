/** A council review's D1 rows: the review by contestant, and its `eval` battles, one per pair of answers it ranked. */
import { evalBattleWrites, reviewRowWrites } from "../../db/evaluation-queries";
import type { Write } from "../../db/statements";
import { reviewBattles, reviewByContestant, type StoredReview } from "../../evaluation/council-round";
import type { CallRow, ItemRow } from "./call-store";

export function reviewWrites(d1: D1Database, evaluationId: string, item: ItemRow, call: CallRow): Write[] {
  const review = call.review ? (JSON.parse(call.review) as StoredReview) : null;
  const byContestant = review && reviewByContestant(review);
  return [
    ...reviewRowWrites(d1, {
      evaluationId,
      itemId: item.item_id,
      sample: call.sample,
      reviewer: call.model,
      status: call.status === "done" ? "complete" : "failed",
      ranking: byContestant?.ranking ?? null,
      reviews: byContestant?.reviews ?? null,
      confidence: review?.confidence ?? null,
      error: call.error,
      tokensIn: call.tokens_in,
      tokensOut: call.tokens_out,
      costUsd: call.cost_usd,
      completedAt: call.completed_at ?? Date.now(),
    }),
    ...evalBattleWrites(
      d1,
      evaluationId,
      (review ? reviewBattles(`${evaluationId}/${call.id}`, call.model, review) : []).map((b) => ({
        id: b.id,
        modelA: b.modelA,
        modelB: b.modelB,
        winner: b.winner,
        judge: call.model,
        itemId: item.item_id,
        category: item.category,
      })),
    ),
  ];
}
