/**
 * The leaderboard from counters: seed 000's wins, appearances and win rate, the tie rate, online Elo, and
 * Bradley–Terry with sandwich or bootstrap intervals fitted on the pair cells that played (never battles).
 */
import type { PairTotals } from "../db/leaderboard-queries";
import type { OnlineRatings } from "./online-ratings";
import { conservative, type TrueSkillRating } from "../rating/trueskill";
import { bootstrapBradleyTerrySliced } from "../rating/bootstrap";
import { rankSpread } from "../rating/ranks";
import { type Anchor, type BtFit, fitPairTableSliced, type PairCell } from "../rating/bradley-terry";
import { type PairTable, pairTableOf } from "../rating/pair-table";
import {
  battlesToSeparate,
  type HessianFactor,
  pairWeights,
  type SandwichIntervals,
  sandwichIntervalsSliced,
  weightedTable,
} from "../rating/sandwich";
import type { IntervalMethod } from "./fit-plan";
import { drain, Slicer, type Sliced } from "../rating/work-slices";
import type { LeaderboardRow } from "../shared/arena";
import type { Winner } from "../rating/battle-outcome";
import { displayName } from "../providers/registry";
import { denseIndex } from "../shared/memo";

/** Fixed, so the same battles always give the same intervals (a reload shows the same numbers). */
export const BOOTSTRAP_SEED = 20_240_229;

/** One model's Bradley–Terry rating and interval, null where unknown. */
export interface ModelRating {
  modelId: string;
  bt: number | null;
  ciLower: number | null;
  ciUpper: number | null;
  provisional: boolean;
  /** with sandwich intervals, the model rated next below when their intervals overlap, and the battles between them that would tell them apart */
  separation?: Separation | null;
}

/** Var(Ra − Rb) on the rating scale by model id, from the sandwich covariance; NaN when either has no battles. */
export type DifferenceVariance = (a: string, b: string) => number;

/** A view's ratings and, with sandwich intervals, the covariance of their differences (for pairing). */
export interface RatedView {
  ratings: ModelRating[];
  differenceVariance: DifferenceVariance | null;
}

export interface Separation {
  modelId: string;
  /** at today's rate of wins between the two; null when their ratings are equal */
  battles: number | null;
}

export interface LeaderboardInput {
  counts: ViewCounts;
  /** by model id; null while the fit is not ready (the rows then carry no ratings) */
  ratings: Map<string, ModelRating> | null;
  /**
   * Appearances that are not battles: comparisons per model (seed 000) for human votes, else null.
   * `humanBattles` are the battles already counted in them, so `all` adds only the other sources' battles.
   */
  comparisons: { appearances: Map<string, number>; humanBattles: Map<string, number> } | null;
  online: OnlineRatings;
  minAppearances: number;
  order: "bt" | "elo" | "trueskill" | "winRate";
  /** a row with fewer battles is `newModel` */
  newModelBattles: number;
}

/** One model's counts in a view: seed 000's wins (a tie a win for both, both-bad for neither), battles, ties. */
export interface Tally {
  wins: number;
  battles: number;
  ties: number;
}

/** What a view's rows count: per model, and the battles in all. */
export interface ViewCounts {
  tallies: Map<string, Tally>;
  totalBattles: number;
}

function add(out: Map<string, Tally>, model: string, wins: number, battles: number, ties: number) {
  const t = out.get(model) ?? { wins: 0, battles: 0, ties: 0 };
  t.wins += wins;
  t.battles += battles;
  t.ties += ties;
  out.set(model, t);
}

export function countsOf(pairs: PairTotals[]): ViewCounts {
  const tallies = new Map<string, Tally>();
  let totalBattles = 0;
  for (const p of pairs) {
    const n = p.loWins + p.hiWins + p.ties + p.bothBad;
    totalBattles += n;
    add(tallies, p.lo, p.loWins + p.ties, n, p.ties);
    add(tallies, p.hi, p.hiWins + p.ties, n, p.ties);
  }
  return { tallies, totalBattles };
}

