/**
 * /api/goal-battles: validate, resolve the contestants (models or presets), draw two from a pool, set the most the
 * battle could cost aside, then hand it to its GoalBattleRoom. The room answers for the battle while it runs; lists
 * and transcripts are read from D1. Blind: no answer names a side's contestant before the battle is over.
 */
import { type Context, Hono } from "hono";
import { describeRoute } from "hono-openapi";
import { goalBattleEstimate } from "../arena/goal-estimate";
import { poolPrices } from "../arena/estimate";
import { goalBattleExists, goalMessages, listGoalBattles, type StoredGoalBattle } from "../db/goal-battle-queries";
import { openDb } from "../db/queries";
import type { StartGoalBattle } from "../rooms/goal-battle-room";
import { DEFAULT_GOAL_MARKER } from "../shared/constants";
import {
  type GoalBattleSummary,
  goalBattle,
  goalBattleList,
  goalBattleStarted,
  goalMessageList,
} from "../shared/goal-battle";
import {
  createGoalBattleInput,
  goalMessagesQuery,
  goalVoteInput,
  listGoalBattlesQuery,
} from "../shared/goal-battle-input";
import { wsQuery } from "../shared/requests";
import { claimContestants, pricedAs } from "./contestants";
import { checkModels } from "./check-models";
import { ApiError, notFound } from "./errors";
import { knownId, newItemId } from "./item-ids";
import { errorResponses, jsonResponse, pathParam } from "./openapi-describe";
import { parseCursor } from "./paging";
import { clientIdOf, rateLimit } from "./rate-limit";
import { unwrap } from "./room-result";
import { connectRoom, requireUpgrade } from "./sockets";
import { reserveSpend, withHold, workMs } from "./spend";
import { validate } from "./validate";

/** The room of goal battle `id`: only for an id the server made (item-ids.ts), since addressing a room creates it. */
const room = (env: Env, id: string) => env.GOAL_BATTLE_ROOM.get(env.GOAL_BATTLE_ROOM.idFromName(id));

async function existing(c: Context<{ Bindings: Env }>): Promise<string> {
  const id = await knownId(c, "goal-battle", "jobId");
  if (!(await goalBattleExists(openDb(c.env.DB), id))) throw notFound("Goal battle");
  return id;
}

/** Two distinct contestants drawn at random from `pool`. */
function drawTwo(pool: string[]): [string, string] {
  const [r1, r2] = crypto.getRandomValues(new Uint32Array(2));
  const first = pool[r1 % pool.length];
  const rest = pool.filter((id) => id !== first);
  return [first, rest[r2 % rest.length]];
}

const jobId = pathParam("jobId", "The goal battle's id, as POST /api/goal-battles returned it.");
const TAGS = ["Goal battles"];

const described = {
  create: describeRoute({
    tags: TAGS,
    summary: "Start a goal battle: two contestants pursue one goal over turns with a simulated user",
    description:
      "A turn is one user message and both sides' replies. Sides are drawn at random and stay blind until the battle is over. It ends when a side reaches the goal (marker or judge model), at maxTurns, when a side fails a turn for good, or by a stop. The most it could cost is set aside first.",
    responses: {
      201: jsonResponse(goalBattleStarted, "The battle, started."),
      ...errorResponses(400, 429),
    },
  }),
  list: describeRoute({
    tags: TAGS,
    summary: "List goal battles, newest first (a goal evaluation's only with ?evaluation=<id>)",
    responses: { 200: jsonResponse(goalBattleList, "A page of battles."), ...errorResponses(400) },
  }),
  get: describeRoute({
    tags: TAGS,
    summary: "A goal battle: state, turn, outcome and per-side metrics (names only once it is over)",
    parameters: [jobId],
    responses: { 200: jsonResponse(goalBattle, "The battle."), ...errorResponses(404) },
  }),
  messages: describeRoute({
    tags: TAGS,
    summary: "A goal battle's transcript: per side and turn, what the side was asked and its reply with the goal check",
    parameters: [jobId],
    responses: {
      200: jsonResponse(goalMessageList, "A page of messages, in turn order."),
      ...errorResponses(400, 404),
    },
  }),
  stop: describeRoute({
    tags: TAGS,
    summary: "Stop a goal battle: calls under way are aborted, nothing is rated, names are shown",
    parameters: [jobId],
    responses: { 200: jsonResponse(goalBattle, "The battle, stopped."), ...errorResponses(404, 409) },
  }),
  vote: describeRoute({
    tags: TAGS,
    summary: "A person's verdict on an ended goal battle judged by people (judgeMode human): left is side A",
    parameters: [jobId],
    responses: {
      200: jsonResponse(goalBattle, "The battle, decided and revealed."),
      ...errorResponses(400, 404, 409, 429),
    },
  }),
};

