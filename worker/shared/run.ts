/**
 * The shape of a council run as the API returns it and as the `snapshot` event carries it.
 * Written with zod/mini so the web app can validate live events without a large bundle.
 */
import * as z from "zod/mini";
import { contestantNames } from "./contestant-name";
import { REDACTION_KINDS } from "./redact";
import { REVIEWER_WEIGHTS, SELF_REVIEW_MODES } from "./constants";

export const RUN_STATUSES = [
  "pending",
  "answering",
  "reviewing",
  "synthesizing",
  "done",
  "partial",
  "failed",
  "cancelled",
] as const;
export const ANSWER_STATUSES = ["pending", "streaming", "done", "failed", "cancelled"] as const;
export const REVIEW_STATUSES = ["pending", "running", "done", "failed", "cancelled"] as const;
export const SCORE_KEYS = ["correctness", "completeness", "clarity", "helpfulness", "safety", "overall"] as const;

export const runStatus = z.enum(RUN_STATUSES);
export const answerStatus = z.enum(ANSWER_STATUSES);
export const reviewStatus = z.enum(REVIEW_STATUSES);

/** A review's scores, 0 to 10, one per key of the run's rubric (the default rubric's six: SCORE_KEYS). */
export const scores = z.record(z.string(), z.number());

/**
 * What reviewers score: each dimension's key, what it judges and its weight in an answer's overall
 * (Σ weight·score ÷ Σ weight); per category, weights that replace the dimensions' own (e.g. correctness ×2 for math).
 */
export const rubric = z.object({
  dimensions: z.array(z.object({ key: z.string(), description: z.string(), weight: z.number() })),
  categoryWeights: z.optional(z.record(z.string(), z.record(z.string(), z.number()))),
});

export const modelParams = z.object({
  temperature: z.optional(z.number()),
  maxTokens: z.optional(z.number()),
  systemPrompt: z.optional(z.string()),
});

/** What redact mode masked before the text was stored or sent, counted per kind (QUORUM_REDACT) */
export const redactionCounts = z.optional(z.partialRecord(z.enum(REDACTION_KINDS), z.number()));

export const runSettings = z.object({
  blind: z.boolean(),
  selfReview: z.enum(SELF_REVIEW_MODES),
  selfReviewWeight: z.number(),
  autoEvaluate: z.boolean(),
  /** a chair that writes one final answer from the ranked answers and their critiques */
  synthesis: z.optional(z.object({ modelId: z.string() })),
  reviewerWeights: z.optional(z.enum(REVIEWER_WEIGHTS)),
  concurrency: z.number(),
  timeoutMs: z.number(),
  systemPrompt: z.optional(z.string()),
  temperature: z.optional(z.number()),
  maxTokens: z.optional(z.number()),
  redactions: redactionCounts,
  /** judge-only and answering models that review; absent: every model that answered */
  reviewers: z.optional(z.array(z.string())),
  /** absent: the default rubric (SCORE_KEYS, the reviewer's own overall) */
  rubric: z.optional(rubric),
  /** the run's category, which picks the rubric's per-category weights */
  category: z.optional(z.string()),
});

export const runSummary = z.object({
  id: z.string(),
  createdAt: z.number(),
  question: z.string(),
  status: runStatus,
  error: z.nullable(z.string()),
  settings: runSettings,
  models: z.array(z.object({ id: z.string(), params: z.optional(modelParams) })),
  /**
   * the shown name of each of the run's models, reviewers and chair (a preset's name and version, with its model),
   * keyed by id; none of them says which label is whose
   */
  names: z.optional(contestantNames),
});

/** What one provider call took and cost; null until it ends (and costUsd when the price is unknown). */
export const callUsage = {
  latencyMs: z.nullable(z.number()),
  tokensIn: z.nullable(z.number()),
  tokensOut: z.nullable(z.number()),
  costUsd: z.nullable(z.number()),
};

export const answerView = z.object({
  id: z.string(),
  label: z.string(),
  /** null while the run is blind and not done */
  modelId: z.nullable(z.string()),
  displayName: z.nullable(z.string()),
  status: answerStatus,
  text: z.string(),
  ...callUsage,
  error: z.nullable(z.string()),
  truncated: z.boolean(),
  finishReason: z.nullable(z.string()),
  droppedParams: z.array(z.string()),
});

