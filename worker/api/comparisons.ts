/** /api/comparisons: validate, then hand the comparison to its ComparisonRoom. */
import { Hono, type Context } from "hono";
import { comparisonHistory } from "../arena/history";
import { openDb } from "../db/queries";
import { choosePair, NoPairError } from "../arena/choose-pair";
import { arenaSettings } from "../arena/settings";
import type { Outcome } from "../rooms/comparison-room";
import { displayName } from "../rooms/record";
import { comparisonMessageInput, createComparisonInput, judgeInput, listComparisonsQuery, voteInput, wsQuery } from "../shared/requests";
import { checkModels } from "./check-models";
import { ApiError, notFound } from "./errors";
import { parseCursor } from "./paging";
import { clientIdOf, rateLimit } from "./rate-limit";
import { connectRoom, requireUpgrade } from "./sockets";
import { validate } from "./validate";
import { estimateComparison, estimateJudges, estimateRetry, estimateTurn } from "../arena/estimate";
import type { RunEstimate } from "../council/estimate";
import { comparisonForEstimate, type ComparisonForEstimate } from "../db/spend-queries";
import { redactComparison, redactMessage, redactMode } from "./redaction";
import { checkDayCap, checkRunCap } from "./spend";

export const comparisonRoom = (env: Env, id: string) => env.COMPARISON_ROOM.get(env.COMPARISON_ROOM.idFromName(id));

/** A room's refusal as the API's error; a success as it is. */
export function unwrap<O extends Outcome<object>>(outcome: O): Omit<Extract<O, { ok: true }>, "ok"> {
  if (!outcome.ok) throw new ApiError(outcome.status, outcome.code, outcome.message);
  const { ok: _ok, ...rest } = outcome as Extract<O, { ok: true }>;
  return rest;
}

/**
 * With QUORUM_MAX_DAY_USD set, checks that what this request could cost fits in what is left of the day;
 * refused before the room calls anyone. Whether the comparison exists is the room's to say: one D1 doesn't
 * hold (created a moment ago, or archived) is one whose room refuses anything that would cost.
 */
async function ensureAffordable(c: Context<{ Bindings: Env }>, id: string, estimate: (found: ComparisonForEstimate) => RunEstimate) {
  if (!c.env.QUORUM_MAX_DAY_USD?.trim()) return;
  const found = await comparisonForEstimate(openDb(c.env.DB), id);
  if (found) await checkDayCap(c, estimate(found));
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

export const comparisonsApi = new Hono<{ Bindings: Env }>()
  .post("/", validate("json", createComparisonInput), async (c) => {
    const redacted = redactMode(c.env) ? await redactComparison(c.req.valid("json")) : null;
    const input = redacted?.input ?? c.req.valid("json");
    await rateLimit(c, "comparisons", await clientIdOf(c));
    if (input.models) checkModels(c.env, input.models);
    if (input.judges) checkModels(c.env, input.judges);
    const settings = arenaSettings(c.env);
    let chosen;
    try {
      chosen = await choosePair(c.env, openDb(c.env.DB), input, settings.topperMinAppearances);
    } catch (err) {
      if (err instanceof NoPairError) throw new ApiError(409, "no_models", err.message);
      throw err;
    }
    const autoJudges = input.judges ?? settings.judges;
    const estimate = estimateComparison(c.env, { models: chosen.models, prompt: input.prompt, params: input.params ?? {}, judges: autoJudges });
    checkRunCap(c.env, estimate, "comparison");
    await checkDayCap(c, estimate);
    const id = crypto.randomUUID();
    const started = unwrap(
      await comparisonRoom(c.env, id).start({
        id,
        prompt: input.prompt,
        models: chosen.models,
        category: input.category ?? null,
        blind: input.blind,
        mode: chosen.mode,
        modeNote: chosen.modeNote,
        params: redacted ? { ...input.params, redactions: redacted.redactions } : (input.params ?? {}),
        maxTurns: settings.maxTurns,
        timeoutMs: settings.timeoutMs,
        autoJudges,
      }),
    );
    return c.json({ ...started, mode: chosen.mode, modeNote: chosen.modeNote, ...(redacted ? { redactions: redacted.redactions } : {}) }, 201);
  })
  .get("/", validate("query", listComparisonsQuery), async (c) => {
    const { cursor, limit } = c.req.valid("query");
    const { rows, nextCursor } = await comparisonHistory(openDb(c.env.DB), c.env.DB, c.env.ARCHIVE, limit, parseCursor(cursor));
    const items = rows.map((r) => {
      const shown = !r.blind || r.revealedAt !== null;
      const named = (modelId: string) => ({ modelId, displayName: displayName(modelId) });
      return {
        id: r.id,
        createdAt: r.createdAt,
        prompt: r.prompt,
        status: r.status,
        category: r.category,
        blind: r.blind,
        mode: r.mode,
        reveal: shown ? { left: named(r.model1Id), right: named(r.model2Id) } : null,
      };
    });
    return c.json({ items, nextCursor });
  })
  .get("/:id", async (c) => c.json(await comparisonDetail(c.env, c.req.param("id"))))
  .post("/:id/messages", validate("json", comparisonMessageInput), async (c) => {
    const redacted = redactMode(c.env) ? await redactMessage(c.req.valid("json").content) : null;
    const content = redacted?.content ?? c.req.valid("json").content;
    await ensureAffordable(c, c.req.param("id"), (found) => estimateTurn(c.env, found, content));
    const sent = unwrap(await comparisonRoom(c.env, c.req.param("id")).sendMessage(content, redacted?.redactions));
    return c.json(redacted ? { ...sent, redactions: redacted.redactions } : sent, 202);
  })
  .post("/:id/retry", async (c) => {
    await ensureAffordable(c, c.req.param("id"), (found) => estimateRetry(c.env, found));
    return c.json(unwrap(await comparisonRoom(c.env, c.req.param("id")).retry()), 202);
  })
  .post("/:id/judge", validate("json", judgeInput), async (c) => {
    const { judges } = c.req.valid("json");
    await ensureAffordable(c, c.req.param("id"), (found) => estimateJudges(c.env, found, judges));
    checkModels(c.env, judges);
    return c.json(unwrap(await comparisonRoom(c.env, c.req.param("id")).requestJudges(judges)), 202);
  })
  .post("/:id/votes", validate("json", voteInput), async (c) => {
    const id = c.req.param("id");
    // No D1 existence read first: the room knows whether it holds the comparison and refuses with not_found.
    const key = c.req.header("Idempotency-Key")?.trim() || null;
    if (key && key.length > 200) throw new ApiError(400, "invalid_request", "Idempotency-Key: at most 200 characters.");
    const settings = arenaSettings(c.env);
    const clientId = await clientIdOf(c);
    await rateLimit(c, "votes", clientId);
    const { replayed, response } = unwrap(
      await comparisonRoom(c.env, id).vote({
        choice: c.req.valid("json").choice,
        clientId,
        idempotencyKey: key,
        minVoteMs: settings.minVoteMs,
        maxPerClient: settings.votesPerClient,
        maxPerComparison: settings.votesPerComparison,
      }),
    );
    if (replayed) c.header("Idempotent-Replayed", "true");
    return c.json(response, 201);
  })
  .get("/:id/ws", validate("query", wsQuery), async (c) => {
    requireUpgrade(c);
    return connectRoom(comparisonRoom(c.env, c.req.param("id")), c.req.raw, () => notFound("Comparison"));
  });
