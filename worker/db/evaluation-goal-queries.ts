/**
 * A goal evaluation's battles in D1: one row per battle (the pair on an item and sample, its battle's id and
 * outcome), upserted as the evaluation room writes them, and read back for its report.
 */
import { asc, eq } from "drizzle-orm";
import type { Db } from "./queries";
import * as schema from "./schema";
import { insertRows, type Write } from "./statements";

export type EvaluationGoalRow = typeof schema.evaluationGoals.$inferInsert;
export type StoredEvaluationGoal = typeof schema.evaluationGoals.$inferSelect;

export const goalRowWrites = (d1: D1Database, row: EvaluationGoalRow): Write[] =>
  insertRows(d1, schema.evaluationGoals, [row], {
    update: ["evaluationId", "itemId", "sample", "first", "second"],
  });

/** The evaluation's goal battles, by item, sample and pair. */
export async function evaluationGoals(db: Db, id: string): Promise<StoredEvaluationGoal[]> {
  const g = schema.evaluationGoals;
  return db
    .select()
    .from(g)
    .where(eq(g.evaluationId, id))
    .orderBy(asc(g.itemId), asc(g.sample), asc(g.first), asc(g.second));
}