export const reviewerView = z.object({
  id: z.string(),
  /** null while the run is blind and not done */
  reviewerModelId: z.nullable(z.string()),
  /** the label of the reviewer's own answer, if it answered */
  reviewerLabel: z.nullable(z.string()),
  status: reviewStatus,
  ranking: z.nullable(z.array(z.string())),
  confidence: z.nullable(z.number()),
  /** null while a blind run with calibrated weights is under way: a calibrated weight is its model's record */
  weight: z.nullable(z.number()),
  rawOutput: z.nullable(z.string()),
  error: z.nullable(z.string()),
  ...callUsage,
});

/** The chair's final answer: streamed like an answer, never ranked, adds no battles. */
export const synthesisView = z.object({
  modelId: z.string(),
  displayName: z.string(),
  status: answerStatus,
  text: z.string(),
  ...callUsage,
  error: z.nullable(z.string()),
  truncated: z.boolean(),
});

export const reviewView = z.object({
  id: z.string(),
  reviewSetId: z.string(),
  reviewerModelId: z.nullable(z.string()),
  reviewerLabel: z.nullable(z.string()),
  targetAnswerId: z.string(),
  targetLabel: z.string(),
  scores,
  critique: z.string(),
  ranking: z.array(z.string()),
});

export const rankingEntry = z.object({
  rank: z.number(),
  label: z.string(),
  answerId: z.string(),
  modelId: z.nullable(z.string()),
  borda: z.number(),
  firstPlaceVotes: z.number(),
  meanOverall: z.nullable(z.number()),
  meanCorrectness: z.nullable(z.number()),
});

export const voteBreakdown = z.object({
  reviewers: z.array(
    z.object({
      reviewSetId: z.string(),
      reviewerLabel: z.nullable(z.string()),
      weight: z.number(),
      ranking: z.array(z.string()),
      points: z.record(z.string(), z.number()),
      /** the order this reviewer was shown the answers in */
      shownOrder: z.optional(z.nullable(z.array(z.string()))),
    }),
  ),
  bordaTotals: z.record(z.string(), z.number()),
  firstPlaceVotes: z.record(z.string(), z.number()),
  scoreMeans: z.record(z.string(), z.record(z.string(), z.nullable(z.number()))),
  /** pairwise[a][b] = weighted number of reviewers that ranked a above b */
  pairwise: z.record(z.string(), z.record(z.string(), z.number())),
  tieBreaks: z.array(
    z.object({
      labels: z.array(z.string()),
      /** meanDimension: the mean of `tieKey`, a custom rubric's heaviest dimension */
      decidedBy: z.enum(["meanOverall", "meanCorrectness", "meanDimension", "shared"]),
    }),
  ),
  /** the dimension whose mean breaks ties the overall left (absent: correctness, as before rubrics) */
  tieKey: z.optional(z.string()),
  condorcetWinner: z.nullable(z.string()),
  /**
   * Did reviewers favour the answer they were shown first? Over the reviewers whose order is known:
   * how many ranked their first-shown answer first, against the number expected by chance (Σ 1/k).
   */
  positionBias: z.optional(
    z.nullable(z.object({ reviewers: z.number(), firstShownRankedFirst: z.number(), expected: z.number() })),
  ),
  /**
   * With calibrated reviewer weights: per review set, the agreement with human votes its weight came from,
   * or null when the reviewer had too few judged votes and took the average of the others.
   */
  calibration: z.optional(
    z.nullable(z.record(z.string(), z.nullable(z.object({ agreement: z.number(), comparisons: z.number() })))),
  ),
});

export const aggregationView = z.object({
  finalRanking: z.array(rankingEntry),
  voteBreakdown,
  methodVersion: z.string(),
});

/** Tokens and cost of calls added up; costUsd null while none of them has a known price. */
export const meter = z.object({
  tokensIn: z.nullable(z.number()),
  tokensOut: z.nullable(z.number()),
  costUsd: z.nullable(z.number()),
});

