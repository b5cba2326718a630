/** The D1 side of a council run: every write is an upsert keyed by a deterministic id, so replaying a step writes nothing twice. */
import { and, desc, eq, sql } from "drizzle-orm";
import { drizzle, type DrizzleD1Database } from "drizzle-orm/d1";
import type { AggregationView, RunStatus } from "../shared/run";
import type { AnswerRecord, ReviewSetRecord, RunRecord, SynthesisRecord } from "./records";
import * as schema from "./schema";
import { insertRows, type OnConflict, type Write } from "./statements";
import { cached } from "../shared/memo";
import { type Cursor, olderThan, pageOf } from "./paging";

export type Db = DrizzleD1Database<typeof schema> & { $client: D1Database };

/** One drizzle wrapper per D1 binding (per isolate or room), not one per call: building it walks the whole schema. */
const wrappers = new WeakMap<D1Database, Db>();

export function openDb(d1: D1Database): Db {
  return cached(wrappers, d1, () => drizzle(d1, { schema }));
}

/** A run record's row in `runs`. */
const runRow = (r: RunRecord) => ({
  id: r.id,
  createdAt: r.createdAt,
  updatedAt: r.createdAt,
  question: r.question,
  settings: { ...r.settings, models: r.models },
  status: r.status,
  error: r.error,
});

/**
 * The run's row, left alone when it is there already (its status is set by its own writes), and its answers'
 * rows, left alone too or written over as `answers` says. Writes are plain D1 statements (./statements): the
 * rooms build them on the thread that relays their events.
 */
function runRows(d1: D1Database, r: RunRecord, answers: OnConflict<typeof schema.answers>): Write[] {
  return [
    ...insertRows(d1, schema.runs, [runRow(r)], "ignore"),
    ...insertRows(
      d1,
      schema.answers,
      r.answers.map((a) => answerRow(r.id, a)),
      answers,
    ),
  ];
}

/** The run's row and its answers' rows, each left alone when it is there already. */
export const runInsertWrites = (d1: D1Database, r: RunRecord): Write[] => runRows(d1, r, "ignore");

/**
 * Everything the run's record says, written over whatever D1 holds: for a room that can't tell which of its
 * queued writes landed (a failed batch, or an instance that died with writes under way). Idempotent.
 */
export function wholeRunWrites(d1: D1Database, r: RunRecord, battles: JudgeBattle[]): Write[] {
  return [
    // The row if it is missing (its status is set last); the answers as the record has them.
    ...runRows(d1, r, { update: ["id"] }),
    ...evaluationClears(
      d1,
      r.id,
      r.reviewSets.map((set) => set.id),
    ),
    ...r.reviewSets.flatMap((s) => reviewSetWrites(d1, r.id, s)),
    ...(r.aggregation ? aggregationWrites(d1, r.id, r.aggregation, battles, r.status) : []),
    ...(r.synthesis ? [synthesisWrite(d1, r.id, r.synthesis)] : []),
    runStatusWrite(d1, r.id, r.status, r.error),
  ];
}

const ended = (status: string) => status === "done" || status === "failed";

/** An answer record is its row, less the run it belongs to and when it ended. */
function answerRow(runId: string, a: AnswerRecord) {
  return { ...a, runId, completedAt: ended(a.status) ? Date.now() : null };
}

const SET_RUN_STATUS = "UPDATE runs SET status = ?, error = ?, updated_at = ? WHERE id = ?";

export const runStatusWrite = (d1: D1Database, id: string, status: RunStatus, error: string | null): Write =>
  d1.prepare(SET_RUN_STATUS).bind(status, error, Date.now(), id);

export function answerWrite(d1: D1Database, runId: string, a: AnswerRecord): Write {
  return insertRows(d1, schema.answers, [answerRow(runId, a)], { update: ["id"] })[0];
}

/**
 * Deletes whatever an earlier evaluation of this run wrote: review sets, reviews, aggregation and judge battles.
 * The review sets in `keep` (the record's own, written again right after) stay: a deleted paid review set
 * leaves its cost in spend_entries, so deleting and writing it again would count it twice.
 */
export const evaluationClears = (d1: D1Database, runId: string, keep: string[] = []): Write[] => [
  ...[
    "DELETE FROM reviews WHERE run_id = ?1 AND review_set_id NOT IN (SELECT value FROM json_each(?2))",
    "DELETE FROM review_sets WHERE run_id = ?1 AND id NOT IN (SELECT value FROM json_each(?2))",
  ].map((text) => d1.prepare(text).bind(runId, JSON.stringify(keep))),
  ...["DELETE FROM aggregations WHERE run_id = ?", "DELETE FROM battles WHERE source = 'judge' AND run_id = ?"].map(
    (text) => d1.prepare(text).bind(runId),
  ),
];

