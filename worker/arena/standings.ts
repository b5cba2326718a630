/** Reads the counters for one leaderboard query and turns them into rows. */
import { dataVersion, readAppearances, readCategories, readOnlineRatings, readPairCounts, type PairTotals, type Slice } from "../db/leaderboard-queries";
import type { Db } from "../db/queries";
import type { BattleSource, LeaderboardRow } from "../shared/arena";
import type { LeaderboardQuery } from "../shared/requests";
import { buildLeaderboard, ORDER } from "./leaderboard";

export { ORDER };

export const SOURCES: Record<LeaderboardQuery["source"], BattleSource[]> = {
  human: ["human"],
  judge: ["judge"],
  import: ["import"],
  all: ["human", "judge", "import"],
};

function battlesPerModel(pairs: PairTotals[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const p of pairs) {
    const n = p.loWins + p.hiWins + p.ties + p.bothBad;
    out.set(p.lo, (out.get(p.lo) ?? 0) + n);
    out.set(p.hi, (out.get(p.hi) ?? 0) + n);
  }
  return out;
}

export interface Standings {
  rows: LeaderboardRow[];
  source: LeaderboardQuery["source"];
  category: string | null;
  includeFlagged: boolean;
  order: LeaderboardQuery["order"];
  minAppearances: number;
  rounds: number;
  anchor: { modelId: string; rating: number } | null;
  totalBattles: number;
  excludedFlagged: number;
  categories: string[];
}

type Computed = { standings: Standings; pairs: PairTotals[] };

interface Cached {
  version: string;
  value: Computed;
  /** when D1 last confirmed `version` */
  checkedAt: number;
  /** localWrites when it did */
  writes: number;
}

/** Standings already computed in this isolate, per query, with the version of the data they reflect. */
const cache = new Map<string, Cached>();
const CACHE_ENTRIES = 64;

/** Requests this isolate answered that may have changed battles or comparisons (see noteLocalWrite). */
let localWrites = 0;

/**
 * Called after every request that may change the data (any API method but GET, HEAD and OPTIONS): standings
 * cached in this isolate are then checked against D1 on the next read, so whoever votes here sees their vote
 * at once.
 */
export function noteLocalWrite(): void {
  localWrites++;
}

/**
 * The standings for a query, and the pair counts they were built from. Any vote, withdrawal, import, judge
 * battle or new comparison changes the data's version (one small D1 query reads it); a cached answer whose
 * version still holds is served as it is, so a reload with nothing new costs no fit and no bootstrap.
 *
 * Within `staleMs` of D1 last confirming an entry, and with no write request answered by this isolate since,
 * the entry is served without that query: a change made through another isolate (a vote taken by a Worker
 * elsewhere, a judge's battle written by a room) shows within `staleMs`. Under a steady stream of votes this
 * bounds the refits to one per query per `staleMs` per isolate, instead of one per read (README, "Scaling").
 */
export async function computeStandings(db: Db, archive: R2Bucket | undefined, q: LeaderboardQuery, staleMs = 0): Promise<Computed> {
  const key = JSON.stringify(q);
  const hit = cache.get(key);
  const [now, writes] = [Date.now(), localWrites];
  if (hit && hit.writes === writes && now - hit.checkedAt < staleMs) return hit.value;
  const version = await dataVersion(db);
  if (hit?.version === version) {
    Object.assign(hit, { checkedAt: now, writes });
    return hit.value;
  }
  const value = await computeFresh(db, archive, q);
  cache.delete(key);
  cache.set(key, { version, value, checkedAt: now, writes });
  if (cache.size > CACHE_ENTRIES) cache.delete(cache.keys().next().value!);
  return value;
}

async function computeFresh(db: Db, archive: R2Bucket | undefined, q: LeaderboardQuery): Promise<Computed> {
  const slice: Slice = { sources: SOURCES[q.source], category: q.category ?? "", includeFlagged: q.includeFlagged };
  const withHuman = slice.sources.includes("human");
  const [{ pairs, excludedFlagged }, online, appearances, humanPairs, categories] = await Promise.all([
    readPairCounts(db, slice),
    readOnlineRatings(db, archive, slice),
    withHuman ? readAppearances(db, slice.category) : null,
    q.source === "all" ? readPairCounts(db, { ...slice, sources: ["human"] }) : null,
    readCategories(db),
  ]);
  const rated = new Set(pairs.flatMap((p) => [p.lo, p.hi]));
  // An anchor is used only when that model has battles here; the response says which one was.
  const anchor = q.anchor !== undefined && q.anchorRating !== undefined && rated.has(q.anchor) ? { modelId: q.anchor, rating: q.anchorRating } : null;
  const { rows, totalBattles } = buildLeaderboard({
    pairs,
    comparisons: appearances ? { appearances, humanBattles: battlesPerModel(humanPairs ? humanPairs.pairs : pairs) } : null,
    online,
    minAppearances: q.minAppearances,
    order: q.order,
    rounds: q.rounds,
    anchor,
  });
  const standings = {
    rows,
    source: q.source,
    category: q.category ?? null,
    includeFlagged: q.includeFlagged,
    order: q.order,
    minAppearances: q.minAppearances,
    rounds: q.rounds,
    anchor,
    totalBattles,
    excludedFlagged,
    categories,
  };
  return { standings, pairs };
}
