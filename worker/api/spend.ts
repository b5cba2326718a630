/**
 * The spend caps: QUORUM_MAX_DAY_USD (everything spent or set aside since 00:00 UTC, runs and comparisons
 * together) and QUORUM_MAX_RUN_USD (everything one run or comparison ever spends: its answers, reviews,
 * retries, syntheses, turns and judges). Every request that may call a provider sets its most it could cost
 * aside first (a hold, worker/db/spend-queries.ts), in one conditional D1 statement, and is refused when
 * that would pass a cap; its room settles the hold when the work ends. Refusals and figures name no model
 * and no side: blind work is set aside at prices that don't depend on its pair.
 */
import type { Context } from "hono";
import { Hono } from "hono";
import { describeRoute } from "hono-openapi";
import type { Price, RunEstimate } from "../council/estimate";
import { openDb } from "../db/queries";
import { daySpend, type Hold, itemSpend, releaseHold, reserve } from "../db/spend-queries";
import { settings } from "../shared/config";
import { spendResponse } from "../shared/responses";
import { spendHistoryQuery } from "../shared/requests";
import { ApiError } from "./errors";
import { jsonResponse } from "./openapi-describe";
import { describedSpendHistory, spendHistoryHandler } from "./spend-history";
import { utcDay } from "./utc-day";
import { validate } from "./validate";

export { utcDay };

const usd = (n: number) => `$${n.toFixed(n >= 1 ? 2 : 4)}`;

export interface SpendRequest {
  /** the run, comparison or evaluation the work belongs to */
  itemId: string;
  what: "run" | "comparison" | "evaluation" | "goal battle" | "call";
  estimate: RunEstimate;
  /** blind work not yet revealed: set aside at `blindPrices`, shown at that amount until the reveal */
  hidden: boolean;
  blindPrices: Price | null;
  /** the longest the work may go on, its watchdog's one resume included: the hold expires after it */
  workMs: number;
}

/** Work whose calls may take `callsMs` at most: twice that (the watchdog resumes a step once), its slack, and a minute's margin. */
export const workMs = (env: Env, callsMs: number) => 2 * (callsMs + settings(env).watchdogSlackMs) + 60_000;

/**
 * Sets the request's most it could cost aside, or refuses it: a 400 when a cap is set and a model has no
 * known price, or when the run's or comparison's own cap would be passed; a 429 when the day's would.
 * Returns the hold's id, for the room that does the work to settle.
 */
export async function reserveSpend(c: Context<{ Bindings: Env }>, req: SpendRequest): Promise<string> {
  const spend = settings(c.env).spend;
  // An evaluation has its own cap; a run's or comparison's is QUORUM_MAX_RUN_USD.
  const evaluation = req.what === "evaluation";
  const caps = { dayCap: spend.dayUsd, itemCap: evaluation ? spend.evalUsd : spend.runUsd };
  const capName = evaluation ? "QUORUM_MAX_EVAL_USD" : "QUORUM_MAX_RUN_USD";
  if ((caps.dayCap !== null || caps.itemCap !== null) && req.estimate.unpriced.length)
    throw unpricedRefusal(req.estimate.unpriced, capName);
  const now = Date.now();
  const day = utcDay(now);
  const hold: Hold = {
    id: crypto.randomUUID(),
    itemId: req.itemId,
    day: day.start,
    usd: req.estimate.usd,
    hidden: req.hidden,
    blindPrices: req.blindPrices,
    createdAt: now,
    expiresAt: now + req.workMs,
  };
  const db = openDb(c.env.DB);
  if (await reserve(db, hold, caps)) return hold.id;
  // Refused: say which cap, with the same figures GET /api/spend shows (they read a moment later, so may differ a little).
  const item = await itemSpend(db, req.itemId, now);
  const itemUsed = item.spentUsd + item.reservedUsd;
  if (caps.itemCap !== null && (caps.dayCap === null || itemUsed + req.estimate.usd > caps.itemCap)) {
    const why =
      itemUsed > 0
        ? `This request could cost up to ${usd(req.estimate.usd)}, and this ${req.what} has already spent or set aside ${usd(itemUsed)} of its ${capName} ($${caps.itemCap}).`
        : `This ${req.what} could cost up to $${req.estimate.usd.toFixed(4)}, more than ${capName} ($${caps.itemCap}).`;
    throw new ApiError(
      400,
      "over_budget",
      `${why} Pick fewer or cheaper models, set a lower max tokens, or raise the cap.`,
      {
        estimateUsd: req.estimate.usd,
        capUsd: caps.itemCap,
        spentUsd: item.spentUsd,
        reservedUsd: item.reservedUsd,
      },
    );
  }
  throw await dayCapRefusal(c, caps.dayCap ?? 0, req.estimate.usd);
}

