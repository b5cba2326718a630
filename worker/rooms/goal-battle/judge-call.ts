/**
 * One structured call to a goal battle's judge model (a per-turn goal check, or one order of the outcome judge):
 * made within the provider's cap, its tokens paid for and the call logged, whatever it returned.
 */
import { costOf } from "../../providers/pricing";
import { logCall } from "../log";
import { askStructured, type Parsed, type Structured, type StructuredRequest } from "../structured-call";
import type { GoalBattleContext } from "./context";

export async function askJudgeModel<T>(
  ctx: GoalBattleContext,
  step: "goal-check" | "goal-judge",
  request: Omit<StructuredRequest, "temperature">,
  parse: (raw: string) => Parsed<T>,
): Promise<Structured<T>> {
  const judge = request.modelId;
  const started = Date.now();
  const out = await ctx.gate.run(judge, () => askStructured(ctx.rules(), { ...request, temperature: 0 }, parse));
  const { tokensIn, tokensOut } = out.usage;
  if (tokensIn !== null || tokensOut !== null)
    ctx.paid({ modelId: judge, tokensIn, tokensOut, costUsd: costOf(ctx.env, judge, tokensIn ?? 0, tokensOut ?? 0) });
  logCall(ctx.env, {
    run: ctx.record.id,
    step,
    model: judge,
    status: out.ok ? "done" : "failed",
    latencyMs: Date.now() - started,
    attempts: 1,
    error: out.ok ? undefined : out.error,
  });
  return out;
}
