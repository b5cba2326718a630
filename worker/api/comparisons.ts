/** /api/comparisons: validate, then hand the comparison to its ComparisonRoom. */
import { type Context, Hono } from "hono";
import { describeRoute } from "hono-openapi";
import { estimateJudges, estimateRetry, estimateTurn, poolPrices } from "../arena/estimate";
import { comparisonHistory } from "../arena/history";
import type { Price, RunEstimate } from "../council/estimate";
import { votesAndVerdictsOf } from "../db/arena-queries";
import { openDb } from "../db/queries";
import { blindPricesOf, type ComparisonForEstimate, comparisonForEstimate } from "../db/spend-queries";
import { comparisonDetail as comparisonDetailSchema } from "../shared/arena";
import { settings } from "../shared/config";
import {
  comparisonMessageInput,
  createComparisonInput,
  judgeInput,
  listComparisonsQuery,
  voteInput,
  wsQuery,
} from "../shared/requests";
import {
  comparisonAccepted,
  comparisonList,
  comparisonStarted,
  judgesAccepted,
  messageAccepted,
  voteRecorded,
} from "../shared/responses";
import { comparisonCallsMs, startComparison } from "./comparison-start";
import { comparisonRoom } from "./comparison-room";
import { contestantNames } from "./contestant-names";
import { claimContestants, pricedAs, targetsOf } from "./contestants";
import { ApiError, notFound } from "./errors";
import { knownId } from "./item-ids";
import { errorResponses, jsonResponse, pathParam } from "./openapi-describe";
import { parseCursor } from "./paging";
import { clientIdOf, rateLimit } from "./rate-limit";
import { voteReceipt } from "./receipts";
import { redactMessage, redactMode } from "./redaction";
import { unwrap } from "./room-result";
import { connectRoom, requireUpgrade } from "./sockets";
import { reserveSpend, withHold, workMs } from "./spend";
import { validate } from "./validate";

export { comparisonRoom } from "./comparison-room";

/**
 * Sets aside the most this request on a comparison could cost (QUORUM_MAX_RUN_USD counts everything the
 * comparison ever spent), then hands it to the room; a request the room refuses gives its hold back.
 * Whether the comparison exists is the room's to say: one D1 doesn't hold (archived) is one whose room
 * refuses anything that would cost.
 */
async function withSpend<R extends { ok: boolean }>(
  c: Context<{ Bindings: Env }>,
  id: string,
  estimate: (found: ComparisonForEstimate, blind: Price | null) => RunEstimate,
  act: (holdId: string | undefined) => PromiseLike<R>,
): Promise<R> {
  const db = openDb(c.env.DB);
  const stored = await comparisonForEstimate(db, id);
  if (!stored) return act(undefined);
  // Priced as the models its presets call.
  const called = await pricedAs(c.env, [stored.models.left, stored.models.right]);
  const found = { ...stored, models: { left: called(stored.models.left), right: called(stored.models.right) } };
  const blind = found.hidden
    ? ((await blindPricesOf(db, id)) ?? poolPrices(c.env, [found.models.left, found.models.right]).price)
    : null;
  const holdId = await reserveSpend(c, {
    itemId: id,
    what: "comparison",
    estimate: estimate(found, blind),
    hidden: found.hidden,
    blindPrices: blind,
    workMs: workMs(c.env, comparisonCallsMs(settings(c.env).arena.timeoutMs)),
  });
  return withHold(c.env, holdId, act);
}

/**
 * The comparison as clients may see it: blind until its first vote (the room decides). The room answers for
 * its existence: its D1 row is written a moment after the POST that created it answered.
 */
export async function comparisonDetail(env: Env, id: string) {
  const detail = await comparisonRoom(env, id).detail();
  if (!detail) throw notFound("Comparison");
  return detail;
}

const comparisonId = pathParam("id", "The comparison's id, as POST /api/comparisons returned it.");

/** The routes below as the OpenAPI document (openapi.ts) describes them. */
const described = {
  create: describeRoute({
    tags: ["Comparisons"],
    summary: "Start an arena comparison",
    description:
      "Two models answer the prompt on hidden sides: the two given, a pair sampled from the pool, or (topper) the leader against a challenger.",
    responses: { 201: jsonResponse(comparisonStarted, "The comparison, started."), ...errorResponses(400, 409, 429) },
  }),
  list: describeRoute({
    tags: ["Comparisons"],
    summary: "List comparisons, newest first",
    responses: { 200: jsonResponse(comparisonList, "A page of comparisons."), ...errorResponses(400) },
  }),
  get: describeRoute({
    tags: ["Comparisons"],
    summary: "A comparison's transcript; the models' names only once it may show them",
    parameters: [comparisonId],
    responses: { 200: jsonResponse(comparisonDetailSchema, "The comparison."), ...errorResponses(404) },
  }),
  message: describeRoute({
    tags: ["Comparisons"],
    summary: "Send the next turn to both sides",
    parameters: [comparisonId],
    responses: { 202: jsonResponse(messageAccepted, "The turn started."), ...errorResponses(400, 404, 409, 429) },
  }),
  retry: describeRoute({
    tags: ["Comparisons"],
    summary: "Ask a failed side again",
    parameters: [comparisonId],
    responses: { 202: jsonResponse(comparisonAccepted, "The retry started."), ...errorResponses(400, 404, 409, 429) },
  }),
  judge: describeRoute({
    tags: ["Comparisons"],
    summary: "Ask judge models for their verdict (hidden until the vote)",
    parameters: [comparisonId],
    responses: { 202: jsonResponse(judgesAccepted, "The judges were asked."), ...errorResponses(400, 404, 409, 429) },
  }),
  vote: describeRoute({
    tags: ["Comparisons"],
    summary: "Vote: left, right, tie or both-bad",
    description:
      "An Idempotency-Key header makes a retry answer the first vote again (with Idempotent-Replayed: true); the answer names the two models and carries the vote's receipt.",
    parameters: [
      comparisonId,
      { in: "header", name: "Idempotency-Key", description: "At most 200 characters.", schema: { type: "string" } },
      {
        in: "header",
        name: "X-Client-Id",
        description: "Who votes, for the per-client caps.",
        schema: { type: "string" },
      },
    ],
    responses: { 201: jsonResponse(voteRecorded, "The vote, recorded."), ...errorResponses(400, 404, 409, 429) },
  }),
};