/** Counts new battles in, in place, by the same rules (the pair counters skip a model battling itself). */
export function addToCounts(
  counts: ViewCounts,
  battles: readonly { modelA: string; modelB: string; winner: Winner }[],
) {
  for (const { modelA, modelB, winner } of battles) {
    if (modelA === modelB) continue;
    counts.totalBattles++;
    const tie = winner === "tie" ? 1 : 0;
    add(counts.tallies, modelA, winner === "model_a" || tie ? 1 : 0, 1, tie);
    add(counts.tallies, modelB, winner === "model_b" || tie ? 1 : 0, 1, tie);
  }
}

/** Every model with battles gets an index; cells hold each pair's outcomes, both tie kinds together. */
function cellsOf(pairs: PairTotals[]) {
  const index = new Map<string, number>();
  const at = (m: string) => denseIndex(index, m);
  const cells: PairCell[] = pairs.map((p) => {
    const [a, b] = [at(p.lo), at(p.hi)];
    const ties = p.ties + p.bothBad;
    return a < b
      ? { i: a, j: b, winsI: p.loWins, winsJ: p.hiWins, ties }
      : { i: b, j: a, winsI: p.hiWins, winsJ: p.loWins, ties };
  });
  return { index, cells };
}

function trueSkillOf(r: TrueSkillRating | undefined) {
  return r
    ? { mu: r.mu, sigma: r.sigma, conservative: conservative(r) }
    : { mu: null, sigma: null, conservative: null };
}

const finite = (x: number) => (Number.isFinite(x) ? x : null);

/**
 * Bradley–Terry over the pairs, with intervals as `method` asks, in slices that yield (rating/work-slices.ts).
 * The anchor applies when its model has battles here. Reweighted, the fit and either interval use arena-rank's
 * weights; the bootstrap then resamples whole battles and weighs each round.
 */
export function* rateModelsSliced(
  pairs: PairTotals[],
  method: IntervalMethod,
  anchor: { modelId: string; rating: number } | null,
  slicer: Slicer,
): Sliced<RatedView> {
  const { ratings, differenceVariance } = yield* fitViewSliced(pairs, method, anchor, slicer);
  return { ratings, differenceVariance };
}

/** A view's exact fit, and with sandwich intervals what an update between exact fits starts from. */
export interface ViewFit extends RatedView {
  basis: FitBasis | null;
}

/** What an update of a sandwich fit reuses (arena/fit-update.ts): the table, the ratings, their errors, H's factor. */
export interface FitBasis {
  names: string[];
  index: Map<string, number>;
  /** raw counts (unweighted), one cell per pair that played */
  table: PairTable;
  ratings: Float64Array;
  standardError: Float64Array;
  hessian: HessianFactor;
  separation: (Separation | null)[];
  method: IntervalMethod;
  anchor: Anchor | null;
  /** the table's cell by pair (i·models + j), sorted (cells added since in `added`); built by the first update */
  cells?: { keys: Float64Array; cells: Int32Array; added: Map<number, number> };
}

/** rateModelsSliced, keeping the basis of an update when the intervals are the sandwich's. */
export function* fitViewSliced(
  pairs: PairTotals[],
  method: IntervalMethod,
  anchor: { modelId: string; rating: number } | null,
  slicer: Slicer,
  start?: { names: readonly string[]; ratings: ArrayLike<number> },
): Sliced<ViewFit> {
  const { index, cells } = cellsOf(pairs);
  // Indexing a pair by its models' names costs a few cell visits' worth of work.
  if (slicer.spend(4 * pairs.length)) yield;
  const table = pairTableOf(index.size, cells);
  return yield* fitTableSliced({ names: [...index.keys()], index, table }, method, anchor, slicer, start);
}

/**
 * The fit of a table of counts whose models are named: the pair counts as read, or a basis's table moved on by
 * new battles (an exact refit then reads nothing again).
 */
