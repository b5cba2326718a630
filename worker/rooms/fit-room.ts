/**
 * FitRoom: one Durable Object per leaderboard view whose Bradley–Terry fit is too large for the request
 * (arena/fit-plan.ts). It fits from its alarm, kept for the version of the data it was fitted on; until then
 * the leaderboard says "computing" and shows the last finished fit, if any, as stale. Under `wrangler dev` every
 * room shares the Worker's one thread, so the fit hands the thread back between slices of a few ms each.
 *
 * With sandwich intervals a new version needn't wait: the room keeps its last fit's basis and the view's counts
 * in memory and, when only battles were added since, moves them on at once (arena/fit-update.ts: the new
 * battles' counts, a refit from the last ratings with the exact fit's Hessian factor) and answers
 * `incremental`, with the counts, so the leaderboard reads no pair counts at all; the exact refit then follows
 * from the alarm. A room that was evicted has no basis, so its first new version waits for one.
 *
 * A room named by a slice alone (arena/fit-plan.ts replayRoomName) replays that slice's online Elo and TrueSkill
 * instead, when a leaderboard read finds more battles to replay than it may (a freshly imported view): from its
 * alarm, in slices, leaving the snapshots (db/rating-snapshots.ts) the next read starts from.
 */
import { DurableObject } from "cloudflare:workers";
import {
  type BattleMark,
  readBattlesSince,
  readPairCounts,
  readPairCountsMarked,
  type Slice,
} from "../db/leaderboard-queries";
import { openDb } from "../db/queries";
import type { FitRequest, IntervalMethod } from "../arena/fit-plan";
import {
  addToCounts,
  countsOf,
  type FitBasis,
  fitTableSliced,
  fitViewSliced,
  type ModelRating,
  type ViewCounts,
} from "../arena/leaderboard";
import { addBattles, refitSliced } from "../arena/fit-update";
import { readOnlineRatings } from "../arena/online-ratings";
import { type Sliced, Slicer } from "../rating/work-slices";
import type { FitMode } from "../shared/arena";

export type FitAnswer =
  | { status: "ready"; mode: FitMode; ratings: ModelRating[]; counts: ViewCounts | null }
  | { status: "computing"; stale: ModelRating[] | null };

interface Stored {
  version: string;
  /** the ratings are kept in this many parts of RATINGS_PER_PART, so no stored value nears the 2 MB limit */
  parts: number;
  /** absent in fits stored before updates existed: exact */
  mode?: FitMode;
}

/** The last fit, exact or moved on since, with the view's counts and the battle log's mark it counts up to. */
interface Latest {
  basis: FitBasis;
  counts: ViewCounts;
  mark: BattleMark;
}

const RATINGS_PER_PART = 1_000;

/**
 * An update's exact refit waits this long: the read that brought the votes in answers first (the refit's first
 * slices would hold it up on a shared thread), and votes arriving meanwhile share one refit.
 */
export const REFIT_AFTER_UPDATE_MS = 2_000;

/**
 * A fit or a replay a read asks for starts this long after: the read that asked answers first. The work's first
 * step, reading every pair or a page of battles, is one piece the thread can't be handed back in the middle of.
 */
export const START_AFTER_MS = 500;

/** Battles one update takes at most: past this the exact refit is as quick, and the old Hessian too far off. */
export const UPDATE_MAX_BATTLES = 10_000;

const copyCounts = (counts: ViewCounts): ViewCounts => ({
  tallies: new Map([...counts.tallies].map(([m, t]) => [m, { ...t }])),
  totalBattles: counts.totalBattles,
});

const methodOf = (r: FitRequest): IntervalMethod => ({
  ci: r.ci ?? "bootstrap",
  rounds: r.rounds,
  reweight: r.reweight ?? false,
});

/**
 * A view the room can move on battle by battle: one by source and category. A prompt label's counters, a
 * deduplicated view and an evaluation's battles are read whole (readPairCounts) and fitted exactly each time.
 */
const movable = (slice: Slice) =>
  slice.label === undefined && slice.dedup === undefined && slice.evaluation === undefined;

export class FitRoom extends DurableObject<Env> {
  /** Slices of the fit in progress run so far (0 when none runs): lets a test see a fit under way. */
  slicesDone = 0;
  private latest: Latest | null = null;
  /** What moves `latest` on and stores its result runs one at a time, in order. */
  private queue: Promise<unknown> = Promise.resolve();

