/**
 * The cron sweep: a run, comparison, evaluation, goal battle or chat thread D1 still shows as under way long after
 * it started gets its room nudged. Waking a room re-arms its alarm when the work is unfinished, so one whose alarm
 * was lost resumes — and its watchdog then decides whether it is merely late or stuck. Nudging a healthy room does
 * nothing. It also lets blind comparisons whose vote window passed unvoted count in the leaderboard, so the
 * counters catch up even when nobody reads it.
 */

import { settings } from "../shared/config";
import { releaseUncounted } from "../db/counting-queries";
import { openDb } from "../db/queries";
import { pruneHolds } from "../db/spend-queries";
import { type Unfinished, unfinishedIn } from "../db/sweep-queries";

/** younger than this, unfinished work is left alone */
export const SWEEP_AFTER_MS = 10 * 60_000;
/** older than this, it is left alone too: the scan stays bounded by each table's time index */
const SWEEP_WITHIN_MS = 7 * 24 * 60 * 60_000;
const SWEEP_LIMIT = 100;

const DAY_MS = 86_400_000;

/** The binding of the rooms that own each kind of unfinished work (every one a `Room`, so each answers `poke`). */
const ROOMS = {
  runs: "RUN_ROOM",
  comparisons: "COMPARISON_ROOM",
  evaluations: "EVALUATION_ROOM",
  goalBattles: "GOAL_BATTLE_ROOM",
  threads: "THREAD_ROOM",
} as const satisfies Record<keyof Unfinished, keyof Env>;

/**
 * Wakes the room of everything found; returns their ids by kind. Also drops spend holds of days before yesterday
 * that can count no more (a day's cap only counts its own holds), and lets blind comparisons whose vote window
 * passed count.
 */
export async function sweepUnfinished(env: Env, now = Date.now()): Promise<Unfinished> {
  const db = openDb(env.DB);
  await pruneHolds(db, Math.floor(now / DAY_MS) * DAY_MS - DAY_MS, now);
  await releaseUncounted(db, now, settings(env).arena.voteWindowMs);
  const found = await unfinishedIn(db, { from: now - SWEEP_WITHIN_MS, to: now - SWEEP_AFTER_MS, limit: SWEEP_LIMIT });
  const kinds = Object.keys(ROOMS) as (keyof Unfinished)[];
  await Promise.all(
    kinds.flatMap((kind) => {
      const rooms = env[ROOMS[kind]];
      return found[kind].map((id) => rooms.get(rooms.idFromName(id)).poke());
    }),
  );
  return found;
}
