/**
 * The reviewing phase: the reviewers (the models that answered, or the run's own list, judge-only models among them)
 * judge the answers blind by the run's rubric, then the ballots are counted.
 */

import { buildReviewRequest } from "../council/prompts";
import { rankingBattles } from "../council/ranking-battles";
import { reviewRoster } from "../council/reviewers";
import { shownOrder } from "../council/shown-order";
import { calibrationRows } from "../db/judge-queries";
import { aggregationWrites, evaluationClears, type JudgeBattle, reviewSetWrites } from "../db/queries";
import { calibrate } from "../judges/calibration";
import { reviewerWeights } from "../judges/reviewer-weights";
import { costOf } from "../providers/pricing";
import { aggregate, type Ballot } from "../rating/borda";
import { scoringOf } from "../shared/rubric";
import { REVIEWER_NOT_STARTED } from "../shared/run";
import { forEachLimited } from "./limits";
import { logCall } from "./log";
import type { PhaseContext } from "./phase-context";
import {
  blindAggregation,
  blindReviewError,
  isTerminal,
  type ReviewSetRecord,
  type RunRecord,
  weightsAreCalibrated,
} from "./record";
import { askReview } from "./ask-review";
import { targetOf } from "./targets";

/** Reviews then aggregates; "aggregated" when a ranking was stored, "no-ballots" when every review failed. */
export async function runReviewPhase(ctx: PhaseContext): Promise<"aggregated" | "no-ballots"> {
  const r = ctx.record;
  const answered = r.answers.filter((a) => a.status === "done");
  if (r.reviewSets.length === 0) {
    ctx.write(...evaluationClears(ctx.env.DB, r.id));
    const roster = reviewRoster(r.id, r.answers, r.settings);
    const weights =
      r.settings.reviewerWeights === "calibrated"
        ? reviewerWeights(
            roster.map((e) => e.modelId),
            calibrate(await calibrationRows(ctx.db)),
          )
        : null;
    r.reviewSets = roster.map((e) => {
      const set = newReviewSet(e.id, e.modelId, e.answerId, shownOrder(e.judged, r.id, e.modelId));
      const calibrated = weights?.get(e.modelId);
      if (calibrated) Object.assign(set, { weight: calibrated.weight, calibration: calibrated.basis });
      return set;
    });
    ctx.save();
  }
  const todo = r.reviewSets.filter((s) => s.status === "pending" || s.status === "running");
  await forEachLimited(todo, r.settings.concurrency, (set) => produceReview(ctx, set));
  if (!ctx.current()) return "no-ballots";

  const ballots = r.reviewSets.filter((s) => s.status === "done").map((s) => toBallot(r, s));
  if (answered.length > 1 && ballots.length === 0) return "no-ballots";
  const aggregation = aggregate({
    answers: answered.map((a) => ({ label: a.label, answerId: a.id, modelId: a.modelId })),
    ballots,
    selfReview: r.settings.selfReview,
    selfReviewWeight: r.settings.selfReviewWeight,
    scoring: scoringOf(r.settings),
  });
  if (r.settings.reviewerWeights === "calibrated")
    aggregation.voteBreakdown.calibration = Object.fromEntries(r.reviewSets.map((s) => [s.id, s.calibration ?? null]));
  ctx.write(
    ...aggregationWrites(ctx.env.DB, r.id, aggregation, battlesToWriteNow(r), r.synthesis ? "synthesizing" : "done"),
  );
  r.aggregation = aggregation;
  ctx.save();
  // A blind run with calibrated weights shows its vote math with its end (weightsAreCalibrated).
  if (!ctx.blind()) ctx.emit({ type: "aggregation.completed", aggregation });
  else if (!weightsAreCalibrated(r))
    ctx.emit({ type: "aggregation.completed", aggregation: blindAggregation(aggregation) });
  return "aggregated";
}

