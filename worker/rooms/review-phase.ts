/** The reviewing phase: each model that answered judges the others blind, then the ballots are counted. */
import { aggregationWrites, evaluationClears, reviewSetWrites, type JudgeBattle } from "../db/queries";
import { costOf } from "../providers/pricing";
import { createProvider, parseModelId } from "../providers/registry";
import { ProviderError, type ReviewOutput } from "../providers/types";
import { buildReviewRequest } from "../council/prompts";
import { parseReview, type ParsedReview } from "../council/parse-review";
import { shownOrder } from "../council/shown-order";
import { calibrationRows } from "../db/judge-queries";
import { calibrate } from "../judges/calibration";
import { reviewerWeights } from "../judges/reviewer-weights";
import { aggregate, type Ballot } from "../rating/borda";
import { REVIEWER_NOT_STARTED } from "../shared/run";
import { callModel } from "./call-model";
import { forEachLimited } from "./limits";
import { logCall } from "./log";
import type { PhaseContext } from "./phase-context";
import {
  blindAggregation,
  blindReviewError,
  isTerminal,
  weightsAreCalibrated,
  type ReviewSetRecord,
  type RunRecord,
} from "./record";

/** A review that twice missed the required format: our own wording, naming no model, so it shows while blind. */
class InvalidReview extends Error {}

/** Reviews then aggregates; "aggregated" when a ranking was stored, "no-ballots" when every review failed. */
export async function runReviewPhase(ctx: PhaseContext): Promise<"aggregated" | "no-ballots"> {
  const r = ctx.record;
  const answered = r.answers.filter((a) => a.status === "done");
  if (r.reviewSets.length === 0) {
    ctx.write(...evaluationClears(ctx.env.DB, r.id));
    // A lone answer has nobody else to judge it unless reviewers may rank their own.
    const reviewers = answered.length > 1 || r.settings.selfReview === "downweight" ? answered : [];
    const weights =
      r.settings.reviewerWeights === "calibrated"
        ? reviewerWeights(
            reviewers.map((a) => a.modelId),
            calibrate(await calibrationRows(ctx.db)),
          )
        : null;
    r.reviewSets = reviewers.map((a) => {
      const judged = answered
        .filter((x) => !(r.settings.selfReview === "exclude" && x.id === a.id))
        .map((x) => x.label);
      const set = newReviewSet(r.id, a.label, a.modelId, a.id, shownOrder(judged, r.id, a.modelId));
      const calibrated = weights?.get(a.modelId);
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
  const request = buildReviewRequest({
    question: r.question,
    answers: r.answers.filter((a) => a.status === "done").map((a) => ({ label: a.label, text: a.text })),
    reviewerLabel,
    selfReview: r.settings.selfReview,
    order: set.shownOrder ?? undefined,
  });
  const who = () => ({ reviewSetId: set.id, reviewerLabel, reviewerModelId: ctx.blind() ? null : set.reviewerModelId });
  const answerParams = r.answers.find((a) => a.id === set.reviewerAnswerId)?.params ?? {};
  const started = Date.now();
  let tokensIn = 0;
  let tokensOut = 0;
  try {
    const parsed = parseModelId(set.reviewerModelId);
    if (!parsed) throw new ProviderError("bad_request", `"${set.reviewerModelId}" is not a model id.`);
    const provider = createProvider(parsed.provider, ctx.env);
    let review: ParsedReview | null = null;
    let lastError = "";
    // Output that fails validation is asked for once more before the review is marked failed.
    for (let round = 0; round < 2 && !review; round++) {
      const result = await callModel<ReviewOutput>(
        { cancel: ctx.cancel, timeoutMs: r.settings.timeoutMs, policy: ctx.policy },
        (signal, dropped) =>
          provider.review({
            model: parsed.name,
            system: request.system,
            prompt: request.prompt,
            schema: request.schema,
            temperature: dropped.has("temperature") ? undefined : (answerParams.temperature ?? r.settings.temperature),
            signal,
          }),
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
      tokensIn += result.value.tokensIn ?? 0;
      tokensOut += result.value.tokensOut ?? 0;
      set.rawOutput = result.value.raw;
      const outcome = parseReview(result.value.raw, request.labels);
      if (outcome.ok) review = outcome.review;
      else lastError = outcome.error;
    }
    const cost = costOf(ctx.env, set.reviewerModelId, tokensIn, tokensOut);
    Object.assign(set, { latencyMs: Date.now() - started, tokensIn, tokensOut, costUsd: cost });
    if (!review)
      throw new InvalidReview(`The review did not match the required format twice (${lastError}). See the raw output.`);
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
    ctx.save();
    ctx.write(...reviewSetWrites(ctx.env.DB, r.id, set));
    logCall(ctx.env, {
      run: r.id,
      step: "review",
      model: set.reviewerModelId,
      status: "done",
      latencyMs: set.latencyMs,
      attempts: set.attempts,
    });
    ctx.emit({
      type: "review.completed",
      ...who(),
      ranking: review.ranking,
      confidence: review.confidence,
      weight: ctx.blind() && weightsAreCalibrated(r) ? null : set.weight,
      rawOutput: set.rawOutput,
      latencyMs: set.latencyMs,
      tokensIn: set.tokensIn,
      tokensOut: set.tokensOut,
      costUsd: ctx.blind() ? null : set.costUsd,
      reviews: set.reviews.map((v) => ({
        id: v.id,
        targetAnswerId: v.targetAnswerId,
        targetLabel: labelOf(r, v.targetAnswerId),
        scores: v.scores,
        critique: v.critique,
      })),
    });
  } catch (err) {
    if (!ctx.current()) return;
    const message = err instanceof Error ? err.message : String(err);
    const errorKind = err instanceof InvalidReview ? "invalid_output" : err instanceof ProviderError ? err.kind : null;
    Object.assign(set, { status: "failed", error: message, errorKind, latencyMs: Date.now() - started });
    if (tokensIn || tokensOut)
      Object.assign(set, { tokensIn, tokensOut, costUsd: costOf(ctx.env, set.reviewerModelId, tokensIn, tokensOut) });
    ctx.save();
    ctx.write(...reviewSetWrites(ctx.env.DB, r.id, set));
    logCall(ctx.env, {
      run: r.id,
      step: "review",
      model: set.reviewerModelId,
      status: "failed",
      latencyMs: set.latencyMs,
      attempts: set.attempts,
      error: message,
    });
    const { rawOutput, latencyMs, tokensIn: tin, tokensOut: tout, costUsd } = set;
    const blind = ctx.blind();
    const error = blind ? blindReviewError(r, set)! : message;
    ctx.emit({
      type: "review.failed",
      ...who(),
      error,
      rawOutput,
      latencyMs,
      tokensIn: tin,
      tokensOut: tout,
      costUsd: blind ? null : costUsd,
    });
  }
}

function newReviewSet(
  runId: string,
  label: string,
  reviewerModelId: string,
  reviewerAnswerId: string,
  order: string[],
): ReviewSetRecord {
  return {
    ...REVIEWER_NOT_STARTED,
    id: `${runId}-r${label}`,
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
    .flatMap((s) => {
      const own = s.reviewerAnswerId ? labelOf(r, s.reviewerAnswerId) : null;
      const ranked = s.ranking!.filter((l) => l !== own && modelOf.has(l));
      return ranked.flatMap((a, i) =>
        ranked.slice(i + 1).map((b) => ({
          id: `${s.id}-${a}${b}`,
          modelA: modelOf.get(a)!,
          modelB: modelOf.get(b)!,
          winner: "model_a" as const,
          reviewerModelId: s.reviewerModelId,
        })),
      );
    });
}
