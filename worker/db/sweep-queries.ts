/**
 * What D1 still shows as under way well after it started — runs, comparisons, evaluations, goal battles and chat
 * threads with a reply being written: the cron sweep nudges their rooms.
 */
import { and, eq, gt, inArray, lt } from "drizzle-orm";
import type { AnySQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import * as schema from "./schema";
import type { Db } from "./queries";

/** a paused evaluation waits for a person, not for its alarm */
const EVALUATION_UNDER_WAY = ["queued", "running"] as const;

export interface Window {
  /** started after this (ms since the epoch): each table's time index bounds the scan */
  from: number;
  /** and before this: anything younger is still well within its deadline */
  to: number;
  limit: number;
}

/** The ids found, by kind of room. */
export interface Unfinished {
  runs: string[];
  comparisons: string[];
  evaluations: string[];
  goalBattles: string[];
  threads: string[];
}

/** One table's rows started within the window whose state column still says under way. */
function startedUnderWay(
  db: Db,
  table: SQLiteTable & { id: AnySQLiteColumn<{ data: string; notNull: true }>; createdAt: AnySQLiteColumn },
  state: AnySQLiteColumn,
  underWay: readonly string[],
  w: Window,
) {
  return db
    .select({ id: table.id })
    .from(table)
    .where(and(gt(table.createdAt, w.from), lt(table.createdAt, w.to), inArray(state, [...underWay])))
    .limit(w.limit);
}

/**
 * Threads with a reply still being written. A thread's `updated_at` moves with every message it is sent, so a reply
 * stuck since its start leaves it there: that index bounds the scan as `created_at` does for the others. A dual
 * reply waiting for its vote waits for a person, not for an alarm.
 */
function threadsAnswering(db: Db, w: Window) {
  const { threads, threadMessages } = schema;
  return db
    .selectDistinct({ id: threads.id })
    .from(threads)
    .innerJoin(threadMessages, eq(threadMessages.threadId, threads.id))
    .where(and(gt(threads.updatedAt, w.from), lt(threads.updatedAt, w.to), eq(threadMessages.status, "streaming")))
    .limit(w.limit);
}

export async function unfinishedIn(db: Db, w: Window): Promise<Unfinished> {
  const { runs, comparisons, evaluations, goalBattles } = schema;
  const found = await db.batch([
    startedUnderWay(db, runs, runs.status, ["pending", "answering", "reviewing", "synthesizing"], w),
    startedUnderWay(db, comparisons, comparisons.status, ["pending", "answering"], w),
    startedUnderWay(db, evaluations, evaluations.status, EVALUATION_UNDER_WAY, w),
    startedUnderWay(db, goalBattles, goalBattles.state, ["queued", "running"], w),
    threadsAnswering(db, w),
  ]);
  const [r, c, e, g, t] = found.map((rows) => rows.map((row) => row.id));
  return { runs: r, comparisons: c, evaluations: e, goalBattles: g, threads: t };
}
