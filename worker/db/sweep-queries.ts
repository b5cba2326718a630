/** Runs, comparisons, evaluations and goal battles D1 still shows as under way well after they started: the cron sweep nudges their rooms. */
import { and, gt, inArray, lt } from "drizzle-orm";
import * as schema from "./schema";
import type { Db } from "./queries";

const RUN_UNDER_WAY = ["pending", "answering", "reviewing", "synthesizing"] as const;
const COMPARISON_UNDER_WAY = ["pending", "answering"] as const;
/** a paused evaluation waits for a person, not for its alarm */
const EVALUATION_UNDER_WAY = ["queued", "running"] as const;
const GOAL_BATTLE_UNDER_WAY = ["queued", "running"] as const;

export interface Window {
  /** started after this (ms since the epoch): the created_at index bounds the scan */
  from: number;
  /** and before this: anything younger is still well within its deadline */
  to: number;
  limit: number;
}

export async function unfinishedIn(
  db: Db,
  w: Window,
): Promise<{ runs: string[]; comparisons: string[]; evaluations: string[]; goalBattles: string[] }> {
  const [runs, comparisons, evaluations, goalBattles] = await db.batch([
    db
      .select({ id: schema.runs.id })
      .from(schema.runs)
      .where(
        and(
          gt(schema.runs.createdAt, w.from),
          lt(schema.runs.createdAt, w.to),
          inArray(schema.runs.status, [...RUN_UNDER_WAY]),
        ),
      )
      .limit(w.limit),
    db
      .select({ id: schema.comparisons.id })
      .from(schema.comparisons)
      .where(
        and(
          gt(schema.comparisons.createdAt, w.from),
          lt(schema.comparisons.createdAt, w.to),
          inArray(schema.comparisons.status, [...COMPARISON_UNDER_WAY]),
        ),
      )
      .limit(w.limit),
    db
      .select({ id: schema.evaluations.id })
      .from(schema.evaluations)
      .where(
        and(
          gt(schema.evaluations.createdAt, w.from),
          lt(schema.evaluations.createdAt, w.to),
          inArray(schema.evaluations.status, [...EVALUATION_UNDER_WAY]),
        ),
      )
      .limit(w.limit),
    db
      .select({ id: schema.goalBattles.id })
      .from(schema.goalBattles)
      .where(
        and(
          gt(schema.goalBattles.createdAt, w.from),
          lt(schema.goalBattles.createdAt, w.to),
          inArray(schema.goalBattles.state, [...GOAL_BATTLE_UNDER_WAY]),
        ),
      )
      .limit(w.limit),
  ]);
  return {
    runs: runs.map((r) => r.id),
    comparisons: comparisons.map((c) => c.id),
    evaluations: evaluations.map((e) => e.id),
    goalBattles: goalBattles.map((g) => g.id),
  };
}