  /**
   * The fit for `request.version`: stored, or moved on from the last fit (sandwich intervals), or "computing"
   * (with the last finished fit) while the alarm fits it.
   */
  async ratings(request: FitRequest): Promise<FitAnswer> {
    const done = this.stored(request.version);
    if (done) return done;
    if (methodOf(request).ci === "sandwich" && movable(request.slice)) {
      const updated = await this.serial(() => this.update(request));
      if (updated) return updated;
    }
    await this.want(request, START_AFTER_MS);
    const last = this.ctx.storage.kv.get<Stored>("result");
    return { status: "computing", stale: last ? this.load(last) : null };
  }

  /** Asks the alarm to replay the slice's online ratings (a room of replayRoomName's); the read then says computing. */
  async replayOnline(slice: Slice): Promise<void> {
    this.ctx.storage.kv.put("replay", slice);
    if ((await this.ctx.storage.getAlarm()) === null) await this.ctx.storage.setAlarm(Date.now() + START_AFTER_MS);
  }

  async alarm(): Promise<void> {
    const replay = this.ctx.storage.kv.get<Slice>("replay");
    if (replay) {
      // Whatever came since the read that asked is replayed too: the snapshots then cover the newest battle.
      await readOnlineRatings(openDb(this.env.DB), this.env.ARCHIVE, replay, () => scheduler.wait(0));
      this.ctx.storage.kv.delete("replay");
    }
    const wanted = this.ctx.storage.kv.get<FitRequest>("wanted");
    const last = this.ctx.storage.kv.get<Stored>("result");
    if (!wanted || (last?.version === wanted.version && (last.mode ?? "exact") === "exact")) return;
    const anchor = wanted.anchorModel === null ? null : { modelId: wanted.anchorModel, rating: 0 };
    const { fit, counts, mark } = await this.exactFit(wanted, anchor);
    await this.serial(async () => {
      const newest = this.ctx.storage.kv.get<FitRequest>("wanted") ?? wanted;
      if (!fit.basis || !movable(wanted.slice)) {
        this.latest = null;
        this.save(wanted.version, fit.ratings, "exact");
        return;
      }
      const exact: Latest = { basis: fit.basis, counts, mark };
      this.latest = exact;
      // Battles that came while it ran are counted in at once, as an update would.
      const moved = await this.advance(exact, wanted.slice);
      // Past a deletion the exact fit holds for the version it was asked for only; the alarm comes again.
      if (moved === null) {
        this.latest = null;
        this.save(wanted.version, fit.ratings, "exact");
      } else if (moved === "unchanged") this.save(newest.version, fit.ratings, "exact");
      else this.save(newest.version, moved, "incremental");
    });
    // Data that changed while this fit ran, or an update since the last exact fit, asks for another.
    const now = this.ctx.storage.kv.get<Stored>("result");
    if (this.ctx.storage.kv.get<FitRequest>("wanted")?.version !== now?.version || now?.mode === "incremental")
      await this.ctx.storage.setAlarm(Date.now());
  }

  /**
   * The exact fit of the view's counts: those the room holds when it has them (the last fit's table with every
   * battle added since, so nothing is read again), else the pair counts read from D1.
   */
  private async exactFit(wanted: FitRequest, anchor: { modelId: string; rating: number } | null) {
    const method = methodOf(wanted);
    const latest = this.latest;
    // The last ratings are where the exact refit starts: a few battles away, it needs few Newton steps.
    const start = latest ? { names: latest.basis.names, ratings: latest.basis.ratings } : undefined;
    if (latest && latest.basis.method.reweight === method.reweight) {
      // Copied now: updates go on adding to the room's own table while this fit runs.
      const { names, index, table } = latest.basis;
      const copy = { ...table, winsI: table.winsI.slice(), winsJ: table.winsJ.slice(), ties: table.ties.slice() };
      const counts = copyCounts(latest.counts);
      const mark = { ...latest.mark };
      const fit = await this.run((slicer) =>
        fitTableSliced({ names, index, table: copy }, method, anchor, slicer, start),
      );
      return { fit, counts, mark };
    }
    if (!movable(wanted.slice)) {
      const { pairs } = await readPairCounts(openDb(this.env.DB), wanted.slice);
      const fit = await this.run((slicer) => fitViewSliced(pairs, method, anchor, slicer, start));
      return { fit, counts: countsOf(pairs), mark: { rowid: 0, epochs: 0 } };
    }
    const { pairs, mark } = await readPairCountsMarked(openDb(this.env.DB), wanted.slice);
    const fit = await this.run((slicer) => fitViewSliced(pairs, method, anchor, slicer, start));
    return { fit, counts: countsOf(pairs), mark };
  }

