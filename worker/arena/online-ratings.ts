/**
 * Online Elo and TrueSkill, replayed from a stored snapshot so each read only applies the battles that are new.
 */
import {
  battlesAfter,
  type BattleRow,
  dropOtherStreams,
  labelStreamOf,
  lastBattleRowid,
  newestSnapshot,
  type NewRatingSnapshot,
  type RatingSnapshot,
  saveSnapshots,
  streamOf,
} from "../db/rating-snapshots";
import type { Slice } from "../db/leaderboard-queries";
import type { Db } from "../db/queries";
import type { OnlineRating } from "../db/schema";
import { updateElo } from "../rating/elo";
import type { OnlineStatus } from "../shared/arena";
import { settings } from "../shared/config";
import { replayRoomName } from "./fit-plan";
import { updateTrueSkill, type TrueSkillRating } from "../rating/trueskill";

export interface OnlineRatings {
  elo: Map<string, number>;
  trueskill: Map<string, TrueSkillRating>;
}

/** Past every this many battle rowids a replay leaves a checkpoint, so a withdrawal replays at most about this many battles. */
export const CHECKPOINT_ROWIDS = 10_000;

/** Battles a replay in a room applies between two pauses: a few µs each, so a slice stays a few ms. */
export const REPLAY_SLICE = 2_000;

/** How a replay hands a shared thread back: awaited every REPLAY_SLICE battles. */
export type Pause = () => Promise<void>;

/** The stream a slice's online ratings are kept under (a label's changes with its label passes). */
async function streamKeyOf(db: Db, slice: Slice): Promise<{ stream: string; family: string | null }> {
  if (!slice.label) return { stream: streamOf(slice), family: null };
  return labelStreamOf(db, slice, slice.label);
}

/**
 * Online Elo and TrueSkill over the slice's battles in (tstamp, insertion) order. The newest stored snapshot of
 * the stream still valid is the starting point: its newest state, or a checkpoint left every CHECKPOINT_ROWIDS
 * battles. Each covers exactly the stream's battles with rowid <= uptoRowid, and deleting a battle removes the
 * snapshots that had counted it (migration 0007's trigger), so a withdrawal replays from the checkpoint before
 * the withdrawn battle. A battle newer in rowid but older in time than the snapshot (an import out of order)
 * means the order changed under it: the whole stream is replayed.
 */
export async function readOnlineRatings(
  db: Db,
  archive: R2Bucket | undefined,
  slice: Slice,
  pause?: Pause,
): Promise<OnlineRatings> {
  const key = await streamKeyOf(db, slice);
  const snap = await newestSnapshot(db, key.stream);
  const ratings = await replayFrom(db, archive, slice, key, snap, { wholeWithin: true, pause });
  return ratings ?? fromStored({});
}

/** Online ratings as a read that may replay only so much finds them. */
export interface OnlineRead {
  ratings: OnlineRatings;
  /** at most this many battles are still to replay; 0: the ratings count every battle of the view */
  behind: number;
  /** while behind, whether the ratings are a snapshot's (some battles old) rather than none */
  fromSnapshot: boolean;
}

/**
 * readOnlineRatings when at most `maxBattles` battles are left to replay; else, reading no battle, the newest
 * snapshot's ratings (or none) and a bound on what is left, for a room to replay (rooms/fit-room.ts). The bound
 * is the rowids past the snapshot, and never more than the view's battles by its counters (`viewBattles`), so
 * a view with few battles is never sent away, whatever the rest of the log holds.
 */
