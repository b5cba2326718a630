/** The live events of a council run and of an arena comparison: one union each, shared by the rooms and the page. */
import * as z from "zod/mini";
import {
  comparisonDetail,
  comparisonStatus,
  judgeView,
  side,
  reveal as sidesReveal,
  sideVerdict,
  voteView,
} from "./arena";
import { evaluationDetail, evaluationFailure, evaluationProgress, evaluationStatus } from "./evaluation";
import { aggregationView, callUsage, meter, runDetail, runStatus, scores } from "./run";
import { thread, threadDetail, threadMessage } from "./thread";

const base = { seq: z.number() };
const answerRef = { answerId: z.string(), label: z.string() };
/** Which review set an event is about; label and model stay null while the run is blind. */
const reviewerRef = {
  reviewSetId: z.string(),
  reviewerLabel: z.nullable(z.string()),
  reviewerModelId: z.nullable(z.string()),
};
/**
 * The watchdog's word, in both unions: a step overran its deadline and was resumed once, or overran it
 * again and was stopped with what it had. The message names no model.
 */
const watchdog = z.object({
  ...base,
  type: z.literal("watchdog"),
  action: z.enum(["resumed", "stopped"]),
  message: z.string(),
});
export type WatchdogEventBody = Omit<z.infer<typeof watchdog>, "seq">;
/** Who wrote what, sent when a run ends (blindness is over then, whatever the outcome). */
const reveal = z.array(
  z.object({ answerId: z.string(), label: z.string(), modelId: z.string(), displayName: z.string() }),
);
/**
 * What a blind run kept from its labels until it ended (each could tell a model apart), sent with its end:
 * each answer's and review's cost and own error text, an answer's finish reason and dropped parameters, a
 * reviewer's calibrated weight, and the vote math with each reviewer's shown order and calibration.
 */
const unblinded = z.optional(
  z.object({
    answers: z.array(
      z.object({
        answerId: z.string(),
        costUsd: z.nullable(z.number()),
        finishReason: z.nullable(z.string()),
        droppedParams: z.array(z.string()),
        error: z.nullable(z.string()),
      }),
    ),
    reviewers: z.array(
      z.object({
        reviewSetId: z.string(),
        /** a judge-only reviewer has no label to be named by */
        reviewerModelId: z.string(),
        costUsd: z.nullable(z.number()),
        error: z.nullable(z.string()),
        weight: z.number(),
      }),
    ),
    aggregation: z.nullable(aggregationView),
  }),
);

export const runEvent = z.discriminatedUnion("type", [
  z.object({ ...base, type: z.literal("snapshot"), state: runDetail }),
  // `earlier`: what the calls replaced by a retry or a new evaluation cost (still in the run's totals)
  z.object({ ...base, type: z.literal("run.status"), status: runStatus, earlier: z.optional(z.nullable(meter)) }),
  z.object({
    ...base,
    ...answerRef,
    type: z.literal("answer.started"),
    modelId: z.nullable(z.string()),
    attempt: z.number(),
  }),
  z.object({ ...base, ...answerRef, type: z.literal("answer.delta"), text: z.string() }),
  z.object({
    ...base,
    ...answerRef,
    type: z.literal("answer.completed"),
    modelId: z.nullable(z.string()),
    text: z.string(),
    latencyMs: z.number(),
    tokensIn: z.nullable(z.number()),
    tokensOut: z.nullable(z.number()),
    costUsd: z.nullable(z.number()),
    truncated: z.boolean(),
    finishReason: z.nullable(z.string()),
  }),
  z.object({
    ...base,
    ...answerRef,
    type: z.literal("answer.failed"),
    modelId: z.nullable(z.string()),
    error: z.string(),
    text: z.string(),
    latencyMs: z.number(),
  }),
  z.object({
    ...base,
    type: z.literal("review.started"),
    ...reviewerRef,
  }),
  z.object({
    ...base,
    type: z.literal("review.completed"),
    ...reviewerRef,
    ranking: z.array(z.string()),
    confidence: z.nullable(z.number()),
    weight: z.nullable(z.number()),
    rawOutput: z.nullable(z.string()),
    ...callUsage,
    reviews: z.array(
      z.object({ id: z.string(), targetAnswerId: z.string(), targetLabel: z.string(), scores, critique: z.string() }),
    ),
  }),
  z.object({
    ...base,
    type: z.literal("review.failed"),
    ...reviewerRef,
    error: z.string(),
    rawOutput: z.nullable(z.string()),
    ...callUsage,
  }),
  z.object({ ...base, type: z.literal("aggregation.completed"), aggregation: aggregationView }),
  z.object({ ...base, type: z.literal("synthesis.started"), modelId: z.string(), attempt: z.number() }),
  z.object({ ...base, type: z.literal("synthesis.delta"), text: z.string() }),
  z.object({
    ...base,
    type: z.literal("synthesis.completed"),
    text: z.string(),
    latencyMs: z.number(),
    tokensIn: z.nullable(z.number()),
    tokensOut: z.nullable(z.number()),
    costUsd: z.nullable(z.number()),
    truncated: z.boolean(),
  }),
  z.object({
    ...base,
    type: z.literal("synthesis.failed"),
    error: z.string(),
    text: z.string(),
    latencyMs: z.number(),
  }),
  z.object({ ...base, type: z.literal("run.completed"), status: runStatus, reveal, unblinded }),
  z.object({ ...base, type: z.literal("run.failed"), error: z.string(), reveal, unblinded }),
  z.object({ ...base, type: z.literal("run.cancelled"), reveal, unblinded }),
  watchdog,
]);