  private stored(version: string): FitAnswer | null {
    const done = this.ctx.storage.kv.get<Stored>("result");
    if (done?.version !== version) return null;
    return {
      status: "ready",
      mode: done.mode ?? "exact",
      ratings: this.load(done),
      counts: this.latest?.counts ?? null,
    };
  }

  /** Asks the alarm for an exact fit of `request`, `afterMs` from now unless one is due already. */
  private async want(request: FitRequest, afterMs = 0): Promise<void> {
    this.ctx.storage.kv.put("wanted", request);
    if ((await this.ctx.storage.getAlarm()) === null) await this.ctx.storage.setAlarm(Date.now() + afterMs);
  }

  /** The last fit moved on to now, stored under `request.version`, or null when that can't be done. */
  private async update(request: FitRequest): Promise<FitAnswer | null> {
    const done = this.stored(request.version);
    if (done) return done;
    const latest = this.latest;
    const last = this.ctx.storage.kv.get<Stored>("result");
    if (!latest || !last || latest.basis.method.reweight !== (request.reweight ?? false)) return null;
    const moved = await this.advance(latest, request.slice);
    if (moved === null) {
      this.latest = null;
      return null;
    }
    // A version can change with no battle of this view (another category, a new comparison): same fit.
    const mode = moved === "unchanged" ? (last.mode ?? "exact") : "incremental";
    const ratings = moved === "unchanged" ? this.load(last) : moved;
    this.save(request.version, ratings, mode);
    if (mode === "incremental") await this.want(request, REFIT_AFTER_UPDATE_MS);
    return { status: "ready", mode, ratings, counts: latest.counts };
  }

  /**
   * Counts the battles added since `latest.mark` into it and refits: the new ratings, "unchanged" when there
   * were none, or null when only an exact refit can follow (a deletion, a new model, too many battles).
   */
  private async advance(latest: Latest, slice: Slice): Promise<ModelRating[] | "unchanged" | null> {
    const { battles, mark } = await readBattlesSince(openDb(this.env.DB), slice, latest.mark.rowid, UPDATE_MAX_BATTLES);
    // A deletion (a withdrawn vote, a deleted run) takes counts away: only an exact refit sees which.
    if (mark.epochs !== latest.mark.epochs || battles.length > UPDATE_MAX_BATTLES) return null;
    if (!battles.length) {
      latest.mark = mark;
      return "unchanged";
    }
    if (!addBattles(latest.basis, battles)) return null;
    addToCounts(latest.counts, battles);
    latest.mark = mark;
    return (await this.run((slicer) => refitSliced(latest.basis, slicer))).ratings;
  }

  /** Runs `work` after whatever moves the fit on before it; a failure leaves no half-moved fit behind. */
  private serial<T>(work: () => Promise<T>): Promise<T> {
    const next = this.queue.then(work).catch((err: unknown) => {
      this.latest = null;
      throw err;
    });
    this.queue = next.catch(() => undefined);
    return next;
  }

  /** Runs sliced work, handing the thread to whatever waits (a health check, another request) between slices. */
  private async run<T>(work: (slicer: Slicer) => Sliced<T>): Promise<T> {
    const slicer = new Slicer();
    const steps = work(slicer);
    try {
      for (let next = steps.next(); ; next = steps.next()) {
        this.slicesDone = slicer.slices;
        if (next.done) return next.value;
        await scheduler.wait(0);
      }
    } finally {
      this.slicesDone = 0;
    }
  }

  /** Written without an await between the puts, so they commit together. */
  private save(version: string, ratings: ModelRating[], mode: FitMode): void {
    const parts = Math.ceil(ratings.length / RATINGS_PER_PART);
    for (let k = 0; k < parts; k++)
      this.ctx.storage.kv.put(`result:${k}`, ratings.slice(k * RATINGS_PER_PART, (k + 1) * RATINGS_PER_PART));
    this.ctx.storage.kv.put("result", { version, parts, mode } satisfies Stored);
  }

  private load(stored: Stored): ModelRating[] {
    return Array.from(
      { length: stored.parts },
      (_, k) => this.ctx.storage.kv.get<ModelRating[]>(`result:${k}`) ?? [],
    ).flat();
  }
}
