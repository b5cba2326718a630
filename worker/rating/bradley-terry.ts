/**
 * Bradley–Terry ratings by maximum likelihood on pair counts, on Chatbot Arena's scale:
 * P(i beats j) = 1 / (1 + base^((Rj − Ri) / scale)), a tie (either kind) half a win each way — the same optimum
 * as FastChat's compute_mle_elo, whose logistic regression weighs "i over j" by 2·wins(i,j) + ties(i,j).
 */
import { maximizeLikelihood, type ScoredPairs } from "./bradley-terry-newton";
import { maximizeLikelihoodSparse } from "./bradley-terry-sparse";
import { maximizeWithFactor } from "./bradley-terry-update";
import { type PairTable, pairTableOf } from "./pair-table";
import type { HessianFactor } from "./sandwich";
import { strongComponents } from "./strong-components";
import { drain, type Sliced, Slicer } from "./work-slices";

/** Outcome counts of one pair, i < j indexing the caller's model list; `ties` holds both kinds of tie. */
export interface PairCell {
  i: number;
  j: number;
  winsI: number;
  winsJ: number;
  ties: number;
}

/** Pins one model's rating (Arena pins mixtral-8x7b-instruct-v0.1 at 1114) instead of a mean of `init`. */
export interface Anchor {
  index: number;
  rating: number;
}

export interface BtFit {
  /** NaN for a model with no battles */
  ratings: Float64Array;
  rated: boolean[];
  /** rated, but outside the one largest strongly connected part of the win graph */
  provisional: boolean[];
  /** the maximum likelihood did not exist, so the L2 penalty was added */
  penalized: boolean;
  iterations: number;
  /** the steps reused a given Hessian factor (bradley-terry-update.ts) rather than the Newton solvers' */
  reusedFactor: boolean;
}

export interface BtOptions {
  anchor?: Anchor | null;
  scale?: number;
  base?: number;
  init?: number;
}

/**
 * λ in −(λ/2)·Σβ², β = (R − init)/scale, added to the per-battle log-likelihood only when the maximum does not
 * exist. It is small against the information of even a lightly played model (a model with 100 battles moves by
 * well under 0.01 points) yet keeps a lone vote finite: one win alone gives a gap of about 1,260 points.
 */
export const BT_L2_PENALTY = 1e-3;

/**
 * Up to this many rated models a Newton step solves the dense Hessian (p³/3 flops, a few ms at 100); above it,
 * conjugate gradients on the pair cells (bradley-terry-sparse.ts), whose cost grows with the pairs that played.
 */
export const DENSE_MAX_MODELS = 100;

/** Never says a slice is full: the whole fit runs in one go. */
const unsliced = () => new Slicer(Number.POSITIVE_INFINITY);

export function fitBradleyTerry(n: number, cells: readonly PairCell[], opts: BtOptions = {}): BtFit {
  return fitPairTable(n, pairTableOf(n, cells), opts);
}

/** fitBradleyTerry in slices that yield (work-slices.ts). */
export function fitBradleyTerrySliced(
  n: number,
  cells: readonly PairCell[],
  opts: BtOptions,
  slicer: Slicer,
): Sliced<BtFit> {
  return fitPairTableSliced(n, pairTableOf(n, cells), opts, slicer);
}

/**
 * Where a refit may start: ratings (NaN where unknown), and the Hessian factor of the fit they came from. Both
 * only speed the fit up; they never change the answer.
 */
export interface WarmStart {
  start?: ArrayLike<number>;
  /** stepped with while it serves (bradley-terry-update.ts); the Newton solvers finish otherwise */
  hessian?: HessianFactor | null;
}

/** The fit behind fitBradleyTerry. */
export function fitPairTable(n: number, table: PairTable, opts: BtOptions & WarmStart): BtFit {
  return drain(fitPairTableSliced(n, table, opts, unsliced()));
}

