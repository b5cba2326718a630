/** Reads the counters for one leaderboard query and turns them into rows. */

import {
  dataVersion,
  isDemoModel,
  type DedupSummary,
  readAppearances,
  readCategories,
  readExcludedFlagged,
  readPairCounts,
  type PairTotals,
  type Slice,
} from "../db/leaderboard-queries";
import { type LabelCount, labelCounts } from "../db/label-queries";
import { readLabelledAppearances } from "../db/slice-battles";
import { releaseUncounted } from "../db/counting-queries";
import { type ModelTally, readModelTallies } from "../db/model-tallies";
import { onlineRatingsOfView, replayInRoom } from "./online-ratings";
import type { Db } from "../db/queries";
import type { BattleSource, FitStatus, LeaderboardRow, OnlineStatus } from "../shared/arena";
import type { LeaderboardQuery } from "../shared/requests";
import { type FitPlan, fitPlan, fitRoomName, type IntervalMethod } from "./fit-plan";
import {
  buildLeaderboard,
  countsOf,
  type DifferenceVariance,
  ORDER,
  rateModels,
  type ModelRating,
  type ViewCounts,
} from "./leaderboard";
import { settings } from "../shared/config";
import { settledRanking, type Settled } from "./settled";
import { realProviderConfigured } from "../providers/registry";

export { ORDER };

export const SOURCES: Record<LeaderboardQuery["source"], BattleSource[]> = {
  human: ["human"],
  judge: ["judge"],
  import: ["import"],
  eval: ["eval"],
  goal: ["goal"],
  all: ["human", "judge", "import", "eval", "goal"],
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
  /** the prompt label the view is filtered by, null for every battle */
  label: string | null;
  includeFlagged: boolean;
  order: LeaderboardQuery["order"];
  minAppearances: number;
  /** how the intervals were made: arena-rank's sandwich, or `rounds` bootstrap rounds */
  ci: LeaderboardQuery["ci"];
  rounds: number;
  /** whether the fit and intervals used arena-rank's inverse pair-frequency weights */
  reweight: boolean;
  anchor: { modelId: string; rating: number } | null;
  totalBattles: number;
  excludedFlagged: number;
  categories: string[];
  /** prompts per label, for the label filters */
  labels: LabelCount[];
  /** what QUORUM_DEDUP_PROMPTS left out of the view; null when it is off */
  dedup: DedupSummary | null;
  fit: FitStatus;
  /** online Elo and TrueSkill: ready, or replayed by a room while the rows show an older snapshot's or none */
  online: OnlineStatus;
  /** what of the ranking in focus (QUORUM_ARENA_FOCUS) won't change with 95% confidence; null while it may */
  settled: Settled | null;
  /** the `demo` asked for, and how many demo models the view leaves out */
  demo: { asked: LeaderboardQuery["demo"]; excludedModels: number };
}

/** The battles a query reads, once it is known whether the demo models are left out. */
export function sliceOf(q: LeaderboardQuery, withoutDemo: boolean): Slice {
  const slice: Slice = {
    sources: SOURCES[q.source],
    category: q.category ?? "",
    includeFlagged: q.includeFlagged,
    ...(q.label ? { label: q.label } : {}),
    ...(q.evaluation !== undefined ? { evaluation: q.evaluation } : {}),
  };
  // Absent rather than false, so the views that keep the demo models keep their rooms' and streams' names.
  return withoutDemo ? { ...slice, withoutDemo } : slice;
}

/** Whether the view keeps its demo models whatever it holds (else demoModelsLeftOut decides from its models). */
const keepsDemo = (env: Env, q: LeaderboardQuery) =>
  q.demo === "include" || (q.demo === "auto" && !realProviderConfigured(env));

/**
 * Of the view's rated models, the demo models it leaves out. With `auto`, only once a real provider is configured
 * and only from a view that mixes them with real models: a view of demo models alone (nothing else has been played
 * yet) keeps them.
 */
function demoModelsLeftOut(env: Env, q: LeaderboardQuery, models: Set<string>): string[] {
  if (keepsDemo(env, q)) return [];
  const demo = [...models].filter(isDemoModel);
  return q.demo === "exclude" || demo.length < models.size ? demo : [];
}