/**
 * A review set and its reviews, over whatever an earlier write of them left. A review's id is its set's and
 * the label it judged, and a set judges the same labels for as long as its evaluation stands (a new one
 * clears them all first), so upserting the reviews leaves none behind.
 */
export function reviewSetWrites(d1: D1Database, runId: string, s: ReviewSetRecord): Write[] {
  const row = { ...s, runId, completedAt: ended(s.status) ? Date.now() : null };
  const reviews = s.reviews.map((v) => ({ ...v, runId, reviewSetId: s.id, reviewerModelId: s.reviewerModelId }));
  return [
    ...insertRows(d1, schema.reviewSets, [row], { update: ["id"] }),
    ...insertRows(d1, schema.reviews, reviews, { update: ["id"] }),
  ];
}

export interface JudgeBattle {
  id: string;
  modelA: string;
  modelB: string;
  winner: "model_a" | "model_b";
  reviewerModelId: string;
}

/** A run's judge battles, one statement however many: the rows travel as one JSON array (the import does the same). */
const INSERT_JUDGE_BATTLES = `INSERT INTO battles (id, source, model_a, model_b, winner, reviewer_model_id, judge, run_id, tstamp)
  SELECT value ->> 0, 'judge', value ->> 1, value ->> 2, value ->> 3, value ->> 4, value ->> 4, ?1, ?2 FROM json_each(?3) WHERE true
  ON CONFLICT DO NOTHING`;

/** The aggregation, the final status and the judge battles, for one transaction. */
export function aggregationWrites(
  d1: D1Database,
  runId: string,
  agg: AggregationView,
  battles: JudgeBattle[],
  status: RunStatus,
): Write[] {
  const now = Date.now();
  const row = {
    runId,
    finalRanking: agg.finalRanking,
    voteBreakdown: agg.voteBreakdown,
    methodVersion: agg.methodVersion,
    createdAt: now,
  };
  return [
    ...insertRows(d1, schema.aggregations, [row], { update: ["runId"] }),
    ...judgeBattleWrites(d1, runId, battles, now),
    d1.prepare(SET_RUN_STATUS).bind(status, null, now, runId),
  ];
}

/** A run's judge battles (each written once: a battle already there is left as it is). */
export function judgeBattleWrites(d1: D1Database, runId: string, battles: JudgeBattle[], now = Date.now()): Write[] {
  const rows = JSON.stringify(battles.map((b) => [b.id, b.modelA, b.modelB, b.winner, b.reviewerModelId]));
  return battles.length ? [d1.prepare(INSERT_JUDGE_BATTLES).bind(runId, now / 1000, rows)] : [];
}

export async function loadRunRecord(db: Db, id: string): Promise<RunRecord | null> {
  const run = await db.query.runs.findFirst({ where: eq(schema.runs.id, id) });
  if (!run) return null;
  const e = schema.spendEntries;
  const [answers, sets, reviews, agg, synthesis, earlier] = await db.batch([
    db.select().from(schema.answers).where(eq(schema.answers.runId, id)).orderBy(schema.answers.label),
    db.select().from(schema.reviewSets).where(eq(schema.reviewSets.runId, id)),
    db.select().from(schema.reviews).where(eq(schema.reviews.runId, id)),
    db.select().from(schema.aggregations).where(eq(schema.aggregations.runId, id)),
    db.select().from(schema.syntheses).where(eq(schema.syntheses.runId, id)),
    // Calls replaced by a retry or a new evaluation, kept by migrations/0010's triggers.
    db
      .select({
        n: sql<number>`count(*)`,
        tokensIn: sql<number | null>`sum(${e.tokensIn})`,
        tokensOut: sql<number | null>`sum(${e.tokensOut})`,
        costUsd: sql<number | null>`sum(${e.costUsd})`,
      })
      .from(e)
      .where(eq(e.itemId, id)),
  ]);
  const { models, ...settings } = run.settings;
  const labelOf = (answerId: string | null) => answers.find((a) => a.id === answerId)?.label ?? "";
  const listed = (modelId: string) => settings.reviewers?.indexOf(modelId) ?? -1;
  return {
    id: run.id,
    createdAt: run.createdAt,
    question: run.question,
    settings,
    models,
    status: run.status,
    error: run.error,
    answers: answers.map(({ runId: _run, completedAt: _at, ...a }) => ({ ...a, droppedParams: a.droppedParams ?? [] })),
    reviewSets: sets
      // Reviewers with an answer by its label, then the judge-only ones as the run listed them.
      .sort(
        (x, y) =>
          Number(x.reviewerAnswerId === null) - Number(y.reviewerAnswerId === null) ||
          labelOf(x.reviewerAnswerId).localeCompare(labelOf(y.reviewerAnswerId)) ||
          listed(x.reviewerModelId) - listed(y.reviewerModelId),
      )
      .map(({ runId: _run, completedAt: _at, ...set }) => ({
        ...set,
        reviews: reviews
          .filter((v) => v.reviewSetId === set.id)
          .sort((x, y) => labelOf(x.targetAnswerId).localeCompare(labelOf(y.targetAnswerId)))
          .map(({ id, targetAnswerId, scores, critique }) => ({ id, targetAnswerId, scores, critique })),
      })),
    aggregation: agg[0]
      ? { finalRanking: agg[0].finalRanking, voteBreakdown: agg[0].voteBreakdown, methodVersion: agg[0].methodVersion }
      : null,
    synthesis: synthesis[0] ? (({ runId: _run, completedAt: _at, ...rest }) => rest)(synthesis[0]) : null,
    // Money set aside lives in the room; a run read back from D1 has none open.
    holds: [],
    ...(earlier[0]?.n
      ? { earlier: { tokensIn: earlier[0].tokensIn, tokensOut: earlier[0].tokensOut, costUsd: earlier[0].costUsd } }
      : {}),
  };
}

