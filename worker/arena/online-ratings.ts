/**
 * Online Elo and TrueSkill, replayed from a stored snapshot so each read only applies the battles that are new.
 */
import {
  battlesAfter,
  type BattleRow,
  dropOtherStreams,
  labelStreamOf,
  newestSnapshot,
  type NewRatingSnapshot,
  saveSnapshots,
  streamOf,
} from "../db/rating-snapshots";
import type { Slice } from "../db/leaderboard-queries";
import type { Db } from "../db/queries";
import type { OnlineRating } from "../db/schema";
import { updateElo } from "../rating/elo";
import { updateTrueSkill, type TrueSkillRating } from "../rating/trueskill";

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
  const label = slice.label ? await labelStreamOf(db, slice, slice.label) : null;
  const stream = label ? label.stream : streamOf(slice);
  let snap = await newestSnapshot(db, stream);
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
  }
  const last = sorted.at(-1)!;
  rows.push({ stream, epoch: 0, uptoRowid: upto, lastTstamp: last.tstamp, ratings: toStored(ratings) });
  await saveSnapshots(db, rows);
  // A label's stream before its latest label pass is never read again.
  if (label && !snap) await dropOtherStreams(db, label.family, stream);
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
