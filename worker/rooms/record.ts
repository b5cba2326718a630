/** What of a council run's record clients may see, and when. */
import type { AggregationView, RunDetail, RunStatus } from "../shared/run";
import type { AnswerRecord, ReviewSetRecord, RunRecord } from "../db/records";
import { hiddenError, type HiddenWording } from "./hidden-error";
import { runTotals, TERMINAL_STATUSES } from "../shared/run";
import { shownName, shownNames } from "./targets";

export type { AnswerRecord, ReviewRecord, ReviewSetRecord, RunRecord, SynthesisRecord } from "../db/records";

export const isTerminal = (status: RunStatus) => TERMINAL_STATUSES.includes(status);

/** While a blind run is under way, no model id may stand next to a label. */
export const isBlind = (run: Pick<RunRecord, "settings" | "status">) => run.settings.blind && !isTerminal(run.status);

const ANSWER_WORDING: HiddenWording = { subject: "This answer", retry: "Retry it once the run has ended." };
const REVIEW_WORDING: HiddenWording = { subject: "This review", retry: "Evaluate again once the run has ended." };

/**
 * While a run is blind a label shows only what can't tell its model apart: status, text, latency, token counts,
 * truncation and a generic error. Not its cost (cost ÷ tokens is a price), dropped parameters, the vendor's
 * finish reason or error wording, nor the run's cost total (solvable per label from the tokens and the prices).
 */
export const blindAnswerError = (r: RunRecord, a: Pick<AnswerRecord, "error" | "errorKind">) =>
  a.error === null ? null : hiddenError(a.errorKind ?? null, r.settings.timeoutMs, ANSWER_WORDING, a.error);

export const blindReviewError = (r: RunRecord, s: Pick<ReviewSetRecord, "error" | "errorKind">) =>
  s.error === null ? null : hiddenError(s.errorKind ?? null, r.settings.timeoutMs, REVIEW_WORDING, s.error);

/** The vote math while blind: each reviewer's shown order is seeded by its model id, and a calibration is its model's record. */
export function blindAggregation(a: AggregationView): AggregationView {
  const reviewers = a.voteBreakdown.reviewers.map((x) => ({ ...x, shownOrder: null }));
  return {
    ...a,
    voteBreakdown: {
      ...a.voteBreakdown,
      reviewers,
      calibration: a.voteBreakdown.calibration === undefined ? undefined : null,
    },
  };
}

/**
 * Calibrated ballot weights come from each reviewer model's record as an Arena judge (GET /api/judges), so while
 * blind they would name the reviewer: its weight, and the vote math that can be solved for it, wait for the end.
 */
export const weightsAreCalibrated = (r: RunRecord) => r.settings.reviewerWeights === "calibrated";

/** What the end of a blind run shows that its labels kept to themselves until then (the `unblinded` of its end event). */
export function unblindedOf(r: RunRecord) {
  return {
    answers: r.answers.map((a) => ({
      answerId: a.id,
      costUsd: a.costUsd,
      finishReason: a.finishReason,
      droppedParams: a.droppedParams,
      error: a.error,
    })),
    reviewers: r.reviewSets.map((s) => ({
      reviewSetId: s.id,
      reviewerModelId: s.reviewerModelId,
      costUsd: s.costUsd,
      error: s.error,
      weight: s.weight,
    })),
    aggregation: r.aggregation,
  };
}

export function toRunDetail(r: RunRecord): RunDetail {
  const blind = isBlind(r);
  const weightsTell = blind && weightsAreCalibrated(r);
  const labelOf = new Map(r.answers.map((a) => [a.id, a.label]));
  const reveal = (modelId: string) => (blind ? null : modelId);
  const reviewerLabel = (s: ReviewSetRecord) => (s.reviewerAnswerId ? (labelOf.get(s.reviewerAnswerId) ?? null) : null);
  return {
    run: {
      id: r.id,
      createdAt: r.createdAt,
      question: r.question,
      status: r.status,
      error: r.error,
      settings: r.settings,
      models: r.models,
      names: shownNames(r.targets, [
        ...new Set([
          ...r.models.map((m) => m.id),
          ...(r.settings.reviewers ?? []),
          ...(r.settings.synthesis ? [r.settings.synthesis.modelId] : []),
        ]),
      ]),
    },
    answers: r.answers.map((a) => ({
      id: a.id,
      label: a.label,
      modelId: reveal(a.modelId),
      displayName: blind ? null : shownName(r.targets, a.modelId),
      status: a.status,
      text: a.text,
      latencyMs: a.latencyMs,
      tokensIn: a.tokensIn,
      tokensOut: a.tokensOut,
      costUsd: blind ? null : a.costUsd,
      error: blind ? blindAnswerError(r, a) : a.error,
      truncated: a.truncated,
      finishReason: blind ? null : a.finishReason,
      droppedParams: blind ? [] : a.droppedParams,
    })),
    reviewers: r.reviewSets.map((s) => ({
      id: s.id,
      reviewerModelId: reveal(s.reviewerModelId),
      reviewerLabel: reviewerLabel(s),
      status: s.status,
      ranking: s.ranking,
      confidence: s.confidence,
      weight: weightsTell ? null : s.weight,
      rawOutput: s.rawOutput,
      error: blind ? blindReviewError(r, s) : s.error,
      latencyMs: s.latencyMs,
      tokensIn: s.tokensIn,
      tokensOut: s.tokensOut,
      costUsd: blind ? null : s.costUsd,
    })),
    reviews: r.reviewSets.flatMap((s) =>
      s.reviews.map((v) => ({
        id: v.id,
        reviewSetId: s.id,
        reviewerModelId: reveal(s.reviewerModelId),
        reviewerLabel: reviewerLabel(s),
        targetAnswerId: v.targetAnswerId,
        targetLabel: labelOf.get(v.targetAnswerId) ?? "?",
        scores: v.scores,
        critique: v.critique,
        ranking: s.ranking ?? [],
      })),
    ),
    aggregation:
      r.aggregation && !weightsTell
        ? {
            ...(blind ? blindAggregation(r.aggregation) : r.aggregation),
            finalRanking: r.aggregation.finalRanking.map((e) => ({ ...e, modelId: blind ? null : e.modelId })),
          }
        : null,
    synthesis: r.synthesis && { ...r.synthesis, displayName: shownName(r.targets, r.synthesis.modelId) },
    totals: hideCost(
      blind,
      runTotals([
        ...r.answers,
        ...r.reviewSets.map((s) => ({ ...s, reviewerLabel: reviewerLabel(s) })),
        ...(r.synthesis ? [r.synthesis] : []),
        ...(r.earlier ? [r.earlier] : []),
      ]),
    ),
    earlier: r.earlier ?? null,
  };
}

/** A blind run's cost, next to its labels' token counts, would say which model wrote which: it shows once the run ends. */
const hideCost = (blind: boolean, totals: RunDetail["totals"]): RunDetail["totals"] =>
  blind ? { ...totals, costUsd: null, unknownCostModels: 0 } : totals;