async function produceReview(ctx: PhaseContext, set: ReviewSetRecord): Promise<void> {
  if (!ctx.current()) return;
  const r = ctx.record;
  const reviewerLabel = r.answers.find((a) => a.id === set.reviewerAnswerId)?.label ?? null;
  const scoring = scoringOf(r.settings);
  const request = buildReviewRequest({
    question: r.question,
    answers: r.answers.filter((a) => a.status === "done").map((a) => ({ label: a.label, text: a.text })),
    reviewerLabel,
    selfReview: r.settings.selfReview,
    order: set.shownOrder ?? undefined,
    scoring,
  });
  const who = () => ({ reviewSetId: set.id, reviewerLabel, reviewerModelId: ctx.blind() ? null : set.reviewerModelId });
  const answerParams = r.answers.find((a) => a.id === set.reviewerAnswerId)?.params ?? {};
  const target = targetOf(r.targets, set.reviewerModelId);
  const started = Date.now();
  const asked = await askReview(
    { env: ctx.env, cancel: ctx.cancel, policy: ctx.policy, timeoutMs: r.settings.timeoutMs },
    {
      target,
      request,
      scoring,
      temperature: answerParams.temperature ?? target.params.temperature ?? r.settings.temperature,
    },
    {
      onAttempt: () => {
        if (!ctx.current()) return;
        set.status = "running";
        set.attempts++;
        ctx.save();
        // While blind, one start per review: a count of them would tell providers apart (dropped parameters, retries).
        if (!ctx.blind() || set.attempts === 1) ctx.emit({ type: "review.started", ...who() });
      },
    },
  );
  if (!ctx.current()) return;
  if (asked.raw !== null) set.rawOutput = asked.raw;
  const tokensIn = asked.usage.tokensIn ?? 0;
  const tokensOut = asked.usage.tokensOut ?? 0;
  // Tokens count whenever an answer came back, even one that missed the format.
  if (asked.ok || asked.kind === "invalid_output" || tokensIn || tokensOut)
    Object.assign(set, { tokensIn, tokensOut, costUsd: costOf(ctx.env, target.modelId, tokensIn, tokensOut) });
  set.latencyMs = Date.now() - started;
  if (asked.ok) {
    const review = asked.value;
    const idOf = new Map(r.answers.map((a) => [a.label, a.id]));
    Object.assign(set, {
      status: "done",
      error: null,
      ranking: review.ranking,
      confidence: review.confidence,
      reviews: review.reviews.map((v) => ({
        id: `${set.id}-${v.label}`,
        targetAnswerId: idOf.get(v.label)!,
        scores: v.scores,
        critique: v.critique,
      })),
    });
  } else Object.assign(set, { status: "failed", error: asked.error, errorKind: asked.kind });
  ctx.save();
  ctx.write(...reviewSetWrites(ctx.env.DB, r.id, set));
  logCall(ctx.env, {
    run: r.id,
    step: "review",
    model: set.reviewerModelId,
    status: asked.ok ? "done" : "failed",
    latencyMs: set.latencyMs,
    attempts: set.attempts,
    error: asked.ok ? undefined : asked.error,
  });
  const blind = ctx.blind();
  if (asked.ok)
    ctx.emit({
      type: "review.completed",
      ...who(),
      ranking: asked.value.ranking,
      confidence: asked.value.confidence,
      weight: blind && weightsAreCalibrated(r) ? null : set.weight,
      rawOutput: set.rawOutput,
      latencyMs: set.latencyMs,
      tokensIn: set.tokensIn,
      tokensOut: set.tokensOut,
      costUsd: blind ? null : set.costUsd,
      reviews: set.reviews.map((v) => ({
        id: v.id,
        targetAnswerId: v.targetAnswerId,
        targetLabel: labelOf(r, v.targetAnswerId),
        scores: v.scores,
        critique: v.critique,
      })),
    });
  else
    ctx.emit({
      type: "review.failed",
      ...who(),
      error: blind ? blindReviewError(r, set)! : asked.error,
      rawOutput: set.rawOutput,
      latencyMs: set.latencyMs,
      tokensIn: set.tokensIn,
      tokensOut: set.tokensOut,
      costUsd: blind ? null : set.costUsd,
    });
}

function newReviewSet(
  id: string,
  reviewerModelId: string,
  reviewerAnswerId: string | null,
  order: string[],
): ReviewSetRecord {
  return {
    ...REVIEWER_NOT_STARTED,
    id,
    reviewerModelId,
    reviewerAnswerId,
    attempts: 0,
    shownOrder: order,
    reviews: [],
  };
}

const labelOf = (r: RunRecord, answerId: string) => r.answers.find((a) => a.id === answerId)?.label ?? "?";

function toBallot(r: RunRecord, s: ReviewSetRecord): Ballot {
  return {
    reviewSetId: s.id,
    reviewerLabel: s.reviewerAnswerId ? labelOf(r, s.reviewerAnswerId) : null,
    weight: s.weight,
    ranking: s.ranking ?? [],
    shownOrder: s.shownOrder,
    scores: Object.fromEntries(s.reviews.map((v) => [labelOf(r, v.targetAnswerId), v.scores])),
  };
}

/**
 * The judge battles D1 may hold yet: a blind run still synthesizing keeps its own until it ends (RunRoom.finish),
 * or the leaderboard's judge counts, diffed against the reviewers' rankings, would tie its labels to models.
 */
export function battlesToWriteNow(r: RunRecord): JudgeBattle[] {
  return r.synthesis && r.settings.blind && !isTerminal(r.status) ? [] : judgeBattles(r);
}

/** One judge battle per pair of answers a reviewer ranked, its own answer left out, the better-ranked as model_a. */
export function judgeBattles(r: RunRecord): JudgeBattle[] {
  const modelOf = new Map(r.answers.map((a) => [a.label, a.modelId]));
  return r.reviewSets
    .filter((s) => s.status === "done" && s.ranking)
    .flatMap((s) =>
      rankingBattles(
        {
          id: s.id,
          reviewerModelId: s.reviewerModelId,
          ownLabel: s.reviewerAnswerId ? labelOf(r, s.reviewerAnswerId) : null,
          ranking: s.ranking!,
        },
        modelOf,
      ),
    );
}
