/**
 * What the leaderboard reads: the counters the triggers keep (never the votes themselves), and
 * online Elo, replayed from a stored snapshot so each read only applies the battles that are new.
 */
import { and, desc, eq, gt, inArray, lt, ne, or, sql } from "drizzle-orm";
import { archivedBattles } from "./archive";
import { updateElo } from "../rating/elo";
import { updateTrueSkill, type TrueSkillRating } from "../rating/trueskill";
import type { Winner } from "../rating/battle-outcome";
import type { BattleSource } from "../shared/arena";
import type { Db } from "./queries";
import * as schema from "./schema";
import type { OnlineRating } from "./schema";

export interface Slice {
  sources: BattleSource[];
  /** '' = every category */
  category: string;
  includeFlagged: boolean;
}

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
  const inSlice = and(inArray(p.source, slice.sources), eq(p.category, slice.category));
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

const PAGE = 20_000;

interface BattleRow {
  rowid: number;
  modelA: string;
  modelB: string;
  winner: Winner;
  tstamp: number;
}

export interface OnlineRatings {
  elo: Map<string, number>;
  trueskill: Map<string, TrueSkillRating>;
}

/** Past every this many battle rowids a replay leaves a checkpoint, so a withdrawal replays at most about this many battles. */
export const CHECKPOINT_ROWIDS = 10_000;

/**
 * Online Elo and TrueSkill over the slice's battles in (tstamp, insertion) order. The newest stored snapshot of
 * the stream still valid is the starting point: its newest state, or a checkpoint left every CHECKPOINT_ROWIDS
 * battles. Each covers exactly the stream's battles with rowid <= uptoRowid, and deleting a battle removes the
 * snapshots that had counted it (migration 0007's trigger), so a withdrawal replays from the checkpoint before
 * the withdrawn battle. A battle newer in rowid but older in time than the snapshot (an import out of order)
 * means the order changed under it: the whole stream is replayed.
 */
export async function readOnlineRatings(db: Db, archive: R2Bucket | undefined, slice: Slice): Promise<OnlineRatings> {
  // `sources|flagged|category` (encoded, so it holds no "|") for the newest state, then `|n` for a checkpoint:
  // no other stream's key starts with this one's followed by "|". The trigger reads the sources before the first "|".
  const stream = `${[...slice.sources].sort().join("+")}|${slice.includeFlagged ? 1 : 0}|${encodeURIComponent(slice.category)}`;
  const s = schema.eloSnapshots;
  let [snap = null] = await db
    .select()
    .from(s)
    .where(or(eq(s.stream, stream), and(gt(s.stream, `${stream}|`), lt(s.stream, `${stream}}`))))
    .orderBy(desc(s.uptoRowid))
    .limit(1);

  let fresh = await battlesAfter(db, archive, slice, snap?.uptoRowid ?? 0);
  if (snap && fresh.some((b) => b.tstamp < snap!.lastTstamp)) {
    snap = null;
    fresh = await battlesAfter(db, archive, slice, 0);
  }
  const ratings = fromStored(snap?.ratings ?? {});
  if (!fresh.length) return ratings;

  // battlesAfter reads in rowid order; a prefix of the time order is a checkpoint only if no later battle has a smaller rowid.
  const sorted = isInTimeOrder(fresh) ? fresh : [...fresh].sort((x, y) => x.tstamp - y.tstamp || x.rowid - y.rowid);
  const reordered = sorted !== fresh;
  const laterMin = reordered ? suffixMinRowid(sorted) : null;
  const rows: (typeof s.$inferInsert)[] = [];
  let bucket = Math.floor((snap?.uptoRowid ?? 0) / CHECKPOINT_ROWIDS);
  let upto = snap?.uptoRowid ?? 0;
  for (let i = 0; i < sorted.length; i++) {
    const b = sorted[i];
    updateElo(ratings.elo, b.modelA, b.modelB, b.winner);
    updateTrueSkill(ratings.trueskill, b.modelA, b.modelB, b.winner);
    if (b.rowid > upto) upto = b.rowid;
    const at = Math.floor(upto / CHECKPOINT_ROWIDS);
    if (at > bucket && i < sorted.length - 1 && (!laterMin || laterMin[i + 1] > upto)) {
      bucket = at;
      rows.push({
        stream: `${stream}|${at}`,
        epoch: 0,
        uptoRowid: upto,
        lastTstamp: b.tstamp,
        ratings: toStored(ratings),
      });
    }
  }
  const last = sorted.at(-1)!;
  rows.push({ stream, epoch: 0, uptoRowid: upto, lastTstamp: last.tstamp, ratings: toStored(ratings) });
  const writes = rows.map((row) => db.insert(s).values(row).onConflictDoUpdate({ target: s.stream, set: row }));
  await db.batch(writes as [(typeof writes)[number], ...typeof writes]);
  return ratings;
}

function isInTimeOrder(battles: BattleRow[]): boolean {
  for (let i = 1; i < battles.length; i++) if (battles[i].tstamp < battles[i - 1].tstamp) return false;
  return true;
}

/** The smallest rowid at each position and after it. */
function suffixMinRowid(battles: BattleRow[]): Float64Array {
  const out = new Float64Array(battles.length + 1).fill(Infinity);
  for (let i = battles.length - 1; i >= 0; i--) out[i] = Math.min(out[i + 1], battles[i].rowid);
  return out;
}

function fromStored(stored: Record<string, OnlineRating>): OnlineRatings {
  const entries = Object.entries(stored);
  return {
    elo: new Map(entries.map(([m, r]) => [m, r.elo])),
    trueskill: new Map(entries.map(([m, r]) => [m, { mu: r.mu, sigma: r.sigma }])),
  };
}

function toStored(ratings: OnlineRatings): Record<string, OnlineRating> {
  return Object.fromEntries([...ratings.elo].map(([m, elo]) => [m, { elo, ...ratings.trueskill.get(m)! }]));
}

/** Battles of the slice inserted after `rowid`, in insertion order: the archived ones, then D1's a page at a time. */
async function battlesAfter(db: Db, archive: R2Bucket | undefined, slice: Slice, rowid: number): Promise<BattleRow[]> {
  const out: BattleRow[] = [];
  for await (const page of archivedBattles(db.$client, archive, slice, rowid))
    for (const b of page)
      out.push({ rowid: b.rowid, modelA: b.model_a, modelB: b.model_b, winner: b.winner, tstamp: b.tstamp });
  // The unary + keeps SQLite on the rowid range scan instead of the source index plus a sort.
  const where = [`+source IN (${slice.sources.map(() => "?").join(", ")})`];
  const params: unknown[] = [...slice.sources];
  if (slice.category !== "") {
    where.push("+category = ?");
    params.push(slice.category);
  }
  if (!slice.includeFlagged) where.push("+flagged = 0");
  // Rows as arrays (raw), not objects: a cold replay reads every battle, and naming each column of each row costs.
  const page = db.$client.prepare(
    `SELECT rowid, model_a, model_b, winner, tstamp FROM battles WHERE rowid > ? AND ${where.join(" AND ")} ORDER BY rowid LIMIT ${PAGE}`,
  );
  for (let after = rowid; ; ) {
    const rows = await page.bind(after, ...params).raw<[number, string, string, Winner, number]>();
    for (const [id, modelA, modelB, winner, tstamp] of rows) out.push({ rowid: id, modelA, modelB, winner, tstamp });
    if (rows.length < PAGE) return out;
    after = rows[rows.length - 1][0];
  }
}