export const goalBattlesApi = new Hono<{ Bindings: Env }>()
  .post("/", described.create, validate("json", createGoalBattleInput), async (c) => {
    const input = c.req.valid("json");
    const ids = input.contestants ?? drawTwo(input.pool!);
    const extra = [input.user.modelId, input.goalCheck.judgeModelId].filter((m): m is string => m !== undefined);
    checkModels(c.env, extra);
    await rateLimit(c, "runs", await clientIdOf(c));
    const contestants = await claimContestants(c.env, ids);
    const judge = input.goalCheck.judgeModelId;
    // A model doesn't judge its own conversation (as arena judges don't), a preset's model included.
    if (judge && [...(input.pool ?? ids), ...contestants.map((x) => x.modelId)].includes(judge))
      throw new ApiError(
        400,
        "judge_is_contestant",
        `The judge ${judge} is one of the contestants (or the model a preset calls), and a model doesn't judge its own conversation: pick another judgeModelId.`,
      );
    const script = input.user.mode === "script" ? input.user.script! : null;
    const maxTurns = script ? Math.min(input.maxTurns, script.length) : input.maxTurns;
    const marker = input.goalCheck.marker ?? (input.goalCheck.judgeModelId ? null : DEFAULT_GOAL_MARKER);
    // Drawn from a pool, both sides are priced as the pool's dearest, so the amount set aside says nothing of the draw.
    const called = input.pool ? await pricedAs(c.env, input.pool) : null;
    const blind = poolPrices(c.env, called ? input.pool!.map(called) : contestants.map((x) => x.modelId));
    const estimate = goalBattleEstimate(c.env, {
      models: [contestants[0].modelId, contestants[1].modelId],
      blind: blind.price,
      systemPrompt: input.systemPrompt,
      goal: input.goal,
      persona: input.user.persona ?? null,
      userModelId: input.user.mode === "model" ? input.user.modelId! : null,
      scriptChars: Math.max(0, ...(script ?? []).map((s) => s.length)),
      judgeModelId: input.goalCheck.judgeModelId ?? null,
      maxTurns,
      maxTokens: input.maxTokens ?? null,
    });
    const id = await newItemId(c.env, "goal-battle");
    const holdId = await reserveSpend(c, {
      itemId: id,
      what: "goal battle",
      estimate: { usd: estimate.usd, unpriced: [...new Set([...estimate.unpriced, ...blind.unpriced])] },
      hidden: true,
      blindPrices: blind.price,
      workMs: workMs(c.env, maxTurns * 4 * input.turnTimeoutMs + 4 * input.turnTimeoutMs),
    });
    const record: StartGoalBattle["record"] = {
      id,
      goal: input.goal,
      systemPrompt: input.systemPrompt,
      judgeMode: input.judgeMode,
      user: {
        mode: input.user.mode,
        modelId: input.user.mode === "model" ? input.user.modelId! : null,
        persona: input.user.persona ?? null,
        script,
      },
      marker,
      judgeModelId: input.goalCheck.judgeModelId ?? null,
      maxTurns,
      turnTimeoutMs: input.turnTimeoutMs,
      temperature: input.temperature ?? null,
      maxTokens: input.maxTokens ?? null,
      category: input.category ?? null,
      holdId,
    };
    const [a, b] = contestants;
    unwrap(
      await withHold(
        c.env,
        holdId,
        async (holdId) => await room(c.env, id).start({ record: { ...record, holdId }, contestants: [a, b] }),
      ),
    );
    return c.json({ jobId: id }, 201);
  })
  .get("/", described.list, validate("query", listGoalBattlesQuery), async (c) => {
    const { cursor, limit, evaluation } = c.req.valid("query");
    const { rows, nextCursor } = await listGoalBattles(openDb(c.env.DB), limit, parseCursor(cursor), evaluation);
    return c.json({ battles: rows.map(summaryOf), nextCursor });
  })
  .get("/:jobId", described.get, async (c) => {
    const battle = await room(c.env, await existing(c)).detail();
    if (!battle) throw notFound("Goal battle");
    return c.json(battle);
  })
  .get("/:jobId/messages", described.messages, validate("query", goalMessagesQuery), async (c) => {
    const id = await existing(c);
    const { side, cursor, limit } = c.req.valid("query");
    const offset = cursor === undefined ? 0 : Number(cursor);
    if (!Number.isSafeInteger(offset) || offset < 0)
      throw new ApiError(
        400,
        "invalid_cursor",
        "The cursor is not one a page of messages gave; leave it out to start over.",
      );
    const { rows, nextCursor } = await goalMessages(openDb(c.env.DB), id, side, offset, limit);
    const messages = rows.map(({ battleId: _b, ...m }) => m);
    return c.json({ messages, nextCursor });
  })
  .post("/:jobId/stop", described.stop, async (c) => {
    const { battle } = unwrap(await room(c.env, await existing(c)).stop());
    return c.json(battle);
  })
  .post("/:jobId/votes", described.vote, validate("json", goalVoteInput), async (c) => {
    const id = await existing(c);
    await rateLimit(c, "votes", await clientIdOf(c));
    const { battle } = unwrap(await room(c.env, id).vote(c.req.valid("json").choice));
    return c.json(battle);
  })
  .get("/:jobId/ws", validate("query", wsQuery), async (c) => {
    requireUpgrade(c);
    return connectRoom(room(c.env, await existing(c)), c.req.raw, () => notFound("Goal battle"));
  });

