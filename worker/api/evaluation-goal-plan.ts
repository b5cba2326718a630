/**
 * What a goal evaluation (method `goal`) needs checked and figured before it starts, beside what every evaluation
 * needs (evaluation-plan.ts): a goal on every item, the simulated user's model and the judge configured, the judge
 * not one of the contestants' models; then the most its battles could cost, each as a goal battle estimates it
 * (every turn up to the limit, each call writing its full allowance, at list prices), and the plan the room keeps.
 */
import { goalBattleEstimate } from "../arena/goal-estimate";
import { poolPrices } from "../arena/estimate";
import { goalCallsOfItem } from "../evaluation/plan";
import type { EvaluationGoalPlan } from "../rooms/evaluation/record";
import { evaluationGoalSettingsInput, type CreateEvaluationInput } from "../shared/requests";
import { firstWithoutGoal, type PromptSetItem } from "../shared/prompt-set";
import { checkModels } from "./check-models";
import type { Contestant } from "./contestants";
import { ApiError } from "./errors";

/** The battles' settings as given, or their defaults. */
const settingsOf = (input: CreateEvaluationInput) => input.settings.goal ?? evaluationGoalSettingsInput.parse({});

export function goalPlanOf(input: CreateEvaluationInput): EvaluationGoalPlan {
  const s = settingsOf(input);
  return {
    maxTurns: s.maxTurns,
    turnTimeoutMs: s.turnTimeoutMs,
    systemPrompt: s.systemPrompt,
    user: { mode: s.user.mode, modelId: s.user.modelId ?? null, script: s.user.script ?? null },
    judgeModelId: input.judges[0] ?? null,
  };
}

/**
 * The longest one battle may take, which the evaluation holds each of its calls to: every turn's calls one after
 * another (the user, a reply, a goal check asked twice), then the judge.
 */
export const battleBudgetMs = (plan: EvaluationGoalPlan) => (plan.maxTurns + 1) * 4 * plan.turnTimeoutMs;

/** Refuses a goal evaluation its items or models can't run. */
export function checkGoalEvaluation(
  env: Env,
  input: CreateEvaluationInput,
  contestants: Contestant[],
  items: PromptSetItem[],
): void {
  const missing = firstWithoutGoal(items);
  if (missing !== -1)
    throw new ApiError(
      400,
      "item_without_goal",
      `Item "${items[missing].id}" (number ${missing + 1} of the set) has no goal: a goal evaluation needs a goal on every item (add a goal field, or pick another set).`,
    );
  const plan = goalPlanOf(input);
  if (plan.user.modelId) checkModels(env, [plan.user.modelId]);
  const judge = plan.judgeModelId;
  // A model doesn't judge its own conversation, as a goal battle's judge doesn't.
  if (judge && contestants.some((c) => c.id === judge || c.modelId === judge))
    throw new ApiError(
      400,
      "judge_is_contestant",
      `The judge ${judge} is one of the contestants (or the model a preset calls), and a model doesn't judge its own conversation: pick another judge.`,
    );
}

/** The most the battles could cost, per item too (the hold is given back item by item), and how many there are. */
export function goalEstimateOf(
  env: Env,
  input: CreateEvaluationInput,
  contestants: Contestant[],
  items: PromptSetItem[],
) {
  const plan = goalPlanOf(input);
  const byId = new Map(contestants.map((c) => [c.id, c]));
  const pairPlan = { contestants, baseline: input.baseline ?? null, judges: input.judges, repeats: input.repeats };
  const unpriced = new Set<string>();
  let battles = 0;
  const perItem = items.map((item, index) => {
    let usd = 0;
    for (const call of goalCallsOfItem(pairPlan, item.id, index)) {
      battles++;
      const [a, b] = [byId.get(call.first)!, byId.get(call.second)!];
      const script = plan.user.script ?? [];
      const prices = poolPrices(env, [a.modelId, b.modelId]);
      const e = goalBattleEstimate(env, {
        models: [a.modelId, b.modelId],
        blind: prices.price,
        systemPrompt: `${plan.systemPrompt}${a.params.systemPrompt ?? ""}${b.params.systemPrompt ?? ""}`,
        goal: item.goal ?? "",
        persona: item.persona,
        userModelId: plan.user.modelId,
        scriptChars: Math.max(item.prompt.length, ...script.map((s) => s.length)),
        judgeModelId: plan.judgeModelId,
        maxTurns: plan.user.mode === "script" ? Math.min(plan.maxTurns, script.length + 1) : plan.maxTurns,
        maxTokens:
          Math.max(
            a.params.maxTokens ?? input.settings.maxTokens ?? 0,
            b.params.maxTokens ?? input.settings.maxTokens ?? 0,
          ) || null,
      });
      usd += e.usd;
      for (const m of [...e.unpriced, ...prices.unpriced]) unpriced.add(m);
    }
    return usd;
  });
  return {
    estimate: { usd: perItem.reduce((x, y) => x + y, 0), unpriced: [...unpriced], perItem },
    counts: { answerCalls: 0, judgeCalls: 0, selfSkipped: 0, goalBattles: battles },
  };
}
