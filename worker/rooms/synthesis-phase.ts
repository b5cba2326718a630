/** After the ranking: the chair writes one final answer, streamed like an answer. It is not ranked and adds no battles. */

import { buildSynthesisPrompt, SYNTHESIS_SYSTEM_PROMPT } from "../council/synthesis-prompt";
import { synthesisWrite } from "../db/queries";
import type { PhaseContext } from "./phase-context";
import { streamAndSettle } from "./stream-and-settle";
import { targetOf, withPresetSystem } from "./targets";

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
  const chair = targetOf(r.targets, s.modelId);
  await streamAndSettle({
    rules: { env: ctx.env, cancel: ctx.cancel, policy: ctx.policy, timeoutMs: r.settings.timeoutMs },
    request: {
      modelId: chair.modelId,
      messages: [{ role: "user", content: prompt }],
      system: withPresetSystem(chair, SYNTHESIS_SYSTEM_PROMPT),
      temperature: chair.params.temperature,
      maxTokens: chair.params.maxTokens ?? r.settings.maxTokens,
    },
    record: s,
    current: ctx.current,
    save: ctx.save,
    announceStart: (attempt) => ctx.emit({ type: "synthesis.started", modelId: s.modelId, attempt }),
    announceDelta: (text) => ctx.emit({ type: "synthesis.delta", text }),
    keep: () => {
      ctx.save();
      ctx.write(synthesisWrite(ctx.env.DB, r.id, s));
    },
    log: { run: r.id, step: "synthesis", model: s.modelId },
    announceEnd: (reply) => {
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
    },
  });
}
