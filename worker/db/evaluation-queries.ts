/**
 * An evaluation's rows in D1: the evaluation itself, each answer, each judgment (one per order shown) or council
 * review (one per reviewer and item), and its `eval` battles. Every write is keyed by the evaluation's own ids, so writing a row again repeats nothing:
 * a room that restarts writes what it may not have written yet, and a battle already there is left as it is.
 */
import { asc, desc, eq, sql } from "drizzle-orm";
import type { Winner } from "../rating/battle-outcome";
import type { EvaluationStatus } from "../shared/constants";
import { type Cursor, olderThan, pageOf } from "./paging";
import type { Db } from "./queries";
import * as schema from "./schema";
import { insertRows, type Write } from "./statements";

export type EvaluationAnswerRow = typeof schema.evaluationAnswers.$inferInsert;
export type EvaluationJudgmentRow = typeof schema.evaluationJudgments.$inferInsert;
export type EvaluationReviewRow = typeof schema.evaluationReviews.$inferInsert;

/** One `eval` battle: its id is made from the judgment's, so a battle is never written twice. */
export interface EvalBattle {
  id: string;
  modelA: string;
  modelB: string;
  winner: Winner;
  /** the judge whose verdict it is; null: a goal battle decided by its goal rule */
  judge: string | null;
  itemId: string;
  category: string | null;
}

export const insertEvaluationWrites = (d1: D1Database, row: typeof schema.evaluations.$inferInsert): Write[] =>
  insertRows(d1, schema.evaluations, [row], "ignore");

export const evaluationStatusWrite = (
  d1: D1Database,
  id: string,
  status: EvaluationStatus,
  error: string | null,
  spentUsd: number,
  finished: boolean,
  now = Date.now(),
): Write =>
  d1
    .prepare(
      "UPDATE evaluations SET status = ?1, error = ?2, spent_usd = ?3, updated_at = ?4, finished_at = CASE WHEN ?5 THEN ?4 ELSE NULL END WHERE id = ?6",
    )
    .bind(status, error, spentUsd, now, finished ? 1 : 0, id);

export const answerRowWrites = (d1: D1Database, row: EvaluationAnswerRow): Write[] =>
  insertRows(d1, schema.evaluationAnswers, [row], { update: ["evaluationId", "itemId", "contestant", "sample"] });

export const judgmentRowWrites = (d1: D1Database, row: EvaluationJudgmentRow): Write[] =>
  insertRows(d1, schema.evaluationJudgments, [row], {
    update: ["evaluationId", "itemId", "sample", "judge", "first", "second"],
  });

export const reviewRowWrites = (d1: D1Database, row: EvaluationReviewRow): Write[] =>
  insertRows(d1, schema.evaluationReviews, [row], { update: ["evaluationId", "itemId", "sample", "reviewer"] });

const INSERT_EVAL_BATTLES = `INSERT INTO battles (id, source, model_a, model_b, winner, judge, question_id, category, evaluation_id, tstamp)
  SELECT value ->> 0, 'eval', value ->> 1, value ->> 2, value ->> 3, value ->> 4, value ->> 5, value ->> 6, ?1, ?2 FROM json_each(?3) WHERE true
  ON CONFLICT DO NOTHING`;

export function evalBattleWrites(
  d1: D1Database,
  evaluationId: string,
  battles: EvalBattle[],
  now = Date.now(),
): Write[] {
  if (!battles.length) return [];
  const rows = battles.map((b) => [b.id, b.modelA, b.modelB, b.winner, b.judge, b.itemId, b.category]);
  return [d1.prepare(INSERT_EVAL_BATTLES).bind(evaluationId, now / 1000, JSON.stringify(rows))];
}

export async function evaluationExists(db: Db, id: string): Promise<boolean> {
  const row = await db
    .select({ id: schema.evaluations.id })
    .from(schema.evaluations)
    .where(eq(schema.evaluations.id, id))
    .get();
  return row !== undefined;
}

/** Evaluations newest first, with their prompt set's name. */
export async function listEvaluations(db: Db, limit: number, cursor?: Cursor) {
  const e = schema.evaluations;
  const rows = await db
    .select({
      id: e.id,
      createdAt: e.createdAt,
      name: e.name,
      promptSetId: e.promptSetId,
      promptSetName: schema.promptSets.name,
      method: e.method,
      contestants: e.contestants,
      baseline: e.baseline,
      status: e.status,
      estimateUsd: e.estimateUsd,
      spentUsd: e.spentUsd,
    })
    .from(e)
    .leftJoin(schema.promptSets, eq(schema.promptSets.id, e.promptSetId))
    .where(olderThan(e, cursor))
    .orderBy(desc(e.createdAt), desc(e.id))
    .limit(limit + 1);
  return pageOf(rows, limit);
}

/** Battles of one outcome between two contestants of an evaluation, as its `eval` battles count them. */
export interface EvalOutcomeCount {
  evaluationId: string;
  modelA: string;
  modelB: string;
  winner: Winner;
  battles: number;
}

/**
 * The `eval` battles of these evaluations, counted per evaluation, pair (as shown) and outcome: one read for a
 * page of the list, whose leaders come from these counts (few rows each, whatever the number of items).
 */
export async function evalOutcomeCounts(db: Db, evaluationIds: readonly string[]): Promise<EvalOutcomeCount[]> {
  if (evaluationIds.length === 0) return [];
  const { results } = await db.$client
    .prepare(
      `SELECT evaluation_id AS evaluationId, model_a AS modelA, model_b AS modelB, winner, count(*) AS battles
       FROM battles WHERE evaluation_id IN (SELECT value FROM json_each(?1)) AND source = 'eval'
       GROUP BY evaluation_id, model_a, model_b, winner`,
    )
    .bind(JSON.stringify(evaluationIds))
    .all<EvalOutcomeCount>();
  return results;
}

/** A prompt set's name and item count, or null when there is no such set. */
export async function promptSetSummary(db: Db, id: string): Promise<{ name: string; items: number } | null> {
  const s = schema.promptSets;
  return (await db.select({ name: s.name, items: s.items }).from(s).where(eq(s.id, id)).get()) ?? null;
}

export async function evaluationAnswers(db: Db, id: string) {
  const a = schema.evaluationAnswers;
  return db.select().from(a).where(eq(a.evaluationId, id)).orderBy(asc(a.itemId), asc(a.contestant), asc(a.sample));
}

export async function evaluationJudgments(db: Db, id: string) {
  const j = schema.evaluationJudgments;
  return db
    .select()
    .from(j)
    .where(eq(j.evaluationId, id))
    .orderBy(asc(j.itemId), asc(j.sample), asc(j.judge), asc(j.first), asc(j.second));
}

/** A council evaluation's reviews, one per reviewer, item and sample. */
export async function evaluationReviews(db: Db, id: string) {
  const r = schema.evaluationReviews;
  return db.select().from(r).where(eq(r.evaluationId, id)).orderBy(asc(r.itemId), asc(r.sample), asc(r.reviewer));
}

/** How many `eval` battles the evaluation wrote (its judgments counted arena-hard-auto's way). */
export async function evalBattleCount(db: Db, id: string): Promise<number> {
  const row = await db
    .select({ n: sql<number>`count(*)` })
    .from(schema.battles)
    .where(eq(schema.battles.evaluationId, id))
    .get();
  return row?.n ?? 0;
}
