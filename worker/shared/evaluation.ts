/** What a client sees of an evaluation while it runs and after: its plan, where it stands, and its progress. */
import * as z from "zod/mini";
import { EVALUATION_METHODS, EVALUATION_STATUSES } from "./constants";

export const evaluationStatus = z.enum(EVALUATION_STATUSES);

/**
 * One contestant's calls: its answers, and the judge calls that read one of its answers (council: the other
 * reviewers' reviews of its rounds).
 */
export const contestantProgress = z.object({
  contestant: z.string(),
  displayName: z.string(),
  answered: z.number(),
  answerFailed: z.number(),
  answersTotal: z.number(),
  judged: z.number(),
  judgeFailed: z.number(),
  judgedTotal: z.number(),
});

const callCounts = z.object({
  pending: z.number(),
  /** under way now */
  running: z.number(),
  done: z.number(),
  failed: z.number(),
  /** judge calls waiting on an answer that failed (a retry of the answer brings them back) */
  blocked: z.number(),
  cancelled: z.number(),
  total: z.number(),
});

export const evaluationProgress = z.object({
  contestants: z.array(contestantProgress),
  answers: callCounts,
  /** the judge calls; a council evaluation's reviews */
  judgments: callCounts,
  /** judge calls left out because the judge wrote one of the two answers */
  selfSkipped: z.number(),
  /** US dollars paid so far, calls with a known price */
  spentUsd: z.number(),
  unknownCostCalls: z.number(),
  /** milliseconds until the calls left are done at the pace so far; null before there is a pace, or when idle */
  etaMs: z.nullable(z.number()),
});

export const evaluationDetail = z.object({
  id: z.string(),
  name: z.string(),
  promptSetId: z.string(),
  method: z.enum(EVALUATION_METHODS),
  contestants: z.array(z.object({ id: z.string(), modelId: z.string(), displayName: z.string() })),
  judges: z.array(z.string()),
  baseline: z.nullable(z.string()),
  repeats: z.number(),
  items: z.number(),
  status: evaluationStatus,
  error: z.nullable(z.string()),
  estimateUsd: z.number(),
  createdAt: z.number(),
  progress: evaluationProgress,
});

/** A call that failed, and why (the provider's wording; a judge's output that missed the format twice). */
export const evaluationFailure = z.object({
  callId: z.string(),
  kind: z.enum(["answer", "judge", "review", "goal"]),
  itemId: z.string(),
  /** the contestant that answered, or the judge */
  model: z.string(),
  error: z.string(),
});

export type EvaluationDetail = z.infer<typeof evaluationDetail>;
export type EvaluationProgress = z.infer<typeof evaluationProgress>;
export type ContestantProgress = z.infer<typeof contestantProgress>;
export type EvaluationFailure = z.infer<typeof evaluationFailure>;