export type RunEvent = z.infer<typeof runEvent>;
/** An event before the room stamps its sequence number. */
export type RunEventBody = RunEvent extends infer E ? (E extends { seq: number } ? Omit<E, "seq"> : never) : never;

/** The live events of an arena comparison: a union of its own, since each union has one `snapshot`. */
export const comparisonEvent = z.discriminatedUnion("type", [
  z.object({ ...base, type: z.literal("snapshot"), state: comparisonDetail }),
  z.object({ ...base, type: z.literal("comparison.status"), status: comparisonStatus }),
  z.object({ ...base, type: z.literal("turn.started"), turn: z.number(), prompt: z.string() }),
  z.object({ ...base, type: z.literal("side.started"), side, turn: z.number(), attempt: z.number() }),
  z.object({ ...base, type: z.literal("side.delta"), side, turn: z.number(), text: z.string() }),
  z.object({
    ...base,
    type: z.literal("side.completed"),
    side,
    turn: z.number(),
    text: z.string(),
    latencyMs: z.number(),
    tokensIn: z.nullable(z.number()),
    tokensOut: z.nullable(z.number()),
    truncated: z.boolean(),
  }),
  z.object({
    ...base,
    type: z.literal("side.failed"),
    side,
    turn: z.number(),
    error: z.string(),
    text: z.string(),
    latencyMs: z.number(),
  }),
  z.object({
    ...base,
    type: z.literal("vote.recorded"),
    vote: voteView,
    reveal: sidesReveal,
    status: comparisonStatus,
  }),
  z.object({ ...base, type: z.literal("vote.withdrawn"), voteId: z.string(), status: comparisonStatus }),
  /** only once names may be shown; before the vote a judge works silently */
  z.object({ ...base, type: z.literal("judge.completed"), judge: judgeView, panel: z.nullable(sideVerdict) }),
  watchdog,
]);

export type ComparisonEvent = z.infer<typeof comparisonEvent>;
export type ComparisonEventBody = ComparisonEvent extends infer E
  ? E extends { seq: number }
    ? Omit<E, "seq">
    : never
  : never;

/** The live events of an evaluation: where it stands, its progress (spend and ETA included), each failed call. */
export const evaluationEvent = z.discriminatedUnion("type", [
  z.object({ ...base, type: z.literal("snapshot"), state: evaluationDetail }),
  z.object({ ...base, type: z.literal("evaluation.status"), status: evaluationStatus, error: z.nullable(z.string()) }),
  z.object({ ...base, type: z.literal("evaluation.progress"), progress: evaluationProgress }),
  z.object({ ...base, type: z.literal("evaluation.failure"), failure: evaluationFailure }),
  watchdog,
]);

export type EvaluationEvent = z.infer<typeof evaluationEvent>;
export type EvaluationEventBody = EvaluationEvent extends infer E
  ? E extends { seq: number }
    ? Omit<E, "seq">
    : never
  : never;

/** The live events of a chat thread: its messages as they start, stream and end, and its settings as they change. */
export const threadEvent = z.discriminatedUnion("type", [
  z.object({ ...base, type: z.literal("snapshot"), state: threadDetail }),
  z.object({ ...base, type: z.literal("message.started"), message: threadMessage }),
  z.object({ ...base, type: z.literal("message.delta"), messageId: z.string(), text: z.string() }),
  z.object({ ...base, type: z.literal("message.completed"), message: threadMessage }),
  z.object({ ...base, type: z.literal("message.failed"), message: threadMessage }),
  /** a dual reply's vote was a tie or both-bad: it now waits for the side that continues */
  z.object({ ...base, type: z.literal("message.updated"), message: threadMessage }),
  z.object({ ...base, type: z.literal("thread.updated"), thread }),
  watchdog,
]);

export type ThreadEvent = z.infer<typeof threadEvent>;
export type ThreadEventBody = ThreadEvent extends infer E
  ? E extends { seq: number }
    ? Omit<E, "seq">
    : never
  : never;
