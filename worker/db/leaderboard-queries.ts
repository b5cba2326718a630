/**
 * What the leaderboard reads: the counters the triggers keep (never the votes themselves), and
 * online Elo, replayed from a stored snapshot so each read only applies the battles that are new.
 */
import { and, eq, inArray, ne, sql, sum } from "drizzle-orm";
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

/** Comparisons per model in a category (seed 000's appearances), whatever their votes. */
export async function readAppearances(db: Db, category: string): Promise<Map<string, number>> {
  const rows = await db
    .select({ modelId: schema.modelAppearances.modelId, n: schema.modelAppearances.appearances })
    .from(schema.modelAppearances)
    .where(and(eq(schema.modelAppearances.category, category), ne(schema.modelAppearances.appearances, 0)));
  return new Map(rows.map((r) => [r.modelId, r.n]));
}

/** Changes with every battle or comparison added and every battle deleted (each an O(1) lookup). */
export async function dataVersion(db: Db): Promise<string> {
  const [row] = await db.all<{ b: number | null; e: number | null; c: number | null }>(
    sql`SELECT (SELECT max(rowid) FROM battles) AS b, (SELECT sum(epoch) FROM battle_epochs) AS e, (SELECT max(rowid) FROM comparisons) AS c`,
  );
  return `${row?.b ?? 0}:${row?.e ?? 0}:${row?.c ?? 0}`;
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

/**
 * Online Elo and TrueSkill over the slice's battles in (tstamp, insertion) order. A stored snapshot is
 * reused while no battle of these sources was deleted since and every newer battle comes after it in
 * time; otherwise the whole stream is replayed once and stored again.
 */
export async function readOnlineRatings(db: Db, slice: Slice): Promise<OnlineRatings> {
  const stream = `${[...slice.sources].sort().join("+")}|${slice.category}|${slice.includeFlagged ? 1 : 0}`;
  const [epochRows, snapshots] = await db.batch([
    db.select({ epoch: sum(schema.battleEpochs.epoch) }).from(schema.battleEpochs).where(inArray(schema.battleEpochs.source, slice.sources)),
    db.select().from(schema.eloSnapshots).where(eq(schema.eloSnapshots.stream, stream)),
  ]);
  const epoch = Number(epochRows[0]?.epoch ?? 0);
  const snap = snapshots[0]?.epoch === epoch ? snapshots[0] : null;

  let fresh = await battlesAfter(db, slice, snap?.uptoRowid ?? 0);
  let ratings = fromStored(snap?.ratings ?? {});
  if (snap && fresh.length && fresh.some((b) => b.tstamp < snap.lastTstamp)) {
    // A battle older than the snapshot arrived (an import out of order): replay everything.
    ratings = fromStored({});
    fresh = await battlesAfter(db, slice, 0);
  }
  if (!fresh.length && snap) return ratings;

  fresh.sort((x, y) => x.tstamp - y.tstamp || x.rowid - y.rowid);
  for (const b of fresh) {
    updateElo(ratings.elo, b.modelA, b.modelB, b.winner);
    updateTrueSkill(ratings.trueskill, b.modelA, b.modelB, b.winner);
  }
  const last = fresh.at(-1);
  const row = {
    stream,
    epoch,
    uptoRowid: Math.max(snap?.uptoRowid ?? 0, ...(fresh.length ? [fresh.reduce((m, b) => Math.max(m, b.rowid), 0)] : [])),
    lastTstamp: last ? last.tstamp : (snap?.lastTstamp ?? 0),
    ratings: toStored(ratings),
  };
  await db.insert(schema.eloSnapshots).values(row).onConflictDoUpdate({ target: schema.eloSnapshots.stream, set: row });
  return ratings;
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

/** Battles of the slice inserted after `rowid`, a page at a time in insertion order. */
async function battlesAfter(db: Db, slice: Slice, rowid: number): Promise<BattleRow[]> {
  const out: BattleRow[] = [];
  const sources = sql.join(
    slice.sources.map((s) => sql`${s}`),
    sql`, `,
  );
  // The unary + keeps SQLite on the rowid range scan instead of the source index plus a sort.
  const category = slice.category === "" ? sql`` : sql` AND +category = ${slice.category}`;
  const flagged = slice.includeFlagged ? sql`` : sql` AND +flagged = 0`;
  for (let after = rowid; ; ) {
    const page = await db.all<BattleRow>(
      sql`SELECT rowid, model_a AS modelA, model_b AS modelB, winner, tstamp FROM battles
          WHERE rowid > ${after} AND +source IN (${sources})${category}${flagged} ORDER BY rowid LIMIT ${PAGE}`,
    );
    out.push(...page);
    if (page.length < PAGE) return out;
    after = page[page.length - 1].rowid;
  }
}
