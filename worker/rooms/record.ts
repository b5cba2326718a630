/** What of a council run's record clients may see, and when. */
import type { RunDetail, RunStatus } from "../shared/run";
import type { ReviewSetRecord, RunRecord } from "../db/records";
import { runTotals, TERMINAL_STATUSES } from "../shared/run";
import { modelInfo } from "../providers/registry";

export type { AnswerRecord, ReviewRecord, ReviewSetRecord, RunRecord, SynthesisRecord } from "../db/records";

export const isTerminal = (status: RunStatus) => TERMINAL_STATUSES.includes(status);

/** While a blind run is under way, no model id may stand next to a label. */
export const isBlind = (run: Pick<RunRecord, "settings" | "status">) => run.settings.blind && !isTerminal(run.status);

export function displayName(modelId: string): string {
  return modelInfo(modelId)?.displayName ?? modelId;
}

export function toRunDetail(r: RunRecord): RunDetail {
  const blind = isBlind(r);
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
    },
    answers: r.answers.map((a) => ({
      id: a.id,
      label: a.label,
      modelId: reveal(a.modelId),
      displayName: blind ? null : displayName(a.modelId),
      status: a.status,
      text: a.text,
      latencyMs: a.latencyMs,
      tokensIn: a.tokensIn,
      tokensOut: a.tokensOut,
      costUsd: a.costUsd,
      error: a.error,
      truncated: a.truncated,
      finishReason: a.finishReason,
      droppedParams: a.droppedParams,
    })),
    reviewers: r.reviewSets.map((s) => ({
      id: s.id,
      reviewerModelId: reveal(s.reviewerModelId),
      reviewerLabel: reviewerLabel(s),
      status: s.status,
      ranking: s.ranking,
      confidence: s.confidence,
      weight: s.weight,
      rawOutput: s.rawOutput,
      error: s.error,
      latencyMs: s.latencyMs,
      tokensIn: s.tokensIn,
      tokensOut: s.tokensOut,
      costUsd: s.costUsd,
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
    aggregation: r.aggregation && {
      ...r.aggregation,
      finalRanking: r.aggregation.finalRanking.map((e) => ({ ...e, modelId: blind ? null : e.modelId })),
    },
    synthesis: r.synthesis && { ...r.synthesis, displayName: displayName(r.synthesis.modelId) },
    totals: hideCost(
      blind,
      runTotals([...r.answers, ...r.reviewSets.map((s) => ({ ...s, reviewerLabel: reviewerLabel(s) })), ...(r.synthesis ? [r.synthesis] : []), ...(r.earlier ? [r.earlier] : [])]),
    ),
    earlier: r.earlier ?? null,
  };
}

/** A blind run's cost, next to its labels' token counts, would say which model wrote which: it shows once the run ends. */
const hideCost = (blind: boolean, totals: RunDetail["totals"]): RunDetail["totals"] => (blind ? { ...totals, costUsd: null, unknownCostModels: 0 } : totals);