/** The demo models the view leaves out, and the view's pairs when they had to be read to tell. */
async function demoLeftOut(
  env: Env,
  db: Db,
  q: LeaderboardQuery,
): Promise<{ leftOut: string[]; read: Awaited<ReturnType<typeof readPairCounts>> | null }> {
  if (keepsDemo(env, q)) return { leftOut: [], read: null };
  const read = await readPairCounts(db, sliceOf(q, false));
  return { leftOut: demoModelsLeftOut(env, q, new Set(read.pairs.flatMap((p) => [p.lo, p.hi]))), read };
}

/**
 * The standings and, when the fit ran here with sandwich intervals, the covariance of the ratings' differences
 * (the arena's pairing reads it from here rather than fitting again).
 */
type Computed = { standings: Standings; differenceVariance: DifferenceVariance | null };

interface Cached {
  version: string;
  value: Computed;
  /** when D1 last confirmed `version` */
  checkedAt: number;
  /** localWrites when it did */
  writes: number;
  /** false while the fit is computing or incremental: a read then asks again, even at the same version */
  final: boolean;
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
 * bounds the refits to one per query per `staleMs` per isolate, instead of one per read (docs/scaling.md).
 *
 * Blind comparisons whose vote window (`voteWindowMs`, QUORUM_VOTE_WINDOW_MS) passed unvoted are let in first
 * (releasing one changes the version): until then they count nowhere, so the leaderboard can't name a hidden pair.
 */
export async function computeStandings(
  env: Env,
  db: Db,
  q: LeaderboardQuery,
  staleMs = 0,
  voteWindowMs = settings(env).arena.voteWindowMs,
): Promise<Computed> {
  const { focus, newModelBattles, dedupPrompts } = settings(env).arena;
  // The settings shape the rows and counts too (newModel, settled, dedup), and a test may pass its own env; whether
  // a real provider is configured decides what `demo=auto` shows. All of it is part of the view's key.
  const key = JSON.stringify([
    q,
    focus,
    newModelBattles,
    q.demo === "auto" && realProviderConfigured(env),
    dedupPrompts,
  ]);
  const hit = cache.get(key);
  const [now, writes] = [Date.now(), localWrites];
  if (hit?.final && hit.writes === writes && now - hit.checkedAt < staleMs) return hit.value;
  await releaseUncounted(db, now, voteWindowMs);
  const version = await dataVersion(db);
  if (hit?.final && hit.version === version) {
    Object.assign(hit, { checkedAt: now, writes });
    return hit.value;
  }
  const roomRead = hit ? await fromFitRoom(env, db, q, version, hit.value.standings) : null;
  // The same data, its fit still computing or as it was: the rows stand as they were, unless their online
  // ratings were still being replayed (the replay may be done by now).
  if (typeof roomRead === "string" && hit?.version === version && hit.value.standings.online.status === "ready")
    return hit.value;
  const value = roomRead && typeof roomRead !== "string" ? roomRead : await computeFresh(env, db, q, version);
  cache.delete(key);
  const { fit, online } = value.standings;
  const final =
    (fit.status === "refused" || (fit.status === "ready" && fit.mode === "exact")) && online.status === "ready";
  cache.set(key, { version, value, checkedAt: now, writes, final });
  if (cache.size > CACHE_ENTRIES) cache.delete(cache.keys().next().value!);
  return value;
}

/**
 * A view whose fit ran in its FitRoom last time, read without its pair counts: the room holds the view's counts
 * with its fit and moves both on for new battles, so the read costs the other small queries and the room's
 * answer, not a scan of every pair (hundreds of thousands at a thousand models). "computing" while the room
 * fits, "unchanged" when it answers as last time without its counts (it was evicted since); null when it can't
 * answer that way (no fit in memory, a deletion, `all`'s human share): the full read then follows.
 */
async function fromFitRoom(
  env: Env,
  db: Db,
  q: LeaderboardQuery,
  version: string,
  last: Standings,
): Promise<Computed | "computing" | "unchanged" | null> {
  const { fit } = last;
  const rounds = q.ci === "bootstrap" ? q.rounds : 0;
  const plan = fitPlan(fit.models, rounds, settings(env).arena.maxFitModels);
  // An anchor named but not applied last time may have battles now, and a view that may leave the demo models
  // out decides from every pair: only the full read can tell.
  const demoFixed = q.demo === "include" || (q.demo === "auto" && !realProviderConfigured(env));
  // The room moves its counts on by source and category: a label's view and deduplicated counts need the full read.
  const bySourceAndCategory =
    q.label === undefined && q.evaluation === undefined && settings(env).arena.dedupPrompts === null;
  if (
    plan.where !== "room" ||
    q.source === "all" ||
    (q.anchor !== undefined && !last.anchor) ||
    !demoFixed ||
    !bySourceAndCategory
  )
    return null;
  const slice = sliceOf(q, false);
  const request = {
    slice,
    ci: q.ci,
    rounds: plan.rounds,
    reweight: q.reweight,
    anchorModel: last.anchor?.modelId ?? null,
    version,
  };
  const answer = await env.FIT_ROOM.get(env.FIT_ROOM.idFromName(fitRoomName(request))).ratings(request);
  if (answer.status === "computing") return "computing";
  if (!answer.counts) return fit.status === "ready" && fit.mode === answer.mode ? "unchanged" : null;
  const { counts } = answer;
  const models = [...counts.tallies.values()].filter((t) => t.battles > 0).length;
  const [online, appearances, categories, excludedFlagged] = await Promise.all([
    onlineRatingsOfView(env, db, slice, counts.totalBattles),
    slice.sources.includes("human") ? readAppearances(db, slice.category) : null,
    readCategories(db),
    readExcludedFlagged(db, slice),
  ]);
  await replayInRoom(env, slice, online.status);
  const humanBattles = new Map([...counts.tallies].map(([m, t]) => [m, t.battles]));
  const { rows, totalBattles } = buildLeaderboard({
    counts,
    ratings: roomRatings(answer.ratings, last.anchor),
    comparisons: appearances ? { appearances, humanBattles } : null,
    online: online.ratings,
    minAppearances: q.minAppearances,
    order: q.order,
    newModelBattles: settings(env).arena.newModelBattles,
  });
  const standings: Standings = {
    ...last,
    rows,
    totalBattles,
    excludedFlagged,
    categories,
    fit: { status: "ready", mode: answer.mode, models, rounds: plan.rounds, notice: plan.notice },
    online: online.status,
    settled: settledRanking(rows, settings(env).arena.focus),
  };
  return { standings, differenceVariance: null };
}

/** The room pins the anchor at 0; its rating moves every rating and interval by the same amount. */
function roomRatings(list: ModelRating[], anchor: { rating: number } | null): Map<string, ModelRating> {
  const shift = anchor?.rating ?? 0;
  const plus = (x: number | null) => (x === null ? null : x + shift);
  return new Map(
    list.map((r) => [r.modelId, { ...r, bt: plus(r.bt), ciLower: plus(r.ciLower), ciUpper: plus(r.ciUpper) }]),
  );
}

async function computeFresh(env: Env, db: Db, q: LeaderboardQuery, version: string): Promise<Computed> {
  return (await fromCounters(env, db, q, version)) ?? (await fromPairs(env, db, q, version));
}

/**
 * A large view by source and category, read without its pairs: its counts from the per-model counters, its fit asked
 * of its room (which reads the pairs itself, off the request) and its online ratings replayed here only when few
 * battles are new (else by a room too). So even the first read of a freshly imported view answers at once, with
 * its counts and "computing". Null for a view whose fit runs on the request (its pairs are few: fromPairs reads
 * them), and for the views the per-model sums can't answer: a label's, an evaluation's, a deduplicated one, one
 * that leaves its demo models out (their battles are in the other models' sums).
 */
async function fromCounters(env: Env, db: Db, q: LeaderboardQuery, version: string): Promise<Computed | null> {
  if (q.label !== undefined || q.evaluation !== undefined || settings(env).arena.dedupPrompts !== null) return null;
  const slice = sliceOf(q, false);
  const [tallies, humanTallies] = await Promise.all([
    readModelTallies(db, slice),
    // The human battles already counted in appearances.
    q.source === "all" ? readModelTallies(db, { ...slice, sources: ["human"] }) : null,
  ]);
  if (demoModelsLeftOut(env, q, new Set(tallies.map((t) => t.modelId))).length) return null;
  const method = { ci: q.ci, rounds: q.rounds, reweight: q.reweight };
  const plan = fitPlan(tallies.length, method.ci === "bootstrap" ? method.rounds : 0, settings(env).arena.maxFitModels);
  if (plan.where === "inline") return null;
  const counts = countsOfTallies(tallies);
  const anchor = anchorOf(q, counts.tallies);
  const [online, appearances, excludedFlagged, categories, labels] = await Promise.all([
    onlineRatingsOfView(env, db, slice, counts.totalBattles),
    slice.sources.includes("human") ? readAppearances(db, slice.category) : null,
    readExcludedFlagged(db, slice),
    readCategories(db),
    labelCounts(db),
  ]);
  // The rooms are asked last: each starts reading every pair or every battle at once, and D1 would serve that first.
  const fitted = await fitAway(env, plan, { models: tallies.length, slice, method, anchor, version });
  await replayInRoom(env, slice, online.status);
  const humanBattles = new Map((humanTallies ?? tallies).map((t) => [t.modelId, t.battles]));
  const { rows, totalBattles } = buildLeaderboard({
    counts,
    ratings: fitted.ratings,
    comparisons: appearances ? { appearances, humanBattles } : null,
    online: online.ratings,
    minAppearances: q.minAppearances,
    order: q.order,
    newModelBattles: settings(env).arena.newModelBattles,
  });
  const parts = { rows, totalBattles, anchor, excludedFlagged, categories, labels, dedup: null, excludedModels: 0 };
  return {
    standings: standingsOf(env, q, { ...parts, fit: fitted.fit, online: online.status }),
    differenceVariance: null,
  };
}

/** A view's counts from its models' sums: each battle is in two of them. */
function countsOfTallies(tallies: ModelTally[]): ViewCounts {
  let sides = 0;
  for (const t of tallies) sides += t.battles;
  return {
    tallies: new Map(tallies.map((t) => [t.modelId, { wins: t.wins, battles: t.battles, ties: t.ties }])),
    totalBattles: sides / 2,
  };
}

/** The anchor a query names, used only when that model has battles in the view; the response says which was. */
function anchorOf(q: LeaderboardQuery, rated: { has(modelId: string): boolean }) {
  return q.anchor !== undefined && q.anchorRating !== undefined && rated.has(q.anchor)
    ? { modelId: q.anchor, rating: q.anchorRating }
    : null;
}

/** The view as read from its pair counts: every view whose fit runs on the request, and those fromCounters can't read. */
async function fromPairs(env: Env, db: Db, q: LeaderboardQuery, version: string): Promise<Computed> {
  const dedup = settings(env).arena.dedupPrompts;
  const { leftOut, read } = await demoLeftOut(env, db, q);
  const base = sliceOf(q, leftOut.length > 0);
  // Dedup caps repeated prompts across the arena; an evaluation's items are its own set, each asked on purpose.
  const slice: Slice = dedup === null || q.evaluation !== undefined ? base : { ...base, dedup };
  const withHuman = slice.sources.includes("human");
  const [{ pairs, excludedFlagged, dedup: deduped }, shown, humanPairs, categories, labels] = await Promise.all([
    // The read that decided is the view's own when it left nothing out and nothing is deduplicated.
    read && !leftOut.length && dedup === null ? read : readPairCounts(db, slice),
    withHuman
      ? slice.label
        ? readLabelledAppearances(db, slice.label, slice.category)
        : readAppearances(db, slice.category)
      : null,
    // The human battles already counted in appearances, dedup or not.
    q.source === "all" ? readPairCounts(db, { ...base, sources: ["human"] }) : null,
    readCategories(db),
    labelCounts(db),
  ]);
  const appearances = shown && slice.withoutDemo ? withoutDemoModels(shown) : shown;
  const counts = countsOf(pairs);
  const anchor = anchorOf(q, counts.tallies);
  const online = await onlineRatingsOfView(env, db, slice, counts.totalBattles);
  // The rooms are asked last: each starts reading every pair or every battle at once, and D1 would serve that first.
  const { ratings, fit, differenceVariance } = await fitRatings(env, {
    pairs,
    models: counts.tallies.size,
    slice,
    method: { ci: q.ci, rounds: q.rounds, reweight: q.reweight },
    anchor,
    version,
  });
  await replayInRoom(env, slice, online.status);
  const { rows, totalBattles } = buildLeaderboard({
    counts,
    ratings,
    comparisons: appearances
      ? { appearances, humanBattles: battlesPerModel(humanPairs ? humanPairs.pairs : pairs) }
      : null,
    online: online.ratings,
    minAppearances: q.minAppearances,
    order: q.order,
    newModelBattles: settings(env).arena.newModelBattles,
  });
  const parts = { rows, totalBattles, anchor, excludedFlagged, categories, labels, dedup: deduped };
  return {
    standings: standingsOf(env, q, { ...parts, fit, online: online.status, excludedModels: leftOut.length }),
    differenceVariance,
  };
}

/** The standings of a freshly read view, from what the read found. */
function standingsOf(
  env: Env,
  q: LeaderboardQuery,
  read: Pick<
    Standings,
    "rows" | "totalBattles" | "anchor" | "excludedFlagged" | "categories" | "labels" | "dedup" | "fit" | "online"
  > & { excludedModels: number },
): Standings {
  const { excludedModels, ...found } = read;
  return {
    ...found,
    source: q.source,
    category: q.category ?? null,
    label: q.label ?? null,
    includeFlagged: q.includeFlagged,
    order: q.order,
    minAppearances: q.minAppearances,
    ci: q.ci,
    rounds: q.rounds,
    reweight: q.reweight,
    settled: settledRanking(read.rows, settings(env).arena.focus),
    demo: { asked: q.demo, excludedModels },
  };
}

function withoutDemoModels(appearances: Map<string, number>): Map<string, number> {
  return new Map([...appearances].filter(([modelId]) => !isDemoModel(modelId)));
}

interface FitInput {
  models: number;
  slice: Slice;
  method: IntervalMethod;
  anchor: { modelId: string; rating: number } | null;
  version: string;
}

interface Fitted {
  ratings: Map<string, ModelRating> | null;
  fit: FitStatus;
  differenceVariance: DifferenceVariance | null;
}

/** Ratings by model for the view: fitted here when small, by the view's FitRoom when large, none past the ceiling. */
async function fitRatings(env: Env, input: FitInput & { pairs: PairTotals[] }): Promise<Fitted> {
  const { models, method, anchor } = input;
  // The sandwich costs about what one more fit does, not a round per interval.
  const rounds = method.ci === "bootstrap" ? method.rounds : 0;
  const plan = fitPlan(models, rounds, settings(env).arena.maxFitModels);
  if (plan.where !== "inline") return fitAway(env, plan, input);
  const { byModel, differenceVariance } = rateModels(input.pairs, method, anchor);
  return {
    ratings: byModel,
    differenceVariance,
    fit: { status: "ready", mode: "exact", models, rounds, notice: null },
  };
}

/** The ratings of a view too large to fit on the request: its FitRoom's, or none past the ceiling. */
async function fitAway(env: Env, plan: Exclude<FitPlan, { where: "inline" }>, input: FitInput): Promise<Fitted> {
  const { models, method, anchor } = input;
  if (plan.where === "refused")
    return {
      ratings: null,
      differenceVariance: null,
      fit: { status: "refused", models, maxModels: settings(env).arena.maxFitModels, notice: plan.notice },
    };
  const request = {
    slice: input.slice,
    ci: method.ci,
    rounds: plan.rounds,
    reweight: method.reweight,
    anchorModel: anchor?.modelId ?? null,
    version: input.version,
  };
  // A view has a room only past INLINE_FIT_MODELS rated models, so a made-up query never creates one.
  const room = env.FIT_ROOM.get(env.FIT_ROOM.idFromName(fitRoomName(request)));
  const answer = await room.ratings(request);
  const byModel = (list: ModelRating[]) => roomRatings(list, anchor);
  // A room's answer carries ratings only: pairing then reads each difference's variance off the intervals.
  if (answer.status === "ready")
    return {
      ratings: byModel(answer.ratings),
      differenceVariance: null,
      fit: { status: "ready", mode: answer.mode, models, rounds: plan.rounds, notice: plan.notice },
    };
  const stale = answer.stale ? byModel(answer.stale) : null;
  return {
    ratings: stale,
    differenceVariance: null,
    fit: { status: "computing", models, rounds: plan.rounds, stale: stale !== null, notice: plan.notice },
  };
}
