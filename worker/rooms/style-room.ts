/**
 * StyleRoom: one Durable Object per leaderboard view with style control on and battles in it. Style control
 * needs every battle's features (no count matrix can stand in), so it is fitted here, from the room's alarm,
 * and kept for the version of the data (and the anchor's rating) it was fitted for; until then the
 * leaderboard says "computing".
 */
import { DurableObject } from "cloudflare:workers";
import { sliceBattles } from "../db/style-queries";
import type { Slice } from "../db/leaderboard-queries";
import { openDb } from "../db/queries";
import { StyleFitter, type StyleResult } from "../arena/style-fit";
import { Slicer } from "../rating/work-slices";
import type { StyleMethod } from "../shared/constants";

export interface StyleRequest {
  slice: Slice;
  /** absent in requests stored before arena-rank's method: FastChat's */
  method?: StyleMethod;
  rounds: number;
  anchor: { modelId: string; rating: number } | null;
  version: string;
}

export type StyleAnswer = { status: "ready"; result: StyleResult } | { status: "computing" };

interface Stored {
  /** the data's version and the anchor's rating it was fitted for (fittedFor) */
  version: string;
  result: StyleResult;
}

/** One room serves a view for every rating of its anchor, one rating at a time. */
const fittedFor = (r: StyleRequest) => `${r.version}@${r.anchor?.rating ?? ""}`;

export class StyleRoom extends DurableObject<Env> {
  /** The fit for `request`'s data version and anchor rating, or "computing" while the alarm fits it. */
  async standings(request: StyleRequest): Promise<StyleAnswer> {
    const done = this.ctx.storage.kv.get<Stored>("result");
    if (done?.version === fittedFor(request)) return { status: "ready", result: done.result };
    this.ctx.storage.kv.put("wanted", request);
    if ((await this.ctx.storage.getAlarm()) === null) await this.ctx.storage.setAlarm(Date.now());
    return { status: "computing" };
  }

  async alarm(): Promise<void> {
    const wanted = this.ctx.storage.kv.get<StyleRequest>("wanted");
    if (!wanted || this.ctx.storage.kv.get<Stored>("result")?.version === fittedFor(wanted)) return;
    const fitter = new StyleFitter();
    for await (const page of sliceBattles(openDb(this.env.DB), this.env.ARCHIVE, wanted.slice)) fitter.add(page);
    const steps = fitter.fit(wanted.method ?? "fastchat", wanted.rounds, wanted.anchor, new Slicer());
    let step = steps.next();
    // Every room shares the Worker's thread under `wrangler dev`: hand it back between slices of the fit.
    for (; !step.done; step = steps.next()) await scheduler.wait(0);
    this.ctx.storage.kv.put("result", { version: fittedFor(wanted), result: step.value } satisfies Stored);
    // Data (or an anchor's rating) that changed while this fit ran asks for another.
    const next = this.ctx.storage.kv.get<StyleRequest>("wanted");
    if (next && fittedFor(next) !== fittedFor(wanted)) await this.ctx.storage.setAlarm(Date.now());
  }
}