/** The hold of a request its room refused: nothing started, so nothing stays set aside. */
export async function releaseSpend(env: Env, holdId: string): Promise<void> {
  await releaseHold(openDb(env.DB), holdId);
}

/** Hands the hold to the room's request `act`; one that throws, or that the room refuses, gives the hold back. */
export async function withHold<R extends { ok: boolean }>(
  env: Env,
  holdId: string,
  act: (holdId: string) => PromiseLike<R>,
): Promise<R> {
  let outcome: R;
  try {
    outcome = await act(holdId);
  } catch (err) {
    await releaseSpend(env, holdId);
    throw err;
  }
  if (!outcome.ok) await releaseSpend(env, holdId);
  return outcome;
}

function unpricedRefusal(unpriced: string[], capName: string): ApiError {
  const example = `${unpriced[0]}=0.5:1.5`;
  return new ApiError(
    400,
    "unpriced_model",
    `No known price for ${unpriced.join(", ")}, so a spend cap (${capName} or QUORUM_MAX_DAY_USD) can't hold for ${unpriced.length === 1 ? "it" : "them"}. ` +
      `Price ${unpriced.length === 1 ? "it" : "each"} in QUORUM_PRICES as id=input:output US dollars per million tokens (e.g. QUORUM_PRICES=${example}; 0:0 for a free local model), restart, and try again, or pick priced models (the arena samples its pairs from QUORUM_ARENA_MODELS).`,
    { unpriced },
  );
}

/**
 * QUORUM_MAX_DAY_USD: a 429 with Retry-After, since the limit is a rate (money per UTC day) and the same
 * request may pass once the day turns; 402 is reserved in HTTP and clients treat it unpredictably.
 */
async function dayCapRefusal(c: Context<{ Bindings: Env }>, cap: number, estimateUsd: number): Promise<ApiError> {
  const day = utcDay();
  const spent = await daySpend(openDb(c.env.DB), day.start);
  const used = spent.spentUsd + spent.reservedUsd;
  const resets = new Date(day.resetsAt).toISOString().replace(".000Z", "Z");
  const why =
    used >= cap
      ? `Today's spend has reached QUORUM_MAX_DAY_USD: ${usd(used)} of ${usd(cap)} spent or set aside since 00:00 UTC.`
      : `This could cost up to ${usd(estimateUsd)}, and ${usd(used)} of today's ${usd(cap)} (QUORUM_MAX_DAY_USD) is already spent or set aside for work under way.`;
  c.header("Retry-After", String(Math.ceil((day.resetsAt - Date.now()) / 1000)));
  return new ApiError(
    429,
    "day_cap",
    `${why} The cap resets at 00:00 UTC (${resets}). To go on today, wait for work under way to finish, raise QUORUM_MAX_DAY_USD in .dev.vars (or the Worker's secrets) and restart, or pick cheaper models or a lower max tokens.`,
    {
      spentUsd: spent.spentUsd,
      reservedUsd: spent.reservedUsd,
      capUsd: cap,
      estimateUsd,
      unknownCostCalls: spent.unknownCostCalls,
      resetsAt: day.resetsAt,
    },
  );
}

const describedSpend = describeRoute({
  tags: ["Service"],
  summary: "Today's spend (UTC): spent, set aside for work under way, and the cap",
  responses: { 200: jsonResponse(spendResponse, "Today's figures.") },
});

export const spendApi = new Hono<{ Bindings: Env }>()
  .get("/", describedSpend, async (c) => {
    const day = utcDay();
    const spent = await daySpend(openDb(c.env.DB), day.start);
    return c.json({
      day: day.day,
      spentUsd: spent.spentUsd,
      reservedUsd: spent.reservedUsd,
      capUsd: settings(c.env).spend.dayUsd,
      unknownCostCalls: spent.unknownCostCalls,
      resetsAt: day.resetsAt,
    });
  })
  .get("/history", describedSpendHistory, validate("query", spendHistoryQuery), async (c) =>
    c.json(await spendHistoryHandler(c, c.req.valid("query"))),
  );
