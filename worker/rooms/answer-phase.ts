/** The answering phase: every pending model answers the question, streamed, under the run's concurrency cap. */
import { answerWrite } from "../db/queries";
import { forEachLimited } from "./limits";
import { logCall } from "./log";
import type { PhaseContext } from "./phase-context";
import { blindAnswerError, type AnswerRecord } from "./record";
import { streamReply } from "./reply";

export async function runAnswerPhase(ctx: PhaseContext): Promise<void> {
  const pending = ctx.record.answers.filter((a) => a.status === "pending" || a.status === "streaming");
  await forEachLimited(pending, ctx.record.settings.concurrency, (answer) => produceAnswer(ctx, answer));
}

async function produceAnswer(ctx: PhaseContext, answer: AnswerRecord): Promise<void> {
  if (!ctx.current()) return;
  const { settings, question } = ctx.record;
  const params = { ...settings, ...answer.params };
  const modelId = () => (ctx.blind() ? null : answer.modelId);
  const ref = { answerId: answer.id, label: answer.label };
  const reply = await streamReply(
    { env: ctx.env, cancel: ctx.cancel, policy: ctx.policy, timeoutMs: settings.timeoutMs },
    {
      modelId: answer.modelId,
      messages: [{ role: "user", content: question }],
      system: params.systemPrompt,
      temperature: params.temperature,
      maxTokens: params.maxTokens,
    },
    {
      onAttempt: (attempt) => {
        if (!ctx.current()) return;
        const voided = answer.text !== "";
        Object.assign(answer, {
          status: "streaming",
          text: "",
          attempts: answer.attempts + 1,
          truncated: false,
          error: null,
          errorKind: null,
        });
        ctx.save();
        // While blind an attempt count tells providers apart (a parameter one of them rejects is dropped and the
        // call repeated): a label starts once, and again only when a repeat voids text already shown, as attempt 1.
        if (!ctx.blind()) ctx.emit({ type: "answer.started", ...ref, modelId: modelId(), attempt });
        else if (attempt === 1 || voided) ctx.emit({ type: "answer.started", ...ref, modelId: null, attempt: 1 });
      },
      onDelta: (text) => {
        if (!ctx.current()) return;
        answer.text += text;
        ctx.emit({ type: "answer.delta", ...ref, text });
      },
    },
  );
  if (!ctx.current()) return;
  if (reply.ok) {
    const gen = reply.generation;
    Object.assign(answer, {
      status: "done",
      text: gen.text,
      latencyMs: reply.latencyMs,
      tokensIn: gen.tokensIn,
      tokensOut: gen.tokensOut,
      costUsd: reply.costUsd,
      truncated: gen.truncated,
      finishReason: gen.finishReason,
      droppedParams: reply.droppedParams,
      error: null,
    });
  } else {
    // A stream that broke for good keeps what arrived, marked truncated, so the person can still read it.
    Object.assign(answer, {
      status: "failed",
      error: reply.error,
      errorKind: reply.kind,
      latencyMs: reply.latencyMs,
      truncated: answer.text.trim().length > 0,
    });
  }
  ctx.save();
  ctx.write(answerWrite(ctx.env.DB, ctx.record.id, answer));
  logCall(ctx.env, {
    run: ctx.record.id,
    step: "answer",
    model: answer.modelId,
    status: reply.ok ? "done" : "failed",
    latencyMs: answer.latencyMs,
    attempts: reply.ok ? reply.attempts : answer.attempts,
    error: reply.ok ? undefined : reply.error,
  });
  if (reply.ok)
    ctx.emit({
      type: "answer.completed",
      ...ref,
      modelId: modelId(),
      text: answer.text,
      latencyMs: answer.latencyMs!,
      tokensIn: answer.tokensIn,
      tokensOut: answer.tokensOut,
      // while blind, only what can't tell the model apart (blindAnswerError says why)
      costUsd: ctx.blind() ? null : answer.costUsd,
      truncated: answer.truncated,
      finishReason: ctx.blind() ? null : answer.finishReason,
    });
  else {
    const error = ctx.blind() ? blindAnswerError(ctx.record, answer)! : reply.error;
    ctx.emit({
      type: "answer.failed",
      ...ref,
      modelId: modelId(),
      error,
      text: answer.text,
      latencyMs: answer.latencyMs!,
    });
  }
}
