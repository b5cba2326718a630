/**
 * POST /api/evaluations/estimate — what an evaluation would cost and how many calls it would make, from the same
 * body POST /api/evaluations takes, without starting it, reserving money or marking anything used: the page's
 * "estimate before Start".
 */
import { Hono } from "hono";
import { describeRoute } from "hono-openapi";
import { promptSetSummary } from "../db/evaluation-queries";
import { loadPromptSetItems } from "../db/prompt-set-queries";
import { openDb } from "../db/queries";
import { estimateEvaluation } from "../evaluation/estimate";
import { callsOfItem } from "../evaluation/plan";
import { createEvaluationInput } from "../shared/requests";
import { evaluationEstimate } from "../shared/responses";
import { checkModels } from "./check-models";
import { resolveContestants } from "./contestants";
import { ApiError, notFound } from "./errors";
import { errorResponses, jsonResponse } from "./openapi-describe";
import { validate } from "./validate";

const described = describeRoute({
  tags: ["Evaluations"],
  summary: "What an evaluation would cost and how many calls it would make, without starting it",
  responses: {
    200: jsonResponse(evaluationEstimate, "The most it could cost, and its calls."),
    ...errorResponses(400, 404),
  },
});

export const evaluationEstimateApi = new Hono<{ Bindings: Env }>().post(
  "/estimate",
  described,
  validate("json", createEvaluationInput),
  async (c) => {
    const input = c.req.valid("json");
    const contestants = await resolveContestants(c.env, input.contestants);
    checkModels(c.env, [...contestants.map((x) => x.modelId), ...input.judges]);
    const db = openDb(c.env.DB);
    if (!(await promptSetSummary(db, input.promptSetId))) throw notFound("Prompt set");
    const items = await loadPromptSetItems(db, input.promptSetId);
    if (!items.length) throw new ApiError(400, "empty_prompt_set", "The prompt set has no items to evaluate.");
    const plan = { contestants, baseline: input.baseline ?? null, judges: input.judges, repeats: input.repeats };
    const estimate = estimateEvaluation(
      c.env,
      {
        ...plan,
        params: Object.fromEntries(contestants.map((x) => [x.id, x.params])),
        maxTokens: input.settings.maxTokens ?? null,
      },
      items,
    );
    const perItem = callsOfItem(plan, "count");
    return c.json({
      usd: estimate.usd,
      unpriced: estimate.unpriced,
      answerCalls: perItem.answers.length * items.length,
      judgeCalls: perItem.judges.length * items.length,
      selfSkipped: perItem.selfSkipped * items.length,
    });
  },
);
