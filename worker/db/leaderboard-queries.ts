/** What the leaderboard reads: the counters the triggers keep, never the votes themselves. */
import { and, eq, inArray, ne, sql } from "drizzle-orm";
import type { Winner } from "../rating/battle-outcome";
import type { BattleSource } from "../shared/arena";
import type { Db } from "./queries";
import * as schema from "./schema";
import { type DedupRule, readDedupDrops, withoutDrops } from "./slice-battles";

export interface Slice {
  sources: BattleSource[];
  /** '' = every category */
  category: string;
  includeFlagged: boolean;
  /** leave out every battle a demo model (`demo:…`) fought; absent keeps them, as views always did */
  withoutDemo?: boolean;
  /** only the battles of prompts with this label (migration 0015); absent: every battle */
  label?: string;
  /** leave out the battles of heavily repeated prompts past the rule's cap (slice-battles.ts); absent: keep all */
  dedup?: DedupRule;
  /** only this evaluation's `eval` battles, read from the battles themselves (no counter keeps them apart) */
  evaluation?: string;
}

/** What the dedup rule left out of a slice. */
export interface DedupSummary {
  /** battles a heavily repeated prompt keeps */
  cap: number;
  removed: number;
}

/** A demo model's id, as the registry splits ids (`provider:name`). */
export const isDemoModel = (modelId: string) => modelId.startsWith("demo:");

export interface PairTotals {
  lo: string;
  hi: string;
  loWins: number;
  hiWins: number;
  ties: number;
  bothBad: number;
}

const p = schema.pairCounts;

export interface SlicePairs {
  pairs: PairTotals[];
  excludedFlagged: number;
  /** null when the slice asks for no dedup */
  dedup: DedupSummary | null;
}

/**
 * Outcome counts per pair of models in the slice, how many flagged battles it leaves out, and what its dedup
 * rule removed. The counters answer a slice by source, category and label; dedup needs a join (slice-battles.ts).
 */
export async function readPairCounts(db: Db, slice: Slice): Promise<SlicePairs> {
  if (slice.evaluation !== undefined)
    return { pairs: await readEvaluationPairs(db, slice, slice.evaluation), excludedFlagged: 0, dedup: null };
  const [counted, drops] = await Promise.all([
    slice.label ? readLabelPairs(db, slice, slice.label) : readPairCountsMarked(db, slice),
    slice.dedup === undefined ? null : readDedupDrops(db, slice, slice.dedup),
  ]);
  if (!drops) return { pairs: counted.pairs, excludedFlagged: counted.excludedFlagged, dedup: null };
  return {
    pairs: withoutDrops(counted.pairs, drops.pairs),
    excludedFlagged: counted.excludedFlagged,
    dedup: { cap: drops.cap, removed: drops.removed },
  };
}

/** The slice's pair-count rows, flagged or not; without a demo model's pairs when it leaves them out. */
function pairsOf(slice: Slice) {
  return and(
    inArray(p.source, slice.sources),
    eq(p.category, slice.category),
    slice.withoutDemo
      ? sql`substr(${p.modelLo}, 1, 5) <> 'demo:' AND substr(${p.modelHi}, 1, 5) <> 'demo:'`
      : undefined,
  );
}

/** Battles left out of the slice by their flags (a range of the flagged rows alone). */
export async function readExcludedFlagged(db: Db, slice: Slice): Promise<number> {
  if (slice.includeFlagged || slice.evaluation !== undefined) return 0;
  const [row] = await db
    .select({ n: sql<number>`coalesce(sum(${p.loWins} + ${p.hiWins} + ${p.ties} + ${p.bothBad}), 0)` })
    .from(p)
    .where(and(pairsOf(slice), eq(p.flagged, true)));
  return Number(row?.n ?? 0);
}

/** Where the battle log of a slice's sources stands: its last battle's rowid, and how many deletions it has seen. */
export interface BattleMark {
  rowid: number;
  epochs: number;
}

/** One row whatever the table holds: an aggregate without GROUP BY. */
function markQuery(db: Db, sources: BattleSource[]) {
  const e = schema.battleEpochs;
  return db
    .select({
      rowid: sql<number | null>`(SELECT max(rowid) FROM battles)`,
      epochs: sql<number | null>`sum(${e.epoch})`,
    })
    .from(e)
    .where(inArray(e.source, sources));
}

const markOf = (rows: { rowid: number | null; epochs: number | null }[]): BattleMark => ({
  rowid: rows[0]?.rowid ?? 0,
  epochs: rows[0]?.epochs ?? 0,
});