export function* fitPairTableSliced(
  n: number,
  table: PairTable,
  opts: BtOptions & WarmStart,
  slicer: Slicer,
): Sliced<BtFit> {
  const scale = opts.scale ?? 400;
  const base = opts.base ?? 10;
  const init = opts.init ?? 1000;
  const anchor = opts.anchor ?? null;
  if (
    anchor &&
    !(Number.isInteger(anchor.index) && anchor.index >= 0 && anchor.index < n && Number.isFinite(anchor.rating))
  ) {
    throw new RangeError(`anchor must name a model index below ${n} and a finite rating`);
  }
  const perUnit = Math.log(base) / scale;

  const compact = new Int32Array(n).fill(-1);
  const models: number[] = [];
  const pairs: ScoredPairs = {
    count: 0,
    a: new Int32Array(table.size),
    b: new Int32Array(table.size),
    scoreA: new Float64Array(table.size),
    scoreB: new Float64Array(table.size),
  };
  for (let c = 0; c < table.size; c++) {
    const scoreI = table.winsI[c] + table.ties[c] / 2;
    const scoreJ = table.winsJ[c] + table.ties[c] / 2;
    if (scoreI + scoreJ === 0) continue;
    for (const m of [table.i[c], table.j[c]]) if (compact[m] === -1) compact[m] = models.push(m) - 1;
    const k = pairs.count++;
    pairs.a[k] = compact[table.i[c]];
    pairs.b[k] = compact[table.j[c]];
    pairs.scoreA[k] = scoreI;
    pairs.scoreB[k] = scoreJ;
  }
  const p = models.length;
  if (slicer.spend(table.size)) yield;

  const { penalized, provisional: provisionalCompact } = connectivity(p, pairs);
  if (slicer.spend(2 * pairs.count)) yield;

  const theta = new Float64Array(p);
  if (opts.start) {
    for (let v = 0; v < p; v++) {
      const r = opts.start[models[v]];
      if (Number.isFinite(r)) theta[v] = (r - init) * perUnit;
    }
    subtractMean(theta);
  }
  const penalty = penalized ? BT_L2_PENALTY / (Math.log(base) * Math.log(base)) : 0;
  const reused =
    opts.start && opts.hessian ? yield* maximizeWithFactor(models, pairs, penalty, theta, opts.hessian, slicer) : null;
  if (reused === null && opts.start && opts.hessian) {
    // The factor did not serve: start the exact solver again from the given ratings.
    for (let v = 0; v < p; v++) {
      const r = opts.start[models[v]];
      theta[v] = Number.isFinite(r) ? (r - init) * perUnit : 0;
    }
    subtractMean(theta);
  }
  const iterations =
    reused ??
    (p <= DENSE_MAX_MODELS
      ? maximizeLikelihood(p, pairs, penalty, theta)
      : yield* maximizeLikelihoodSparse(p, pairs, penalty, theta, slicer));
  subtractMean(theta);

  const ratings = new Float64Array(n).fill(Number.NaN);
  const rated = new Array<boolean>(n).fill(false);
  const provisional = new Array<boolean>(n).fill(false);
  for (let v = 0; v < p; v++) {
    ratings[models[v]] = init + theta[v] / perUnit;
    rated[models[v]] = true;
    provisional[models[v]] = provisionalCompact[v];
  }
  if (anchor && rated[anchor.index]) {
    const shift = anchor.rating - ratings[anchor.index];
    for (const m of models) ratings[m] += shift;
    ratings[anchor.index] = anchor.rating;
  }
  return { ratings, rated, provisional, penalized, iterations, reusedFactor: reused !== null };
}

/**
 * The maximum exists iff the graph "won at least half a game against" is strongly connected. Otherwise every
 * model outside the one largest strongly connected component is provisional — all of them when no single
 * component is largest (every component a lone model, or two largest of equal size).
 */
function connectivity(p: number, pairs: ScoredPairs): { penalized: boolean; provisional: boolean[] } {
  const from = new Int32Array(2 * pairs.count);
  const to = new Int32Array(2 * pairs.count);
  let edges = 0;
  for (let c = 0; c < pairs.count; c++) {
    if (pairs.scoreA[c] > 0) {
      from[edges] = pairs.a[c];
      to[edges++] = pairs.b[c];
    }
    if (pairs.scoreB[c] > 0) {
      from[edges] = pairs.b[c];
      to[edges++] = pairs.a[c];
    }
  }
  const component = strongComponents(p, from, to, edges);
  const sizes = new Int32Array(p);
  for (let v = 0; v < p; v++) sizes[component[v]]++;
  if (p === 0 || sizes[0] === p) return { penalized: false, provisional: new Array<boolean>(p).fill(false) };
  let largest = 0;
  let unique = true;
  for (let k = 1; k < p; k++) {
    if (sizes[k] > sizes[largest]) {
      largest = k;
      unique = true;
    } else if (sizes[k] === sizes[largest]) {
      unique = false;
    }
  }
  const trusted = unique && sizes[largest] > 1 ? largest : -1;
  return { penalized: true, provisional: Array.from(component, (k) => k !== trusted) };
}

function subtractMean(values: Float64Array): void {
  if (values.length === 0) return;
  let mean = 0;
  for (const v of values) mean += v;
  mean /= values.length;
  for (let k = 0; k < values.length; k++) values[k] -= mean;
}