export async function readOnlineRatingsWithin(
  db: Db,
  archive: R2Bucket | undefined,
  slice: Slice,
  limit: { maxBattles: number; viewBattles: number },
): Promise<OnlineRead> {
  const key = await streamKeyOf(db, slice);
  const [snap, lastRowid] = await Promise.all([newestSnapshot(db, key.stream), lastBattleRowid(db)]);
  const stored = () => fromStored(snap?.ratings ?? {});
  const behind = Math.max(0, Math.min(lastRowid - (snap?.uptoRowid ?? 0), limit.viewBattles));
  if (behind === 0) return { ratings: stored(), behind: 0, fromSnapshot: false };
  if (behind > limit.maxBattles) return { ratings: stored(), behind, fromSnapshot: snap !== null };
  const wholeWithin = limit.viewBattles <= limit.maxBattles;
  const ratings = await replayFrom(db, archive, slice, key, snap, { wholeWithin });
  // Null: the order changed under the snapshot, and the whole view is too many battles to replay here.
  return ratings
    ? { ratings, behind: 0, fromSnapshot: false }
    : { ratings: stored(), behind: limit.viewBattles, fromSnapshot: true };
}

/** Dedup shapes the fit's counts, never the online ratings' stream: one stream, and one replay room, for both. */
function replayedSlice(slice: Slice): Slice {
  const { dedup: _, ...replayed } = slice;
  return replayed;
}

/**
 * A leaderboard view's online ratings and where they stand: replayed here when few battles are new, else (a fresh
 * import) the newest snapshot's, `computing` until replayInRoom's room has replayed the rest.
 */
export async function onlineRatingsOfView(
  env: Env,
  db: Db,
  slice: Slice,
  viewBattles: number,
): Promise<{ ratings: OnlineRatings; status: OnlineStatus }> {
  const maxBattles = settings(env).arena.inlineReplayBattles;
  const read = await readOnlineRatingsWithin(db, env.ARCHIVE, replayedSlice(slice), { maxBattles, viewBattles });
  if (read.behind === 0) return { ratings: read.ratings, status: { status: "ready" } };
  return { ratings: read.ratings, status: { status: "computing", battles: read.behind, stale: read.fromSnapshot } };
}

/**
 * Asks the slice's replay room to replay its online ratings, when onlineRatingsOfView said `computing`. A read
 * asks after its own D1 reads: the room starts reading every battle at once, and D1 would serve that first.
 */
export async function replayInRoom(env: Env, slice: Slice, status: OnlineStatus): Promise<void> {
  if (status.status === "ready") return;
  const replayed = replayedSlice(slice);
  await env.FIT_ROOM.get(env.FIT_ROOM.idFromName(replayRoomName(replayed))).replayOnline(replayed);
}

/**
 * The replay from `snap`, saving its snapshots; null when the battle order changed under `snap` and a whole
 * replay isn't `wholeWithin` what the caller may replay.
 */
async function replayFrom(
  db: Db,
  archive: R2Bucket | undefined,
  slice: Slice,
  key: { stream: string; family: string | null },
  from: RatingSnapshot | null,
  options: { wholeWithin: boolean; pause?: Pause },
): Promise<OnlineRatings | null> {
  const { stream } = key;
  let snap = from;
  let fresh = await battlesAfter(db, archive, slice, snap?.uptoRowid ?? 0);
  if (snap && fresh.some((b) => b.tstamp < snap!.lastTstamp)) {
    if (!options.wholeWithin) return null;
    snap = null;
    fresh = await battlesAfter(db, archive, slice, 0);
  }
  const ratings = fromStored(snap?.ratings ?? {});
  if (!fresh.length) return ratings;

  // battlesAfter reads in rowid order; a prefix of the time order is a checkpoint only if no later battle has a smaller rowid.
  const sorted = isInTimeOrder(fresh) ? fresh : [...fresh].sort((x, y) => x.tstamp - y.tstamp || x.rowid - y.rowid);
  const reordered = sorted !== fresh;
  const laterMin = reordered ? suffixMinRowid(sorted) : null;
  const rows: NewRatingSnapshot[] = [];
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
    if (options.pause && i % REPLAY_SLICE === REPLAY_SLICE - 1) await options.pause();
  }
  const last = sorted.at(-1)!;
  rows.push({ stream, epoch: 0, uptoRowid: upto, lastTstamp: last.tstamp, ratings: toStored(ratings) });
  await saveSnapshots(db, rows);
  // A label's stream before its latest label pass is never read again.
  if (key.family && !snap) await dropOtherStreams(db, key.family, stream);
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
