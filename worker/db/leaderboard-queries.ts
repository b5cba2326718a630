/** What the leaderboard reads: the counters the triggers keep, never the votes themselves. */
import { and, eq, inArray, ne, sql } from "drizzle-orm";
import type { BattleSource } from "../shared/arena";
import type { Db } from "./queries";
import * as schema from "./schema";

export interface Slice {
  sources: BattleSource[];
  /** '' = every category */
  category: string;
  includeFlagged: boolean;
  /** leave out every battle a demo model (`demo:…`) fought; absent keeps them, as views always did */
  withoutDemo?: boolean;
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

/** Outcome counts per pair of models in the slice, and how many flagged battles it leaves out. */
export async function readPairCounts(db: Db, slice: Slice): Promise<{ pairs: PairTotals[]; excludedFlagged: number }> {
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

/** Comparisons per model in a category (seed 000's appearances), whatever their votes; a blind one once it counts. */
export async function readAppearances(db: Db, category: string): Promise<Map<string, number>> {
  const rows = await db
    .select({ modelId: schema.modelAppearances.modelId, n: schema.modelAppearances.appearances })
    .from(schema.modelAppearances)
    .where(and(eq(schema.modelAppearances.category, category), ne(schema.modelAppearances.appearances, 0)));
  return new Map(rows.map((r) => [r.modelId, r.n]));
}

/**
 * Changes with every battle or comparison added, every battle deleted (each an O(1) lookup) and every blind
 * comparison let into the counts (the uncounted are few, counted on their own partial index).
 */
export async function dataVersion(db: Db): Promise<string> {
  // Every warm leaderboard read asks this first: straight to D1, no query builder.
  const [row] = await db.$client
    .prepare(
      "SELECT (SELECT max(rowid) FROM battles), (SELECT sum(epoch) FROM battle_epochs), (SELECT max(rowid) FROM comparisons), (SELECT count(*) FROM comparisons WHERE counted_at IS NULL)",
    )
    .raw<[number | null, number | null, number | null, number | null]>();
  return `${row?.[0] ?? 0}:${row?.[1] ?? 0}:${row?.[2] ?? 0}:${row?.[3] ?? 0}`;
}

export async function readCategories(db: Db): Promise<string[]> {
  const rows = await db.all<{ category: string }>(
    sql`SELECT category FROM pair_counts WHERE category <> '' UNION SELECT category FROM model_appearances WHERE category <> '' ORDER BY 1`,
  );
  return rows.map((r) => r.category);
}