/** Newest first; the cursor is `createdAt:id` of the last item of the previous page. */
export async function listRuns(db: Db, limit: number, cursor?: Cursor) {
  const rows = await db
    .select({
      id: schema.runs.id,
      createdAt: schema.runs.createdAt,
      question: schema.runs.question,
      status: schema.runs.status,
      settings: schema.runs.settings,
      finalRanking: schema.aggregations.finalRanking,
      // Everything the run paid for: calls replaced by a retry or a new evaluation are in spend_entries.
      costUsd: sql<
        number | null
      >`(SELECT sum(c) FROM (SELECT cost_usd AS c FROM answers WHERE run_id = ${schema.runs.id}
        UNION ALL SELECT cost_usd FROM review_sets WHERE run_id = ${schema.runs.id}
        UNION ALL SELECT cost_usd FROM syntheses WHERE run_id = ${schema.runs.id}
        UNION ALL SELECT cost_usd FROM spend_entries WHERE item_id = ${schema.runs.id}))`,
      unknownCostModels: sql<number>`(SELECT count(DISTINCT m) FROM (
        SELECT model_id AS m FROM answers WHERE run_id = ${schema.runs.id} AND cost_usd IS NULL AND coalesce(tokens_in, 0) + coalesce(tokens_out, 0) > 0
        UNION SELECT reviewer_model_id FROM review_sets WHERE run_id = ${schema.runs.id} AND cost_usd IS NULL AND coalesce(tokens_in, 0) + coalesce(tokens_out, 0) > 0))`,
    })
    .from(schema.runs)
    .leftJoin(schema.aggregations, eq(schema.aggregations.runId, schema.runs.id))
    .where(olderThan(schema.runs, cursor))
    .orderBy(desc(schema.runs.createdAt), desc(schema.runs.id))
    .limit(limit + 1);
  return pageOf(rows, limit);
}

export function synthesisWrite(d1: D1Database, runId: string, s: SynthesisRecord): Write {
  return insertRows(d1, schema.syntheses, [{ ...s, runId, completedAt: ended(s.status) ? Date.now() : null }], {
    update: ["runId"],
  })[0];
}

export async function deleteRun(db: Db, id: string): Promise<boolean> {
  const [, , , , , , deleted] = await db.batch([
    db.delete(schema.syntheses).where(eq(schema.syntheses.runId, id)),
    db.delete(schema.reviews).where(eq(schema.reviews.runId, id)),
    db.delete(schema.reviewSets).where(eq(schema.reviewSets.runId, id)),
    db.delete(schema.aggregations).where(eq(schema.aggregations.runId, id)),
    db.delete(schema.answers).where(eq(schema.answers.runId, id)),
    db.delete(schema.battles).where(and(eq(schema.battles.source, "judge"), eq(schema.battles.runId, id))),
    db.delete(schema.runs).where(eq(schema.runs.id, id)).returning({ id: schema.runs.id }),
  ]);
  return deleted.length > 0;
}

export async function runStatusOf(db: Db, id: string): Promise<RunStatus | null> {
  const row = await db.select({ status: schema.runs.status }).from(schema.runs).where(eq(schema.runs.id, id)).get();
  return row?.status ?? null;
}

export async function dbHealthy(db: Db): Promise<boolean> {
  try {
    await db.run(sql`select 1`);
    return true;
  } catch {
    return false;
  }
}