/** A battle as the list shows it, from its D1 row: names only once it is over (with people judging, once voted). */
function summaryOf(row: StoredGoalBattle): GoalBattleSummary {
  const over = row.state !== "queued" && row.state !== "running";
  const shown = over && (row.judgeMode !== "human" || row.winner !== null);
  const side = (s: "A" | "B") => {
    const totals = row.sides[s];
    return {
      contestant: shown ? (s === "A" ? row.contestantA : row.contestantB) : null,
      displayName: shown ? (s === "A" ? row.displayNameA : row.displayNameB) : null,
      ...totals,
      costUsd: shown ? totals.costUsd : null,
    };
  };
  return {
    jobId: row.id,
    state: row.state,
    currentTurn: row.currentTurn,
    maxTurns: row.maxTurns,
    progress: over ? 1 : Math.min(1, row.currentTurn / row.maxTurns),
    endedReason: row.endedReason,
    winner: row.winner,
    rationale: row.rationale,
    goal: row.goal,
    judgeMode: row.judgeMode,
    user: { mode: row.userMode, modelId: row.userModelId, persona: row.persona },
    category: row.category,
    createdAt: row.createdAt,
    startedAt: row.startedAt,
    endedAt: row.endedAt,
    elapsedMs: row.startedAt === null ? 0 : (row.endedAt ?? Date.now()) - row.startedAt,
    sides: { A: side("A"), B: side("B") },
    vote: row.voteChoice ? { choice: row.voteChoice } : null,
  };
}
