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
import { createEvaluationInput } from "../shared/requests";
import { evaluationEstimate } from "../shared/responses";
import { notFound } from "./errors";
import { checkedContestants, estimateOf, judgeTargetsOf } from "./evaluation-plan";
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
    const contestants = await checkedContestants(c.env, input);
    const judgeTargets = await judgeTargetsOf(c.env, input);
    const db = openDb(c.env.DB);
    if (!(await promptSetSummary(db, input.promptSetId))) throw notFound("Prompt set");
    const items = await loadPromptSetItems(db, input.promptSetId);
    const { estimate, counts } = estimateOf(c.env, input, contestants, items, judgeTargets);
    return c.json({ usd: estimate.usd, unpriced: estimate.unpriced, ...counts });
  },
);