export const runDetail = z.object({
  run: runSummary,
  answers: z.array(answerView),
  reviewers: z.array(reviewerView),
  reviews: z.array(reviewView),
  aggregation: z.nullable(aggregationView),
  synthesis: z.nullable(synthesisView),
  /**
   * every call so far, answers and reviews; costUsd is the known part (null while no call has a known price),
   * and unknownCostModels counts the models whose calls have no price, so a total is never a false $0
   */
  totals: z.object({
    tokensIn: z.number(),
    tokensOut: z.number(),
    costUsd: z.nullable(z.number()),
    unknownCostModels: z.number(),
  }),
  /** calls whose results were replaced (an earlier evaluation, a retried answer or synthesis): paid for, so in `totals` too */
  earlier: z.optional(z.nullable(meter)),
});

export type RunStatus = z.infer<typeof runStatus>;
export type AnswerStatus = z.infer<typeof answerStatus>;
export type ReviewStatus = z.infer<typeof reviewStatus>;
export type Scores = z.infer<typeof scores>;
export type ScoreKey = (typeof SCORE_KEYS)[number];
/** Scores under the default rubric, as the demo's prepared reviews give them. */
export type DefaultScores = Record<ScoreKey, number>;
export type Rubric = z.infer<typeof rubric>;
export type ModelParams = z.infer<typeof modelParams>;
export type RunSettings = z.infer<typeof runSettings>;
export type AnswerView = z.infer<typeof answerView>;
export type ReviewerView = z.infer<typeof reviewerView>;
export type RankingEntry = z.infer<typeof rankingEntry>;
export type VoteBreakdown = z.infer<typeof voteBreakdown>;
export type AggregationView = z.infer<typeof aggregationView>;
export type RunDetail = z.infer<typeof runDetail>;
export type SynthesisView = z.infer<typeof synthesisView>;

/** A reply (an answer, an arena side, a synthesis) not asked for yet: the room starts one so, the page resets one so. */
export const REPLY_NOT_STARTED = {
  status: "pending",
  text: "",
  latencyMs: null,
  tokensIn: null,
  tokensOut: null,
  costUsd: null,
  error: null,
  truncated: false,
} as const;

/** A reviewer before its review has started: nothing ranked, measured or paid yet. */
export const REVIEWER_NOT_STARTED = {
  status: "pending",
  ranking: null,
  confidence: null,
  weight: 1,
  rawOutput: null,
  error: null,
  latencyMs: null,
  tokensIn: null,
  tokensOut: null,
  costUsd: null,
} as const satisfies Omit<ReviewerView, "id" | "reviewerModelId" | "reviewerLabel">;

/** One call's meter; `label` (an answer) or `reviewerLabel` (a review) says which model made it, even while blind. */
type Metered = {
  tokensIn: number | null;
  tokensOut: number | null;
  costUsd: number | null;
  label?: string;
  reviewerLabel?: string | null;
  modelId?: string | null;
};

/** Tokens and estimated cost of a run's calls, unknown counts left out and the models without a price counted. */
export function runTotals(calls: Metered[]): RunDetail["totals"] {
  const sum = (pick: (c: Metered) => number | null) => calls.reduce((s, c) => s + (pick(c) ?? 0), 0);
  const costKnown = calls.some((c) => c.costUsd !== null);
  // A call that used tokens but has no cost is a model without a price.
  const unpriced = new Set(
    calls
      .filter((c) => c.costUsd === null && (c.tokensIn ?? 0) + (c.tokensOut ?? 0) > 0)
      .map((c) => c.label ?? c.reviewerLabel ?? c.modelId ?? "?"),
  );
  return {
    tokensIn: sum((c) => c.tokensIn),
    tokensOut: sum((c) => c.tokensOut),
    costUsd: costKnown ? sum((c) => c.costUsd) : null,
    unknownCostModels: unpriced.size,
  };
}

/**
 * A total as people should read it after "estimated cost": never "$0" when part of it has no price
 * ("unknown for 2 models", "≥ $0.0100 (cost unknown for 1 model)", "$0.0100").
 */
export function describeCost(
  totals: Pick<RunDetail["totals"], "costUsd" | "unknownCostModels">,
  format: (usd: number) => string,
): string {
  const unknown = totals.unknownCostModels;
  const models = `${unknown} model${unknown === 1 ? "" : "s"}`;
  if (totals.costUsd === null) return unknown ? `unknown for ${models}` : "none yet";
  return unknown ? `≥ ${format(totals.costUsd)} (cost unknown for ${models})` : format(totals.costUsd);
}

export const TERMINAL_STATUSES: readonly RunStatus[] = ["done", "partial", "failed", "cancelled"];
