/**
 * What POST /api/evaluations and its dry run (/estimate) both check and figure before anything is spent: the
 * contestants and the judges (a council evaluation's reviewers) resolved (a preset to its model and parameters),
 * every model configured; then, from the prompt set's items, the most it could cost and its calls.
 */
import type { PromptSetItem } from "../shared/prompt-set";
import { estimateEvaluation } from "../evaluation/estimate";
import { callsOfItem } from "../evaluation/plan";
import { isPresetId } from "../shared/contestant";
import type { CreateEvaluationInput } from "../shared/requests";
import { checkModels } from "./check-models";
import type { CallTargets } from "../db/records";
import { type Contestant, resolveContestants, targetsOf } from "./contestants";
import { ApiError } from "./errors";
import { checkGoalEvaluation, goalEstimateOf } from "./evaluation-goal-plan";
import type { RunEstimate } from "../council/estimate";

/** Refuses what no evaluation can run; the contestants, resolved. */
export async function checkedContestants(env: Env, input: CreateEvaluationInput): Promise<Contestant[]> {
  const contestants = await resolveContestants(env, input.contestants);
  checkModels(env, [...contestants.map((x) => x.modelId), ...input.judges.filter((j) => !isPresetId(j))]);
  return contestants;
}

/**
 * Each preset judge's model and parameters, by its id (a model id judge needs none): its model judges (or, in a
 * council evaluation, reviews) with the preset's system prompt before the task's own instructions. Refuses an unknown
 * or deleted preset as contestants do.
 */
export async function judgeTargetsOf(env: Env, input: CreateEvaluationInput): Promise<CallTargets> {
  const presets = await resolveContestants(env, input.judges.filter(isPresetId));
  return targetsOf(presets);
}

/** An evaluation's calls by kind, as its estimate counts them. */
export interface CallCounts {
  answerCalls: number;
  judgeCalls: number;
  selfSkipped: number;
  reviewCalls?: number;
  goalBattles?: number;
}

/**
 * The most the evaluation could cost (per item too, for the hold given back item by item) and its calls; a goal
 * evaluation's are its battles (evaluation-goal-plan.ts), checked first.
 */
export function estimateOf(
  env: Env,
  input: CreateEvaluationInput,
  contestants: Contestant[],
  items: PromptSetItem[],
  judgeTargets: CallTargets = {},
): { estimate: RunEstimate & { perItem: number[] }; counts: CallCounts } {
  if (!items.length) throw new ApiError(400, "empty_prompt_set", "The prompt set has no items to evaluate.");
  if (input.method === "goal") {
    checkGoalEvaluation(env, input, contestants, items);
    return goalEstimateOf(env, input, contestants, items);
  }
  const plan = {
    contestants,
    baseline: input.baseline ?? null,
    judges: input.judges,
    judgeTargets,
    repeats: input.repeats,
    method: input.method,
  };
  const estimate = estimateEvaluation(
    env,
    {
      ...plan,
      params: {
        ...Object.fromEntries(Object.entries(judgeTargets).map(([id, t]) => [id, t.params])),
        ...Object.fromEntries(contestants.map((x) => [x.id, x.params])),
      },
      maxTokens: input.settings.maxTokens ?? null,
    },
    items,
  );
  const perItem = callsOfItem(plan, "count");
  const counts = {
    answerCalls: perItem.answers.length * items.length,
    judgeCalls: perItem.judges.length * items.length,
    selfSkipped: perItem.selfSkipped * items.length,
    // Only a council evaluation reviews, so a pairwise estimate keeps its shape.
    ...(input.method === "council" ? { reviewCalls: perItem.reviews.length * items.length } : {}),
  };
  return { estimate, counts };
}
