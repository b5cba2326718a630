/** After the ranking: the chair writes one final answer, streamed like an answer. It is not ranked and adds no battles. */
import { synthesisWrite } from "../db/queries";
import { buildSynthesisPrompt, SYNTHESIS_SYSTEM_PROMPT } from "../council/synthesis-prompt";
import { logCall } from "./log";
import type { PhaseContext } from "./phase-context";
import { streamReply } from "./reply";

export async function runSynthesisPhase(ctx: PhaseContext): Promise<void> {
  const r = ctx.record;
  const s = r.synthesis;
  if (!s || !r.aggregation || s.status === "done" || s.status === "failed") return;
  const textOf = new Map(r.answers.map((a) => [a.label, a.text]));
  const critiquesOf = (label: string) =>
    r.reviewSets.flatMap((set) =>
      set.reviews
        .filter((v) => r.answers.find((a) => a.id === v.targetAnswerId)?.label === label)
        .map((v) => v.critique),
    );
  const prompt = buildSynthesisPrompt(
    r.question,
    r.aggregation.finalRanking.map((e) => ({
      rank: e.rank,
      label: e.label,
      text: textOf.get(e.label) ?? "",
      critiques: critiquesOf(e.label),
    })),
  );
  const reply = await streamReply(
    { env: ctx.env, cancel: ctx.cancel, policy: ctx.policy, timeoutMs: r.settings.timeoutMs },
    {
      modelId: s.modelId,
      messages: [{ role: "user", content: prompt }],
      system: SYNTHESIS_SYSTEM_PROMPT,
      maxTokens: r.settings.maxTokens,
    },
    {
      onAttempt: (attempt) => {
        if (!ctx.current()) return;
        Object.assign(s, { status: "streaming", text: "", error: null, truncated: false });
        ctx.save();
        ctx.emit({ type: "synthesis.started", modelId: s.modelId, attempt });
      },
      onDelta: (text) => {
        if (!ctx.current()) return;
        s.text += text;
        ctx.emit({ type: "synthesis.delta", text });
      },
    },
  );
  if (!ctx.current()) return;
  if (reply.ok) {
    const gen = reply.generation;
    Object.assign(s, {
      status: "done",
      text: gen.text,
      latencyMs: reply.latencyMs,
      tokensIn: gen.tokensIn,
      tokensOut: gen.tokensOut,
      costUsd: reply.costUsd,
      truncated: gen.truncated,
      error: null,
    });
  } else
    Object.assign(s, {
      status: "failed",
      error: reply.error,
      latencyMs: reply.latencyMs,
      truncated: s.text.trim().length > 0,
    });
  ctx.save();
  ctx.write(synthesisWrite(ctx.env.DB, r.id, s));
  logCall(ctx.env, {
    run: r.id,
    step: "synthesis",
    model: s.modelId,
    status: reply.ok ? "done" : "failed",
    latencyMs: s.latencyMs,
    attempts: reply.attempts,
    error: reply.ok ? undefined : reply.error,
  });
  if (reply.ok)
    ctx.emit({
      type: "synthesis.completed",
      text: s.text,
      latencyMs: s.latencyMs!,
      tokensIn: s.tokensIn,
      tokensOut: s.tokensOut,
      costUsd: s.costUsd,
      truncated: s.truncated,
    });
  else ctx.emit({ type: "synthesis.failed", error: reply.error, text: s.text, latencyMs: s.latencyMs! });
}
