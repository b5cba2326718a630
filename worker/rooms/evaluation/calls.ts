/**
 * The two kinds of evaluation call. An answer streams through the shared "stream and settle" step (no deltas are
 * announced: nobody reads an evaluation's answers as they stream), and a judge call is one structured call in one
 * order. Either stores its result in the room's call store first; only then is it written to D1 and announced.
 */
import { parseModelId } from "../../providers/registry";
import { costOf } from "../../providers/pricing";
import type { ProviderError } from "../../providers/types";
import type { ChatMessage } from "../../providers/types";
import { buildPairwiseJudgeRequest, parsePairwiseVerdict } from "../../evaluation/judge-prompt";
import { logCall } from "../log";
import { targetOf, withPresetSystem } from "../targets";
import { type StreamedRecord, pendingReply, streamAndSettle } from "../stream-and-settle";
import { askStructured, type Structured } from "../structured-call";
import type { CallResult, CallRow } from "./call-store";
import type { EvaluationContext } from "./context";

const providerOf = (modelId: string) => parseModelId(modelId)?.provider ?? modelId;

/** A 429 the call is about to wait out holds back every call to its provider for as long. */
export const backOffOn = (ctx: EvaluationContext, modelId: string) => (err: ProviderError, delayMs: number) => {
  if (err.kind === "rate_limit") ctx.backOff(providerOf(modelId), delayMs);
};

function messagesOf(turns: string | null, prompt: string): ChatMessage[] {
  const earlier = turns ? (JSON.parse(turns) as { role: string; content: string }[]) : [];
  return [
    ...earlier.map((t): ChatMessage => ({ role: t.role === "assistant" ? "assistant" : "user", content: t.content })),
    { role: "user", content: prompt },
  ];
}

export async function makeAnswerCall(ctx: EvaluationContext, call: CallRow): Promise<CallRow | null> {
  const r = ctx.record;
  const contestant = r.contestants.find((c) => c.id === call.model)!;
  const item = ctx.store.item(call.item);
  const record: StreamedRecord = { ...pendingReply() };
  let started = Date.now();
  let firstTokenMs: number | null = null;
  let stored: CallRow | null = null;
  await streamAndSettle({
    rules: ctx.rules(),
    request: {
      modelId: contestant.modelId,
      messages: messagesOf(item.turns, item.prompt),
      system: contestant.params.systemPrompt,
      temperature: contestant.params.temperature ?? r.settings.temperature ?? undefined,
      maxTokens: contestant.params.maxTokens ?? r.settings.maxTokens ?? undefined,
    },
    record,
    current: ctx.current,
    save: () => {},
    announceStart: () => {
      started = Date.now();
      firstTokenMs = null;
    },
    announceDelta: () => {
      firstTokenMs ??= Date.now() - started;
    },
    onRetry: backOffOn(ctx, contestant.modelId),
    keep: () => {
      stored = ctx.store.finish(call.id, {
        status: record.status === "done" ? "done" : "failed",
        text: record.text,
        error: record.error,
        latencyMs: record.latencyMs,
        firstTokenMs,
        tokensIn: record.tokensIn,
        tokensOut: record.tokensOut,
        costUsd: record.costUsd ?? null,
        truncated: record.truncated,
      });
    },
    log: { run: r.id, step: "eval-answer", model: contestant.modelId },
    announceEnd: () => {},
  });
  return stored;
}

export async function makeJudgeCall(ctx: EvaluationContext, call: CallRow): Promise<CallRow | null> {
  const r = ctx.record;
  const item = ctx.store.item(call.item);
  const request = buildPairwiseJudgeRequest({
    prompt: item.prompt,
    turns: item.turns ? (JSON.parse(item.turns) as { role: string; content: string }[]) : null,
    reference: item.reference,
    rubric: r.rubric,
    a: ctx.store.answerText(call.dep_a!),
    b: ctx.store.answerText(call.dep_b!),
  });
  // A preset judge: its model judges, its system prompt before the judge's instructions (which still bind last).
  const target = targetOf(r.judgeTargets, call.model);
  const started = Date.now();
  const out = await askStructured(
    ctx.rules(),
    { ...request, modelId: target.modelId, system: withPresetSystem(target, request.system), temperature: 0 },
    parsePairwiseVerdict,
    { onRetry: backOffOn(ctx, target.modelId) },
  );
  if (!ctx.current()) return null;
  return keepStructured(ctx, call, "eval-judge", target.modelId, started, out, {
    verdict: out.ok ? out.value.verdict : null,
    reasons: out.ok ? out.value.reasons : null,
  });
}

/**
 * Keeps a structured call's result (a judge's verdict, a reviewer's ranking: `parsed`) with its tokens, cost and
 * time, and logs it. The row it returns is the room's to write and announce.
 */
export function keepStructured(
  ctx: EvaluationContext,
  call: CallRow,
  step: "eval-judge" | "eval-review",
  modelId: string,
  started: number,
  out: Structured<unknown>,
  parsed: Pick<CallResult, "verdict" | "reasons" | "review">,
): CallRow {
  const { tokensIn, tokensOut } = out.usage;
  const costUsd = tokensIn || tokensOut ? costOf(ctx.env, modelId, tokensIn ?? 0, tokensOut ?? 0) : null;
  const latencyMs = Date.now() - started;
  const row = ctx.store.finish(call.id, {
    ...parsed,
    status: out.ok ? "done" : "failed",
    error: out.ok ? null : out.error,
    latencyMs,
    tokensIn,
    tokensOut,
    costUsd,
  });
  logCall(ctx.env, {
    run: ctx.record.id,
    step,
    model: modelId,
    status: out.ok ? "done" : "failed",
    latencyMs,
    attempts: 1,
    error: out.ok ? undefined : out.error,
  });
  return row;
}
