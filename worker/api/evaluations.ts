/**
 * /api/evaluations: validate, resolve the contestants, read the prompt set, set the most it could cost aside,
 * then hand the evaluation to its EvaluationRoom. The room answers for its progress and controls.
 */
import { type Context, Hono } from "hono";
import { describeRoute } from "hono-openapi";
import {
  evalOutcomeCounts,
  evaluationAnswers,
  evaluationExists,
  evaluationJudgments,
  listEvaluations,
  promptSetSummary,
} from "../db/evaluation-queries";
import { loadPromptSetItems, markPromptSetUsed } from "../db/prompt-set-queries";
import { openDb } from "../db/queries";
import { leaderOf } from "../evaluation/leader";
import type { StartEvaluation } from "../rooms/evaluation-room";
import { settings } from "../shared/config";
import { createEvaluationInput, listEvaluationsQuery, wsQuery } from "../shared/requests";
import { evaluationDetail } from "../shared/evaluation";
import { evaluationAccepted, evaluationList, evaluationRows, evaluationStarted } from "../shared/responses";
import { contestantNames } from "./contestant-names";
import { markPresetsUsed } from "./contestants";
import { notFound } from "./errors";
import { knownId, newItemId } from "./item-ids";
import { battleBudgetMs, goalPlanOf } from "./evaluation-goal-plan";
import { checkedContestants, estimateOf, judgeTargetsOf } from "./evaluation-plan";
import { errorResponses, jsonResponse, pathParam } from "./openapi-describe";
import { parseCursor } from "./paging";
import { clientIdOf, rateLimit } from "./rate-limit";
import { unwrap } from "./room-result";
import { connectRoom, requireUpgrade } from "./sockets";
import { reserveSpend, withHold, workMs } from "./spend";
import { validate } from "./validate";

/** The room of evaluation `id`: only for an id the server made (item-ids.ts), since addressing a room creates it. */
const room = (env: Env, id: string) => env.EVALUATION_ROOM.get(env.EVALUATION_ROOM.idFromName(id));

/** The longest an evaluation's calls may take one after another in waves of six, each call twice its timeout. */
const callsMs = (calls: number, timeoutMs: number) => Math.ceil(calls / 6) * 2 * timeoutMs;

async function existing(c: Context<{ Bindings: Env }>): Promise<string> {
  const id = await knownId(c, "evaluation");
  if (!(await evaluationExists(openDb(c.env.DB), id))) throw notFound("Evaluation");
  return id;
}

const evaluationId = pathParam("id", "The evaluation's id, as POST /api/evaluations returned it.");

const control = (summary: string, done: string) =>
  describeRoute({
    tags: ["Evaluations"],
    summary,
    parameters: [evaluationId],
    responses: { 200: jsonResponse(evaluationAccepted, done), ...errorResponses(404, 409) },
  });

const described = {
  create: describeRoute({
    tags: ["Evaluations"],
    summary: "Start an evaluation: contestants answer a prompt set, judged pairwise in both orders or by council",
    description:
      "Pairwise (arena-hard-auto's protocol): every contestant answers every item `repeats` times; each judge compares each contestant's answer with the baseline's (or every pair, without a baseline) in both orders, on a five-point scale. Council: each item is a council round among the contestants; each reviewer (the judges, or else the contestants, each leaving its own answer out) ranks the answers blind, and each ranking gives a battle per pair. The most it could cost is set aside first.",
    responses: {
      201: jsonResponse(evaluationStarted, "The evaluation, started, with its estimate."),
      ...errorResponses(400, 404, 429),
    },
  }),
  list: describeRoute({
    tags: ["Evaluations"],
    summary: "List evaluations, newest first",
    responses: { 200: jsonResponse(evaluationList, "A page of evaluations."), ...errorResponses(400) },
  }),
  get: describeRoute({
    tags: ["Evaluations"],
    summary: "An evaluation: its plan, status, progress per contestant, spend and ETA",
    parameters: [evaluationId],
    responses: { 200: jsonResponse(evaluationDetail, "The evaluation."), ...errorResponses(404) },
  }),
  rows: describeRoute({
    tags: ["Evaluations"],
    summary: "An evaluation's answers and judgments (one per order shown), as D1 holds them",
    parameters: [evaluationId],
    responses: { 200: jsonResponse(evaluationRows, "The rows."), ...errorResponses(404) },
  }),
  pause: control("Pause: start no more calls (those under way finish and are kept)", "The evaluation, paused."),
  resume: control("Resume a paused evaluation", "The evaluation, running again."),
  cancel: control("Cancel: abort the calls under way and make no more; what finished is kept", "Cancelled."),
  retry: describeRoute({
    tags: ["Evaluations"],
    summary: "Retry the failed calls of an ended evaluation (and the judge calls that waited on them)",
    parameters: [evaluationId],
    responses: { 200: jsonResponse(evaluationAccepted, "Running again."), ...errorResponses(400, 404, 409, 429) },
  }),
};