export function* fitTableSliced(
  counts: Pick<FitBasis, "names" | "index" | "table">,
  method: IntervalMethod,
  anchor: { modelId: string; rating: number } | null,
  slicer: Slicer,
  start?: { names: readonly string[]; ratings: ArrayLike<number> },
): Sliced<ViewFit> {
  const { names, index, table } = counts;
  const n = names.length;
  const anchorIndex = anchor ? index.get(anchor.modelId) : undefined;
  const pinned = anchor && anchorIndex !== undefined ? { index: anchorIndex, rating: anchor.rating } : null;
  const weights = method.reweight ? pairWeights(table) : null;
  const fitted = weights ? weightedTable(table, weights) : table;
  const fit = yield* fitPairTableSliced(n, fitted, { anchor: pinned, start: start && startOf(index, start) }, slicer);
  if (method.ci === "sandwich") {
    const sandwich = yield* sandwichIntervalsSliced(n, table, fit.ratings, { weights, anchor: pinned }, slicer);
    const separation = separations(names, fit, sandwich);
    const basis: FitBasis = {
      names,
      index,
      table,
      ratings: fit.ratings,
      standardError: sandwich.standardError,
      hessian: sandwich.hessian,
      separation,
      method,
      anchor: pinned,
    };
    const differenceVariance: DifferenceVariance = (a, b) => {
      const [i, j] = [index.get(a), index.get(b)];
      return i === undefined || j === undefined ? Number.NaN : sandwich.differenceVariance(i, j);
    };
    return { ratings: ratingsOf(names, fit, sandwich, separation), differenceVariance, basis };
  }
  let intervals: { lower: Float64Array; upper: Float64Array } | null = null;
  if (method.rounds > 0) {
    const options = { rounds: method.rounds, seed: BOOTSTRAP_SEED, anchor: pinned, weights };
    intervals = yield* bootstrapBradleyTerrySliced(n, cellsOfTable(table), options, slicer);
  }
  return { ratings: ratingsOf(names, fit, intervals, []), differenceVariance: null, basis: null };
}

function cellsOfTable(table: PairTable): PairCell[] {
  return Array.from({ length: table.size }, (_, c) => ({
    i: table.i[c],
    j: table.j[c],
    winsI: table.winsI[c],
    winsJ: table.winsJ[c],
    ties: table.ties[c],
  }));
}

/** A previous fit's ratings in this fit's model order (NaN for a model it did not rate). */
function startOf(index: Map<string, number>, start: { names: readonly string[]; ratings: ArrayLike<number> }) {
  const out = new Float64Array(index.size).fill(Number.NaN);
  start.names.forEach((name, k) => {
    const at = index.get(name);
    if (at !== undefined) out[at] = start.ratings[k];
  });
  return out;
}

/** One ModelRating per model of the fit, in index order. */
export function ratingsOf(
  names: readonly string[],
  fit: Pick<BtFit, "ratings" | "rated" | "provisional">,
  intervals: { lower: ArrayLike<number>; upper: ArrayLike<number> } | null,
  separation: readonly (Separation | null)[],
): ModelRating[] {
  return names.map((modelId, i) => ({
    modelId,
    bt: fit.rated[i] ? finite(fit.ratings[i]) : null,
    ciLower: fit.rated[i] && intervals ? finite(intervals.lower[i]) : null,
    ciUpper: fit.rated[i] && intervals ? finite(intervals.upper[i]) : null,
    provisional: fit.rated[i] && fit.provisional[i],
    separation: separation[i] ?? null,
  }));
}

/**
 * For each rated model, the one rated next below it when their intervals overlap, and how many battles between
 * the two would separate them at today's rate (rating/sandwich.ts battlesToSeparate).
 */
function separations(
  names: readonly string[],
  fit: { ratings: Float64Array; rated: boolean[] },
  sandwich: SandwichIntervals,
): (Separation | null)[] {
  const byRating = names.map((_, i) => i).filter((i) => fit.rated[i]);
  byRating.sort((a, b) => fit.ratings[b] - fit.ratings[a]);
  const out: (Separation | null)[] = names.map(() => null);
  for (let k = 0; k + 1 < byRating.length; k++) {
    const [above, below] = [byRating[k], byRating[k + 1]];
    if (sandwich.lower[above] > sandwich.upper[below]) continue;
    const variance = sandwich.differenceVariance(above, below);
    out[above] = {
      modelId: names[below],
      battles: battlesToSeparate(fit.ratings[above] - fit.ratings[below], variance),
    };
  }
  return out;
}

