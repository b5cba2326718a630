import { buildReviewRequest, type ConversationTurn } from "../../council/prompts";
import { shownOrder } from "../../council/shown-order";
import { roundIdOf, roundLabels, rosterEntryOf, type StoredReview } from "../../evaluation/council-round";
import { scoringOf } from "../../shared/rubric";
import { askReview } from "../ask-review";
import { targetOf } from "../targets";
import type { CallRow } from "./call-store";
import { backOffOn, keepStructured } from "./calls";
import type { EvaluationContext } from "./context";

export async function makeReviewCall(ctx: EvaluationContext, call: CallRow): Promise<CallRow | null> {
  const r = ctx.record;
  const item = ctx.store.item(call.item);
  const roundId = roundIdOf(r.id, item.item_id, call.sample);
  const labels = roundLabels(
    r.contestants.map((c) => c.id),
    roundId,
  );
  const answers = ctx.store.roundAnswers(call.item, call.sample);
  const entry = rosterEntryOf(roundId, answers, labels, r.judges, call.model);
  if (!entry) {
    const row = ctx.store.finish(call.id, {
      status: "failed",
      error: "Nothing to review: fewer than two of this item's answers came back.",
      latencyMs: null,
      tokensIn: null,
      tokensOut: null,
      costUsd: null,
    });
    return row;
  }
  const ownLabel = entry.answerId === null ? null : (labels.get(entry.answerId) ?? null);
  const shown = shownOrder(entry.judged, roundId, entry.modelId);
  const scoring = scoringOf({ rubric: r.councilRubric, category: item.category ?? undefined });
  const request = buildReviewRequest({
    question: item.prompt,
    // A multi-turn item's answers continue its earlier turns: the reviewers read them, as pairwise judges do.
    earlier: item.turns ? (JSON.parse(item.turns) as ConversationTurn[]) : null,
    answers: answers
      .filter((a) => a.status === "done")
      .map((a) => ({ label: labels.get(a.contestant)!, text: a.text ?? "" })),
    reviewerLabel: ownLabel,
    selfReview: "exclude",
    order: shown,
    scoring,
  });
  // A contestant reviews as itself; a judge-only reviewer may be a preset, which reviews with its prompt and params.
  const contestant = r.contestants.find((c) => c.id === call.model);
  const target = contestant
    ? { modelId: contestant.modelId, params: contestant.params }
    : targetOf(r.judgeTargets, call.model);
  const started = Date.now();
  const asked = await askReview(
    ctx.rules(),
    {
      target,
      request,
      scoring,
      temperature: target.params.temperature ?? r.settings.temperature ?? undefined,
    },
    { onRetry: backOffOn(ctx, target.modelId) },
  );
  if (!ctx.current()) return null;
  const review: StoredReview | null = asked.ok
    ? {
        labels: Object.fromEntries([...labels].map(([c, l]) => [l, c])),
        ownLabel,
        shown,
        ranking: asked.value.ranking,
        confidence: asked.value.confidence,
        reviews: asked.value.reviews,
      }
    : null;
  return keepStructured(ctx, call, "eval-review", target.modelId, started, asked, {
    review: review && JSON.stringify(review),
  });
}