export const evaluationsApi = new Hono<{ Bindings: Env }>()
  .post("/", described.create, validate("json", createEvaluationInput), async (c) => {
    const input = c.req.valid("json");
    const contestants = await checkedContestants(c.env, input);
    const judgeTargets = await judgeTargetsOf(c.env, input);
    const db = openDb(c.env.DB);
    await rateLimit(c, "runs", await clientIdOf(c));
    const set = await promptSetSummary(db, input.promptSetId);
    if (!set) throw notFound("Prompt set");
    // Used from now on, before its items are read: an edit under way can't change what this evaluation reads.
    await markPromptSetUsed(db, input.promptSetId);
    const items = await loadPromptSetItems(db, input.promptSetId);
    const { estimate, counts } = estimateOf(c.env, input, contestants, items, judgeTargets);
    const id = await newItemId(c.env, "evaluation");
    // A goal evaluation's call is a whole battle, held to the longest a battle may take.
    const goal = input.method === "goal" ? goalPlanOf(input) : undefined;
    const timeoutMs = goal ? battleBudgetMs(goal) : input.settings.timeoutMs;
    const calls = counts.answerCalls + counts.judgeCalls + (counts.reviewCalls ?? 0) + (counts.goalBattles ?? 0);
    const work = workMs(c.env, callsMs(calls, timeoutMs));
    const holdId = await reserveSpend(c, {
      itemId: id,
      what: "evaluation",
      estimate,
      hidden: false,
      blindPrices: null,
      workMs: work,
    });
    const record: StartEvaluation["record"] = {
      id,
      name: input.name ?? `${set.name} — ${new Date().toISOString().slice(0, 16).replace("T", " ")}`,
      promptSetId: input.promptSetId,
      method: input.method,
      contestants,
      judges: input.judges,
      judgeTargets,
      baseline: input.baseline ?? null,
      repeats: input.repeats,
      rubric: typeof input.rubric === "string" ? input.rubric : null,
      ...(typeof input.rubric === "object" ? { councilRubric: input.rubric } : {}),
      ...(goal ? { goal } : {}),
      settings: {
        timeoutMs,
        maxTokens: input.settings.maxTokens ?? null,
        temperature: input.settings.temperature ?? null,
      },
      estimateUsd: estimate.usd,
      items: items.length,
      holdId,
    };
    const started = unwrap(
      await withHold(
        c.env,
        holdId,
        async (holdId) =>
          await room(c.env, id).start({
            record: { ...record, holdId },
            items: items.map((item, i) => ({ ...item, maxUsd: estimate.perItem[i] })),
            holdExpiresAt: Date.now() + work,
            // The caps decide how many rooms the evaluation is spread over: fixed now, for all of its life.
            providerCaps: Object.fromEntries(settings(c.env).providerConcurrency),
          }),
      ),
    );
    await markPresetsUsed(c.env, [...input.contestants, ...input.judges]);
    return c.json({ ...started, estimate: { usd: estimate.usd, unpriced: estimate.unpriced, ...counts } }, 201);
  })
  .get("/", described.list, validate("query", listEvaluationsQuery), async (c) => {
    const { cursor, limit } = c.req.valid("query");
    const db = openDb(c.env.DB);
    const { rows, nextCursor } = await listEvaluations(db, limit, parseCursor(cursor));
    const [names, counts] = await Promise.all([
      contestantNames(
        db,
        rows.flatMap((r) => r.contestants),
      ),
      evalOutcomeCounts(
        db,
        rows.map((r) => r.id),
      ),
    ]);
    const items = rows.map((r) => {
      const leader = leaderOf(
        r.contestants,
        r.baseline,
        counts.filter((n) => n.evaluationId === r.id),
      );
      return {
        ...r,
        names: Object.fromEntries(r.contestants.map((id) => [id, names.get(id)!])),
        winner: leader.winner,
        winnerReason: leader.reason,
        tiedWithBest: leader.tiedWithBest,
      };
    });
    return c.json({ items, nextCursor });
  })
  .get("/:id", described.get, async (c) => {
    const detail = await room(c.env, await existing(c)).detail();
    if (!detail) throw notFound("Evaluation");
    return c.json(detail);
  })
  .get("/:id/rows", described.rows, async (c) => {
    const id = await existing(c);
    const db = openDb(c.env.DB);
    const [answers, judgments] = await Promise.all([evaluationAnswers(db, id), evaluationJudgments(db, id)]);
    const strip = <T extends { evaluationId: string }>({ evaluationId: _e, ...rest }: T) => rest;
    return c.json({ answers: answers.map(strip), judgments: judgments.map(strip) });
  })
  .post("/:id/pause", described.pause, async (c) => c.json(unwrap(await room(c.env, await existing(c)).pause())))
  .post("/:id/resume", described.resume, async (c) => c.json(unwrap(await room(c.env, await existing(c)).resume())))
  .post("/:id/cancel", described.cancel, async (c) => c.json(unwrap(await room(c.env, await existing(c)).cancel())))
  .post("/:id/retry", described.retry, async (c) => {
    const id = await existing(c);
    const evaluation = room(c.env, id);
    const { usd, calls, timeoutMs } = await evaluation.retryEstimate();
    const work = workMs(c.env, callsMs(calls, timeoutMs));
    const holdId = await reserveSpend(c, {
      itemId: id,
      what: "evaluation",
      estimate: { usd, unpriced: [] },
      hidden: false,
      blindPrices: null,
      workMs: work,
    });
    return c.json(
      unwrap(await withHold(c.env, holdId, async (holdId) => await evaluation.retry(holdId, Date.now() + work))),
    );
  })
  .get("/:id/ws", validate("query", wsQuery), async (c) => {
    requireUpgrade(c);
    return connectRoom(room(c.env, await existing(c)), c.req.raw, () => notFound("Evaluation"));
  });