/**
 * The counters' pairs of a slice by source and category (its label and dedup aside: readPairCounts applies those),
 * and the mark of the battle log they reflect, read in the same transaction.
 */
export async function readPairCountsMarked(
  db: Db,
  slice: Slice,
): Promise<{ pairs: PairTotals[]; excludedFlagged: number; mark: BattleMark }> {
  const inSlice = pairsOf(slice);
  const [pairs, flagged, mark] = await db.batch([
    db
      .select({
        lo: p.modelLo,
        hi: p.modelHi,
        loWins: sql<number>`sum(${p.loWins})`,
        hiWins: sql<number>`sum(${p.hiWins})`,
        ties: sql<number>`sum(${p.ties})`,
        bothBad: sql<number>`sum(${p.bothBad})`,
      })
      .from(p)
      .where(slice.includeFlagged ? inSlice : and(inSlice, eq(p.flagged, false)))
      .groupBy(p.modelLo, p.modelHi),
    db
      .select({ n: sql<number>`coalesce(sum(${p.loWins} + ${p.hiWins} + ${p.ties} + ${p.bothBad}), 0)` })
      .from(p)
      .where(and(inSlice, eq(p.flagged, true))),
    markQuery(db, slice.sources),
  ]);
  const live = pairs.filter((r) => r.loWins + r.hiWins + r.ties + r.bothBad > 0);
  return {
    pairs: live,
    excludedFlagged: slice.includeFlagged ? 0 : Number(flagged[0]?.n ?? 0),
    mark: markOf(mark),
  };
}

export interface SliceBattle {
  rowid: number;
  modelA: string;
  modelB: string;
  winner: Winner;
}

/**
 * The slice's battles after `rowid`, oldest first, at most `limit` + 1 of them (so a caller can tell "more than
 * limit"), and the battle log's mark, read together. Battles never get a rowid below one already given
 * (migration 0008), so with the epochs unchanged these are every battle the counts gained since `rowid`.
 */
export async function readBattlesSince(
  db: Db,
  slice: Slice,
  rowid: number,
  limit: number,
): Promise<{ battles: SliceBattle[]; mark: BattleMark }> {
  const b = schema.battles;
  // The unary + keeps SQLite on the rowid range, which holds the few new battles, not on the source index.
  const where = [
    sql`rowid > ${rowid}`,
    sql`+${b.source} IN (${sql.join(
      slice.sources.map((s) => sql`${s}`),
      sql`, `,
    )})`,
  ];
  if (slice.category !== "") where.push(sql`+${b.category} = ${slice.category}`);
  if (!slice.includeFlagged) where.push(sql`+${b.flagged} = 0`);
  if (slice.withoutDemo) where.push(sql`substr(${b.modelA}, 1, 5) <> 'demo:' AND substr(${b.modelB}, 1, 5) <> 'demo:'`);
  const [battles, mark] = await db.batch([
    db
      .select({ rowid: sql<number>`rowid`, modelA: b.modelA, modelB: b.modelB, winner: b.winner })
      .from(b)
      .where(and(...where))
      .orderBy(sql`rowid`)
      .limit(limit + 1),
    markQuery(db, slice.sources),
  ]);
  return { battles, mark: markOf(mark) };
}

const lp = schema.labelPairCounts;

/** readPairCountsMarked for a label's view: the same counters, kept per label (migration 0015's triggers). */
async function readLabelPairs(
  db: Db,
  slice: Slice,
  label: string,
): Promise<{ pairs: PairTotals[]; excludedFlagged: number }> {
  const inSlice = and(
    eq(lp.label, label),
    inArray(lp.source, slice.sources),
    eq(lp.category, slice.category),
    slice.withoutDemo
      ? sql`substr(${lp.modelLo}, 1, 5) <> 'demo:' AND substr(${lp.modelHi}, 1, 5) <> 'demo:'`
      : undefined,
  );
  const [pairs, flagged] = await db.batch([
    db
      .select({
        lo: lp.modelLo,
        hi: lp.modelHi,
        loWins: sql<number>`sum(${lp.loWins})`,
        hiWins: sql<number>`sum(${lp.hiWins})`,
        ties: sql<number>`sum(${lp.ties})`,
        bothBad: sql<number>`sum(${lp.bothBad})`,
      })
      .from(lp)
      .where(slice.includeFlagged ? inSlice : and(inSlice, eq(lp.flagged, false)))
      .groupBy(lp.modelLo, lp.modelHi),
    db
      .select({ n: sql<number>`coalesce(sum(${lp.loWins} + ${lp.hiWins} + ${lp.ties} + ${lp.bothBad}), 0)` })
      .from(lp)
      .where(and(inSlice, eq(lp.flagged, true))),
  ]);
  const live = pairs.filter((r) => r.loWins + r.hiWins + r.ties + r.bothBad > 0);
  return { pairs: live, excludedFlagged: slice.includeFlagged ? 0 : Number(flagged[0]?.n ?? 0) };
}

