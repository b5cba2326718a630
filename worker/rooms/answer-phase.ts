/** The answering phase: every pending model answers the question, streamed, under the run's concurrency cap. */
import { answerWrite } from "../db/queries";
import { forEachLimited } from "./limits";
import type { PhaseContext } from "./phase-context";
import { type AnswerRecord, blindAnswerError } from "./record";
import { streamAndSettle } from "./stream-and-settle";
import { targetOf } from "./targets";

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
  await streamAndSettle({
    rules: { env: ctx.env, cancel: ctx.cancel, policy: ctx.policy, timeoutMs: settings.timeoutMs },
    request: {
      modelId: targetOf(ctx.record.targets, answer.modelId).modelId,
      messages: [{ role: "user", content: question }],
      system: params.systemPrompt,
      temperature: params.temperature,
      maxTokens: params.maxTokens,
    },
    record: answer,
    current: ctx.current,
    save: ctx.save,
    announceStart: (attempt, voided) => {
      // While blind an attempt count tells providers apart (a parameter one of them rejects is dropped and the
      // call repeated): a label starts once, and again only when a repeat voids text already shown, as attempt 1.
      if (!ctx.blind()) ctx.emit({ type: "answer.started", ...ref, modelId: modelId(), attempt });
      else if (attempt === 1 || voided) ctx.emit({ type: "answer.started", ...ref, modelId: null, attempt: 1 });
    },
    announceDelta: (text) => ctx.emit({ type: "answer.delta", ...ref, text }),
    recordDone: (reply) =>
      Object.assign(answer, { finishReason: reply.generation.finishReason, droppedParams: reply.droppedParams }),
    keep: () => {
      ctx.save();
      ctx.write(answerWrite(ctx.env.DB, ctx.record.id, answer));
    },
    log: { run: ctx.record.id, step: "answer", model: answer.modelId },
    announceEnd: (reply) => {
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
      else
        ctx.emit({
          type: "answer.failed",
          ...ref,
          modelId: modelId(),
          error: ctx.blind() ? blindAnswerError(ctx.record, answer)! : reply.error,
          text: answer.text,
          latencyMs: answer.latencyMs!,
        });
    },
  });
}
