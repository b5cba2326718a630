/** What the leaderboard reads: the counters the triggers keep, never the votes themselves. */
import { and, eq, inArray, ne, sql } from "drizzle-orm";
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
  const [counted, drops] = await Promise.all([
    slice.label ? readLabelPairs(db, slice, slice.label) : readCountedPairs(db, slice),
    slice.dedup === undefined ? null : readDedupDrops(db, slice, slice.dedup),
  ]);
  if (!drops) return { ...counted, dedup: null };
  return {
    pairs: withoutDrops(counted.pairs, drops.pairs),
    excludedFlagged: counted.excludedFlagged,
    dedup: { cap: drops.cap, removed: drops.removed },
  };
}

async function readCountedPairs(db: Db, slice: Slice): Promise<{ pairs: PairTotals[]; excludedFlagged: number }> {
  const inSlice = and(
    inArray(p.source, slice.sources),
    eq(p.category, slice.category),
    slice.withoutDemo
      ? sql`substr(${p.modelLo}, 1, 5) <> 'demo:' AND substr(${p.modelHi}, 1, 5) <> 'demo:'`
      : undefined,
  );
  const [pairs, flagged] = await db.batch([
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
  ]);
  const live = pairs.filter((r) => r.loWins + r.hiWins + r.ties + r.bothBad > 0);
  return { pairs: live, excludedFlagged: slice.includeFlagged ? 0 : Number(flagged[0]?.n ?? 0) };
}

const lp = schema.labelPairCounts;

/** readCountedPairs for a label's view: the same counters, kept per label (migration 0015's triggers). */
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

export async function readCategories(db: Db): Promise<string[]> {
  const rows = await db.all<{ category: string }>(
    sql`SELECT category FROM pair_counts WHERE category <> '' UNION SELECT category FROM model_appearances WHERE category <> '' ORDER BY 1`,
  );
  return rows.map((r) => r.category);
}