/** Comparisons per model in a category (seed 000's appearances), whatever their votes; a blind one once it counts. */
export async function readAppearances(db: Db, category: string): Promise<Map<string, number>> {
  const rows = await db
    .select({ modelId: schema.modelAppearances.modelId, n: schema.modelAppearances.appearances })
    .from(schema.modelAppearances)
    .where(and(eq(schema.modelAppearances.category, category), ne(schema.modelAppearances.appearances, 0)));
  return new Map(rows.map((r) => [r.modelId, r.n]));
}

/**
 * Changes with every battle or comparison added, every battle deleted, every label or prompt added (each an O(1)
 * lookup) and every blind comparison let into the counts (the uncounted are few, counted on their own partial index).
 */
export async function dataVersion(db: Db): Promise<string> {
  // Every warm leaderboard read asks this first: straight to D1, no query builder.
  const [row] = await db.$client
    .prepare(
      "SELECT (SELECT max(rowid) FROM battles), (SELECT sum(epoch) FROM battle_epochs), (SELECT max(rowid) FROM comparisons), (SELECT count(*) FROM comparisons WHERE counted_at IS NULL), (SELECT max(rowid) FROM prompt_labels), (SELECT max(rowid) FROM prompts)",
    )
    .raw<[number | null, number | null, number | null, number | null, number | null, number | null]>();
  return row ? row.map((n) => n ?? 0).join(":") : "0:0:0:0:0:0";
}

/**
 * Every category with counts or appearances. pair_counts is keyed (source, category, …), so a plain DISTINCT
 * would read every pair row of every view; this steps from one (source, category) to the next with two index
 * seeks each, a skip-scan SQLite doesn't do by itself here.
 */
export async function readCategories(db: Db): Promise<string[]> {
  const after = (column: string) =>
    `coalesce((SELECT ${column} FROM pair_counts WHERE source = k.source AND category > k.category ORDER BY category LIMIT 1), (SELECT ${column} FROM pair_counts WHERE source > k.source ORDER BY source, category LIMIT 1))`;
  const rows = await db.all<{ category: string }>(
    sql.raw(`WITH RECURSIVE k(source, category) AS (
      SELECT * FROM (SELECT source, category FROM pair_counts ORDER BY source, category LIMIT 1)
      UNION ALL
      SELECT ${after("source")}, ${after("category")} FROM k WHERE k.source IS NOT NULL
    )
    SELECT category FROM k WHERE category <> '' UNION SELECT category FROM model_appearances WHERE category <> '' ORDER BY 1`),
  );
  return rows.map((r) => r.category);
}

/** One evaluation's battles per pair (its judges' battles are never flagged), in the slice's category. */
async function readEvaluationPairs(db: Db, slice: Slice, evaluationId: string): Promise<PairTotals[]> {
  const { results } = await db.$client
    .prepare(
      `SELECT min(model_a, model_b) AS lo, max(model_a, model_b) AS hi,
        sum(CASE WHEN (winner = 'model_a' AND model_a < model_b) OR (winner = 'model_b' AND model_b < model_a) THEN 1 ELSE 0 END) AS loWins,
        sum(CASE WHEN (winner = 'model_a' AND model_a > model_b) OR (winner = 'model_b' AND model_b > model_a) THEN 1 ELSE 0 END) AS hiWins,
        sum(CASE WHEN winner = 'tie' THEN 1 ELSE 0 END) AS ties,
        sum(CASE WHEN winner = 'tie (bothbad)' THEN 1 ELSE 0 END) AS bothBad
       FROM battles WHERE evaluation_id = ?1 AND source = 'eval' AND (?2 = '' OR category = ?2)
         AND (?3 = 0 OR (substr(model_a, 1, 5) <> 'demo:' AND substr(model_b, 1, 5) <> 'demo:'))
       GROUP BY lo, hi ORDER BY lo, hi`,
    )
    .bind(evaluationId, slice.category, slice.withoutDemo ? 1 : 0)
    .all<PairTotals>();
  return results;
}
