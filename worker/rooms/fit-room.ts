/**
 * FitRoom: one Durable Object per leaderboard view whose Bradley–Terry fit is too large for the request
 * (arena/fit-plan.ts). It fits from its alarm, kept for the version of the data it was fitted on; until then
 * the leaderboard says "computing" and shows the last finished fit, if any, as stale. Under `wrangler dev` every
 * room shares the Worker's one thread, so the fit hands the thread back between slices of a few ms each.
 */
import { DurableObject } from "cloudflare:workers";
import { readPairCounts } from "../db/leaderboard-queries";
import { openDb } from "../db/queries";
import type { FitRequest } from "../arena/fit-plan";
import { rateModelsSliced, type ModelRating } from "../arena/leaderboard";
import { Slicer } from "../rating/work-slices";

export type FitAnswer =
  | { status: "ready"; ratings: ModelRating[] }
  | { status: "computing"; stale: ModelRating[] | null };

interface Stored {
  version: string;
  /** the ratings are kept in this many parts of RATINGS_PER_PART, so no stored value nears the 2 MB limit */
  parts: number;
}

const RATINGS_PER_PART = 1_000;

export class FitRoom extends DurableObject<Env> {
  /** Slices of the fit in progress run so far (0 when none runs): lets a test see a fit under way. */
  slicesDone = 0;

  /** The fit for `request.version`, or "computing" (with the last finished fit) while the alarm fits it. */
  async ratings(request: FitRequest): Promise<FitAnswer> {
    const done = this.ctx.storage.kv.get<Stored>("result");
    if (done?.version === request.version) return { status: "ready", ratings: this.load(done) };
    this.ctx.storage.kv.put("wanted", request);
    if ((await this.ctx.storage.getAlarm()) === null) await this.ctx.storage.setAlarm(Date.now());
    return { status: "computing", stale: done ? this.load(done) : null };
  }

  async alarm(): Promise<void> {
    const wanted = this.ctx.storage.kv.get<FitRequest>("wanted");
    if (!wanted || this.ctx.storage.kv.get<Stored>("result")?.version === wanted.version) return;
    const { pairs } = await readPairCounts(openDb(this.env.DB), wanted.slice);
    const slicer = new Slicer();
    const steps = rateModelsSliced(
      pairs,
      { ci: wanted.ci ?? "bootstrap", rounds: wanted.rounds, reweight: wanted.reweight ?? false },
      wanted.anchorModel === null ? null : { modelId: wanted.anchorModel, rating: 0 },
      slicer,
    );
    let ratings: ModelRating[];
    try {
      for (let next = steps.next(); ; next = steps.next()) {
        this.slicesDone = slicer.slices;
        if (next.done) {
          ratings = next.value.ratings;
          break;
        }
        // Hands the thread to whatever waits (a health check, another request) before the next slice.
        await scheduler.wait(0);
      }
    } finally {
      this.slicesDone = 0;
    }
    this.save(wanted.version, ratings);
    // Data that changed while this fit ran asks for another.
    if (this.ctx.storage.kv.get<FitRequest>("wanted")?.version !== wanted.version)
      await this.ctx.storage.setAlarm(Date.now());
  }

  /** Written without an await between the puts, so they commit together. */
  private save(version: string, ratings: ModelRating[]): void {
    const parts = Math.ceil(ratings.length / RATINGS_PER_PART);
    for (let k = 0; k < parts; k++)
      this.ctx.storage.kv.put(`result:${k}`, ratings.slice(k * RATINGS_PER_PART, (k + 1) * RATINGS_PER_PART));
    this.ctx.storage.kv.put("result", { version, parts } satisfies Stored);
  }

  private load(stored: Stored): ModelRating[] {
    return Array.from(
      { length: stored.parts },
      (_, k) => this.ctx.storage.kv.get<ModelRating[]>(`result:${k}`) ?? [],
    ).flat();
  }
}
