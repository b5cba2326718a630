/** The answering phase: every pending model answers the question, streamed, under the run's concurrency cap. */
import { saveAnswer } from "../db/queries";
import { estimateCost } from "../providers/catalog";
import { createProvider, modelInfo, parseModelId } from "../providers/registry";
import { ProviderError, type Generation } from "../providers/types";
import { callModel } from "./call-model";
import { forEachLimited } from "./limits";
import { logCall } from "./log";
import type { PhaseContext } from "./phase-context";
import type { AnswerRecord } from "./record";

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
  let started = Date.now();
  try {
    const parsed = parseModelId(answer.modelId);
    if (!parsed) throw new ProviderError("bad_request", `"${answer.modelId}" is not a model id of the form provider:model-name.`);
    const provider = createProvider(parsed.provider, ctx.env);
    const result = await callModel<Generation>(
      { cancel: ctx.cancel, timeoutMs: settings.timeoutMs, policy: ctx.policy },
      (signal, dropped) =>
        provider.generate(
          {
            model: parsed.name,
            messages: [{ role: "user", content: question }],
            system: params.systemPrompt,
            temperature: dropped.has("temperature") ? undefined : params.temperature,
            maxTokens: dropped.has("maxTokens") ? undefined : params.maxTokens,
            signal,
          },
          (text) => {
            if (!ctx.current() || signal.aborted) return;
            answer.text += text;
            ctx.emit({ type: "answer.delta", ...ref, text });
          },
        ),
      {
        onAttempt: (attempt) => {
          if (!ctx.current()) return;
          started = Date.now();
          Object.assign(answer, { status: "streaming", text: "", attempts: answer.attempts + 1, truncated: false, error: null });
          ctx.save();
          ctx.emit({ type: "answer.started", ...ref, modelId: modelId(), attempt });
        },
      },
    );
    if (!ctx.current()) return;
    const gen = result.value;
    Object.assign(answer, {
      status: "done",
      text: gen.text,
      latencyMs: Date.now() - started,
      tokensIn: gen.tokensIn,
      tokensOut: gen.tokensOut,
      costUsd: estimateCost(modelInfo(answer.modelId)!, gen.tokensIn, gen.tokensOut),
      truncated: gen.truncated,
      finishReason: gen.finishReason,
      droppedParams: result.dropped,
      error: null,
    });
    ctx.save();
    await saveAnswer(ctx.db, ctx.record.id, answer);
    logCall(ctx.env, { run: ctx.record.id, step: "answer", model: answer.modelId, status: "done", latencyMs: answer.latencyMs, attempts: result.attempts });
    ctx.emit({
      type: "answer.completed",
      ...ref,
      modelId: modelId(),
      text: answer.text,
      latencyMs: answer.latencyMs!,
      tokensIn: answer.tokensIn,
      tokensOut: answer.tokensOut,
      costUsd: answer.costUsd,
      truncated: answer.truncated,
      finishReason: answer.finishReason,
    });
  } catch (err) {
    if (!ctx.current()) return;
    const message = err instanceof Error ? err.message : String(err);
    // A stream that broke for good keeps what arrived, marked truncated, so the person can still read it.
    Object.assign(answer, { status: "failed", error: message, latencyMs: Date.now() - started, truncated: answer.text.length > 0 });
    ctx.save();
    await saveAnswer(ctx.db, ctx.record.id, answer);
    logCall(ctx.env, { run: ctx.record.id, step: "answer", model: answer.modelId, status: "failed", latencyMs: answer.latencyMs, attempts: answer.attempts, error: message });
    ctx.emit({ type: "answer.failed", ...ref, modelId: modelId(), error: message, text: answer.text, latencyMs: answer.latencyMs! });
  }
}
