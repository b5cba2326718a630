/**
 * The spend caps: QUORUM_MAX_DAY_USD (everything spent since 00:00 UTC, runs and comparisons together) and
 * QUORUM_MAX_RUN_USD (the most one run or comparison could cost). Both refuse work before any provider call.
 */
import type { Context } from "hono";
import { Hono } from "hono";
import type { RunEstimate } from "../council/estimate";
import { openDb } from "../db/queries";
import { spendSince } from "../db/spend-queries";
import { ApiError } from "./errors";

const DAY_MS = 86_400_000;

/** 00:00 UTC of the day `now` falls in, and of the next. */
export function utcDay(now = Date.now()) {
  const start = Math.floor(now / DAY_MS) * DAY_MS;
  return { day: new Date(start).toISOString().slice(0, 10), start, resetsAt: start + DAY_MS };
}

/** A dollar setting, or null when unset or not a number ≥ 0. */
function usdSetting(raw: string | undefined): number | null {
  const n = Number(raw);
  return raw?.trim() && n >= 0 ? n : null;
}

const usd = (n: number) => `$${n.toFixed(n >= 1 ? 2 : 4)}`;

const unknownNote = (e: RunEstimate) => (e.unpriced.length ? ` (${e.unpriced.join(", ")} left out: no known price)` : "");

/** QUORUM_MAX_RUN_USD for one run or comparison: a 400, since the same request would be refused again tomorrow. */
export function checkRunCap(env: Env, estimate: RunEstimate, what: "run" | "comparison") {
  const cap = usdSetting(env.QUORUM_MAX_RUN_USD);
  if (cap === null || estimate.usd <= cap) return;
  throw new ApiError(
    400,
    "over_budget",
    `This ${what} could cost up to $${estimate.usd.toFixed(4)}${unknownNote(estimate)}, more than QUORUM_MAX_RUN_USD ($${cap}). Pick fewer or cheaper models, set a lower max tokens, or raise the cap.`,
    { estimateUsd: estimate.usd, capUsd: cap, unpriced: estimate.unpriced },
  );
}

/**
 * QUORUM_MAX_DAY_USD: refused when the day has already spent the cap, or when this request's most it could
 * cost would take it past. A 429 with Retry-After: the limit is a rate (money per UTC day), and the
 * same request may pass once the day turns; 402 is reserved in HTTP and clients treat it unpredictably.
 */
export async function checkDayCap(c: Context<{ Bindings: Env }>, estimate: RunEstimate = { usd: 0, unpriced: [] }): Promise<void> {
  const cap = usdSetting(c.env.QUORUM_MAX_DAY_USD);
  if (cap === null) return;
  const day = utcDay();
  const spent = await spendSince(openDb(c.env.DB), day.start);
  if (spent.usd < cap && spent.usd + estimate.usd <= cap) return;
  const resets = new Date(day.resetsAt).toISOString().replace(".000Z", "Z");
  const why =
    spent.usd >= cap
      ? `Today's spend has reached QUORUM_MAX_DAY_USD: ${usd(spent.usd)} of ${usd(cap)} spent since 00:00 UTC.`
      : `This could cost up to ${usd(estimate.usd)}${unknownNote(estimate)}, and ${usd(spent.usd)} of today's ${usd(cap)} (QUORUM_MAX_DAY_USD) is already spent.`;
  c.header("Retry-After", String(Math.ceil((day.resetsAt - Date.now()) / 1000)));
  throw new ApiError(
    429,
    "day_cap",
    `${why} The cap resets at 00:00 UTC (${resets}). To go on today, raise QUORUM_MAX_DAY_USD in .dev.vars (or the Worker's secrets) and restart, or pick cheaper models or a lower max tokens.`,
    { spentUsd: spent.usd, capUsd: cap, estimateUsd: estimate.usd, unknownCostCalls: spent.unknownCostCalls, resetsAt: day.resetsAt },
  );
}

export const spendApi = new Hono<{ Bindings: Env }>().get("/", async (c) => {
  const day = utcDay();
  const spent = await spendSince(openDb(c.env.DB), day.start);
  return c.json({ day: day.day, spentUsd: spent.usd, capUsd: usdSetting(c.env.QUORUM_MAX_DAY_USD), unknownCostCalls: spent.unknownCostCalls, resetsAt: day.resetsAt });
});