/** rateModelsSliced in one go, for fits small enough to run on the request (arena/fit-plan.ts). */
export function rateModels(
  pairs: PairTotals[],
  method: IntervalMethod,
  anchor: { modelId: string; rating: number } | null,
): { byModel: Map<string, ModelRating>; differenceVariance: DifferenceVariance | null } {
  const rated = drain(rateModelsSliced(pairs, method, anchor, new Slicer(Number.POSITIVE_INFINITY)));
  return { byModel: new Map(rated.ratings.map((r) => [r.modelId, r])), differenceVariance: rated.differenceVariance };
}

export function buildLeaderboard(input: LeaderboardInput): { rows: LeaderboardRow[]; totalBattles: number } {
  const counts = input.counts.tallies;
  const models = new Set([...counts.keys(), ...(input.comparisons?.appearances.keys() ?? [])]);
  const rows: LeaderboardRow[] = [];
  for (const modelId of models) {
    const t = counts.get(modelId) ?? { wins: 0, battles: 0, ties: 0 };
    const appearances = input.comparisons
      ? (input.comparisons.appearances.get(modelId) ?? 0) +
        t.battles -
        (input.comparisons.humanBattles.get(modelId) ?? 0)
      : t.battles;
    if (appearances < input.minAppearances) continue;
    const rating = input.ratings?.get(modelId);
    rows.push({
      rank: null,
      rankUpper: null,
      rankLower: null,
      modelId,
      displayName: displayName(modelId),
      wins: t.wins,
      appearances,
      winRate: (t.wins / appearances) * 100,
      elo: t.battles ? (input.online.elo.get(modelId) ?? null) : null,
      ...trueSkillOf(t.battles ? input.online.trueskill.get(modelId) : undefined),
      bt: rating?.bt ?? null,
      ciLower: rating?.ciLower ?? null,
      ciUpper: rating?.ciUpper ?? null,
      battles: t.battles,
      tieRate: t.battles ? (t.ties / t.battles) * 100 : null,
      provisional: rating?.provisional ?? false,
      newModel: t.battles < input.newModelBattles,
      separation: rating?.separation ?? null,
    });
  }
  assignRanks(rows);
  rows.sort(ORDER[input.order]);
  return { rows, totalBattles: input.counts.totalBattles };
}

/** Each row's rank spread from where its interval stands against the others' (rating/ranks.ts), in place. */
export function assignRanks(rows: LeaderboardRow[]): void {
  const { best, worst } = rankSpread(
    rows.map((r) => r.ciLower ?? NaN),
    rows.map((r) => r.ciUpper ?? NaN),
  );
  rows.forEach((r, k) => {
    r.rank = r.rankUpper = best[k];
    r.rankLower = worst[k];
  });
}

const desc = (a: number | null, b: number | null) => (b ?? -Infinity) - (a ?? -Infinity);
const byId = (a: LeaderboardRow, b: LeaderboardRow) => (a.modelId < b.modelId ? -1 : a.modelId > b.modelId ? 1 : 0);

export const ORDER: Record<LeaderboardInput["order"], (a: LeaderboardRow, b: LeaderboardRow) => number> = {
  bt: (a, b) => desc(a.bt, b.bt) || desc(a.winRate, b.winRate) || byId(a, b),
  elo: (a, b) => desc(a.elo, b.elo) || desc(a.winRate, b.winRate) || byId(a, b),
  trueskill: (a, b) => desc(a.conservative, b.conservative) || desc(a.winRate, b.winRate) || byId(a, b),
  // seed 000: win rate, then appearances
  winRate: (a, b) => desc(a.winRate, b.winRate) || desc(a.appearances, b.appearances) || byId(a, b),
};
