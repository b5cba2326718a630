/**
 * The cron sweep: a run, comparison, evaluation or goal battle D1 still shows as under way long after it started gets its room
 * nudged. Waking a room re-arms its alarm when the work is unfinished, so one whose alarm was lost
 * resumes — and its watchdog then decides whether it is merely late or stuck. Nudging a healthy room
 * does nothing. It also lets blind comparisons whose vote window passed unvoted count in the leaderboard, so
 * the counters catch up even when nobody reads it.
 */

import { settings } from "../shared/config";
import { releaseUncounted } from "../db/counting-queries";
import { openDb } from "../db/queries";
import { pruneHolds } from "../db/spend-queries";
import { unfinishedIn } from "../db/sweep-queries";

/** younger than this, a run, comparison or evaluation is left alone */
export const SWEEP_AFTER_MS = 10 * 60_000;
/** older than this, it is left alone too: the scan stays bounded by the created_at index */
const SWEEP_WITHIN_MS = 7 * 24 * 60 * 60_000;
const SWEEP_LIMIT = 100;

const DAY_MS = 86_400_000;

/**
 * Wakes the room of every run, comparison, evaluation and goal battle found; returns their ids. Also drops spend holds of days
 * before yesterday that can count no more (a day's cap only counts its own holds), and lets blind
 * comparisons whose vote window passed count.
 */
export async function sweepUnfinished(
  env: Env,
  now = Date.now(),
): Promise<{ runs: string[]; comparisons: string[]; evaluations: string[]; goalBattles: string[] }> {
  const db = openDb(env.DB);
  await pruneHolds(db, Math.floor(now / DAY_MS) * DAY_MS - DAY_MS, now);
  await releaseUncounted(db, now, settings(env).arena.voteWindowMs);
  const found = await unfinishedIn(db, { from: now - SWEEP_WITHIN_MS, to: now - SWEEP_AFTER_MS, limit: SWEEP_LIMIT });
  await Promise.all([
    ...found.runs.map((id) => env.RUN_ROOM.get(env.RUN_ROOM.idFromName(id)).poke()),
    ...found.comparisons.map((id) => env.COMPARISON_ROOM.get(env.COMPARISON_ROOM.idFromName(id)).poke()),
    ...found.evaluations.map((id) => env.EVALUATION_ROOM.get(env.EVALUATION_ROOM.idFromName(id)).poke()),
    ...found.goalBattles.map((id) => env.GOAL_BATTLE_ROOM.get(env.GOAL_BATTLE_ROOM.idFromName(id)).poke()),
  ]);
  return found;
}