export const comparisonsApi = new Hono<{ Bindings: Env }>()
  .post("/", described.create, validate("json", createComparisonInput), async (c) =>
    c.json(await startComparison(c, c.req.valid("json")), 201),
  )
  .get("/", described.list, validate("query", listComparisonsQuery), async (c) => {
    const { cursor, limit } = c.req.valid("query");
    const { rows, nextCursor } = await comparisonHistory(
      openDb(c.env.DB),
      c.env.DB,
      c.env.ARCHIVE,
      limit,
      parseCursor(cursor),
    );
    const { votes, verdicts } = await votesAndVerdictsOf(
      openDb(c.env.DB),
      rows.map((r) => r.id),
    );
    const names = await contestantNames(
      openDb(c.env.DB),
      rows.flatMap((r) => [r.model1Id, r.model2Id]),
    );
    const items = rows.map((r) => {
      const shown = !r.blind || r.revealedAt !== null;
      const named = (modelId: string) => ({ modelId, displayName: names.get(modelId)?.displayName ?? modelId });
      const vote = votes.get(r.id);
      return {
        id: r.id,
        createdAt: r.createdAt,
        prompt: r.prompt,
        status: r.status,
        category: r.category,
        blind: r.blind,
        mode: r.mode,
        reveal: shown ? { left: named(r.model1Id), right: named(r.model2Id) } : null,
        vote: vote ? { choice: vote.choice, at: vote.at } : null,
        judges: shown ? (verdicts.get(r.id) ?? 0) : 0,
      };
    });
    return c.json({ items, nextCursor });
  })
  .get("/:id", described.get, async (c) => c.json(await comparisonDetail(c.env, await knownId(c, "comparison"))))
  .post("/:id/messages", described.message, validate("json", comparisonMessageInput), async (c) => {
    const id = await knownId(c, "comparison");
    const redacted = redactMode(c.env) ? await redactMessage(c.req.valid("json").content) : null;
    const content = redacted?.content ?? c.req.valid("json").content;
    const sent = unwrap(
      await withSpend(
        c,
        id,
        (found, blind) => estimateTurn(c.env, found, blind, content),
        async (holdId) => await comparisonRoom(c.env, id).sendMessage(content, redacted?.redactions, holdId),
      ),
    );
    return c.json(redacted ? { ...sent, redactions: redacted.redactions } : sent, 202);
  })
  .post("/:id/retry", described.retry, async (c) => {
    const id = await knownId(c, "comparison");
    return c.json(
      unwrap(
        await withSpend(
          c,
          id,
          (found, blind) => estimateRetry(c.env, found, blind),
          async (holdId) => await comparisonRoom(c.env, id).retry(holdId),
        ),
      ),
      202,
    );
  })
  .post("/:id/judge", described.judge, validate("json", judgeInput), async (c) => {
    const id = await knownId(c, "comparison");
    const { judges } = c.req.valid("json");
    const contestants = await claimContestants(c.env, judges);
    const called = (id: string) => contestants.find((x) => x.id === id)?.modelId ?? id;
    return c.json(
      unwrap(
        await withSpend(
          c,
          id,
          (found) => estimateJudges(c.env, found, judges.map(called)),
          async (holdId) => await comparisonRoom(c.env, id).requestJudges(judges, holdId, targetsOf(contestants)),
        ),
      ),
      202,
    );
  })
  .post("/:id/votes", described.vote, validate("json", voteInput), async (c) => {
    // No D1 existence read: the id's tag says the server made it, and the room knows whether it holds it.
    const id = await knownId(c, "comparison");
    const key = c.req.header("Idempotency-Key")?.trim() || null;
    if (key && key.length > 200) throw new ApiError(400, "invalid_request", "Idempotency-Key: at most 200 characters.");
    const { arena } = settings(c.env);
    const clientId = await clientIdOf(c);
    await rateLimit(c, "votes", clientId);
    const { replayed, response } = unwrap(
      await comparisonRoom(c.env, id).vote({
        choice: c.req.valid("json").choice,
        clientId,
        idempotencyKey: key,
        minVoteMs: arena.minVoteMs,
        maxPerClient: arena.votesPerClient,
        maxPerComparison: arena.votesPerComparison,
      }),
    );
    if (replayed) c.header("Idempotent-Replayed", "true");
    // Derived, not stored: a replay answers with the same receipt, and the stored response holds none.
    return c.json({ ...response, receipt: await voteReceipt(c.env, response.voteId) }, 201);
  })
  .get("/:id/ws", validate("query", wsQuery), async (c) => {
    requireUpgrade(c);
    return connectRoom(comparisonRoom(c.env, await knownId(c, "comparison")), c.req.raw, () => notFound("Comparison"));
  });
