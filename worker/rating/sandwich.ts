/**
 * Closed-form ("sandwich") confidence intervals for Bradley–Terry ratings, as lmarena's arena-rank computes the
 * Arena's leaderboard since 2025: at the fitted ratings θ, with p = σ(θi − θj) for each battle of i against j,
 * outcome y (1, 0, or ½ for either kind of tie) and weight w (1, or the pair's reweighting),
 *
 *   H = Σ w·p(1 − p)·(eᵢ − eⱼ)(eᵢ − eⱼ)ᵀ + ridge·I        G = Σ w²·(y − p)²·(eᵢ − eⱼ)(eᵢ − eⱼ)ᵀ
 *
 * and Cov(θ) = H⁻¹ G H⁻¹. The ridge is 1e-5 × battles unweighted and 1e-5 weighted, as there. Both sums are
 * linear in battles, so the pair-count cells give exactly what per-battle rows would. With an anchor the
 * interval is that of the difference to the anchor, whose own interval collapses to its pinned rating.
 */
import type { Anchor } from "./bradley-terry";
import { choleskyFactorSliced, inverseFromFactorSliced } from "./cholesky";
import { normalQuantile } from "./normal";
import type { PairTable } from "./pair-table";
import { drain, type Sliced, Slicer } from "./work-slices";

export interface SandwichOptions {
  /** Each cell's weight per battle (pairWeights); absent, every battle weighs 1. */
  weights?: ArrayLike<number> | null;
  anchor?: Anchor | null;
  scale?: number;
  base?: number;
  /** The intervals' two-sided coverage. */
  coverage?: number;
}

/**
 * The Cholesky factor of H (+ the ridge, + κ·11ᵀ) over the rated models, in logits: what a later refit of the
 * same models steps with (bradley-terry-update.ts), so no refit factorises again.
 */
export interface HessianFactor {
  /** rated models, compact index → model index */
  models: Int32Array;
  /** model index → compact index, −1 for a model not rated */
  compact: Int32Array;
  /** row-major p×p, L in the lower triangle */
  factor: Float64Array;
}

export interface SandwichIntervals {
  /** NaN where unknown: a model with no battles */
  lower: Float64Array;
  upper: Float64Array;
  /** the standard error on the rating scale, NaN where unknown */
  standardError: Float64Array;
  /**
   * Var(Ra − Rb) on the rating scale; NaN when either has no battles. Free for models next to each other by
   * rating (computed with the standard errors); any other pair costs p + cells.
   */
  differenceVariance(a: number, b: number): number;
  hessian: HessianFactor;
}

/** arena-rank's `hessian_reg`. */
export const SANDWICH_RIDGE = 1e-5;

/**
 * Intervals around `ratings` (the fit of the same table with the same weights, on the rating scale; NaN for
 * a model with no battles). Dense in the rated models: about p³/2 multiply-adds for the factor and H⁻¹, and p
 * passes over the cells for the variances.
 */
export function sandwichIntervals(
  n: number,
  table: PairTable,
  ratings: ArrayLike<number>,
  opts: SandwichOptions = {},
): SandwichIntervals {
  return drain(sandwichIntervalsSliced(n, table, ratings, opts, new Slicer(Number.POSITIVE_INFINITY)));
}

/** sandwichIntervals in slices that yield (work-slices.ts). */
export function* sandwichIntervalsSliced(
  n: number,
  table: PairTable,
  ratings: ArrayLike<number>,
  opts: SandwichOptions,
  slicer: Slicer,
): Sliced<SandwichIntervals> {
  const perUnit = Math.log(opts.base ?? 10) / (opts.scale ?? 400);
  const z = normalQuantile(1 - (1 - (opts.coverage ?? 0.95)) / 2);
  const weights = opts.weights ?? null;

  const compact = new Int32Array(n).fill(-1);
  const models: number[] = [];
  for (let c = 0; c < table.size; c++) {
    if (table.winsI[c] + table.winsJ[c] + table.ties[c] === 0) continue;
    for (const m of [table.i[c], table.j[c]]) {
      if (!Number.isFinite(ratings[m])) throw new RangeError(`model ${m} has battles but no finite rating`);
      if (compact[m] === -1) compact[m] = models.push(m) - 1;
    }
  }
  const p = models.length;

  const hessian = new Float64Array(p * p);
  // Each cell's share of G and its models in compact indices, kept per cell: the variances are sums over cells.
  const spread = new Float64Array(table.size);
  const from = new Int32Array(table.size);
  const to = new Int32Array(table.size);
  let battles = 0;
  let cells = 0;
  for (let c = 0; c < table.size; c++) {
    const total = table.winsI[c] + table.winsJ[c] + table.ties[c];
    if (total === 0) continue;
    battles += total;
    const w = weights ? weights[c] : 1;
    const prob = 1 / (1 + Math.exp(-(ratings[table.i[c]] - ratings[table.j[c]]) * perUnit));
    const h = w * prob * (1 - prob) * total;
    const a = compact[table.i[c]];
    const b = compact[table.j[c]];
    hessian[a * p + a] += h;
    hessian[b * p + b] += h;
    hessian[a * p + b] -= h;
    hessian[b * p + a] -= h;
    const miss = table.winsI[c] * (1 - prob) ** 2 + table.winsJ[c] * prob ** 2 + table.ties[c] * (0.5 - prob) ** 2;
    spread[cells] = w * w * miss;
    from[cells] = a;
    to[cells++] = b;
  }
  if (slicer.spend(table.size + p * p)) yield;
  const ridge = weights ? SANDWICH_RIDGE : SANDWICH_RIDGE * battles;
  let trace = 0;
  for (let v = 0; v < p; v++) {
    hessian[v * p + v] += ridge;
    trace += hessian[v * p + v];
  }
  // G·1 = 0, so C = H⁻¹GH⁻¹ never sees H⁻¹ along 1, where the small ridge alone would make H⁻¹ huge and its
  // rounding leak into the rest. Adding κ·11ᵀ changes H⁻¹ only along 1: the same C, well conditioned.
  const kappa = trace / (p * p);
  for (let k = 0; k < p * p; k++) hessian[k] += kappa;

  if (!(yield* choleskyFactorSliced(p, hessian, slicer)))
    throw new RangeError("the sandwich's H is not positive definite");
  const inverse = yield* inverseFromFactorSliced(p, hessian, slicer);
  const anchor = opts.anchor ?? null;
  const pinned = anchor && compact[anchor.index] !== -1 ? compact[anchor.index] : -1;

  // Row v of H⁻¹ (u_v), from the upper triangle it is kept in.
  const rowOf = (v: number, out: Float64Array) => {
    for (let x = 0; x < v; x++) out[x] = inverse[x * p + v];
    for (let x = v; x < p; x++) out[x] = inverse[v * p + x];
  };
  // Cov(θv, θw) = u_vᵀ G u_w, and G is a sum over cells of g·(eᵢ − eⱼ)(eᵢ − eⱼ)ᵀ: a sum over cells of
  // g·(u_v[i] − u_v[j])·(u_w[i] − u_w[j]). The anchor's differences per cell are the same for every v.
  const anchorRow = new Float64Array(p);
  const anchorDiff = new Float64Array(cells);
  let anchorVariance = 0;
  if (pinned !== -1) {
    rowOf(pinned, anchorRow);
    for (let c = 0; c < cells; c++) {
      anchorDiff[c] = anchorRow[from[c]] - anchorRow[to[c]];
      anchorVariance += spread[c] * anchorDiff[c] * anchorDiff[c];
    }
  }
  // Each model's neighbour below by rating: its covariance comes from the same pass (the leaderboard's separations).
  const byRating = Array.from({ length: p }, (_, v) => v).sort((a, b) => ratings[models[b]] - ratings[models[a]]);
  const below = new Int32Array(p).fill(-1);
  for (let k = 0; k + 1 < p; k++) below[byRating[k]] = byRating[k + 1];
  const variance = new Float64Array(p);
  const withAnchor = new Float64Array(p);
  const withBelow = new Float64Array(p);
  const row = new Float64Array(p);
  const next = new Float64Array(p);
  for (let v = 0; v < p; v++) {
    rowOf(v, row);
    const w = below[v];
    if (w === -1) next.fill(0);
    else rowOf(w, next);
    const [own, cross, pair] = covariancesOver(cells, spread, from, to, row, anchorDiff, next);
    variance[v] = own;
    withAnchor[v] = cross;
    withBelow[v] = pair;
    if (slicer.spend(2 * cells + p)) yield;
  }

  const scale2 = perUnit * perUnit;
  const lower = new Float64Array(n).fill(Number.NaN);
  const upper = new Float64Array(n).fill(Number.NaN);
  const standardError = new Float64Array(n).fill(Number.NaN);
  for (let v = 0; v < p; v++) {
    const m = models[v];
    // Var(θv − θk) = Cvv − 2·Cvk + Ckk.
    const toAnchor = pinned === -1 ? variance[v] : variance[v] - 2 * withAnchor[v] + anchorVariance;
    const se = v === pinned ? 0 : Math.sqrt(Math.max(toAnchor, 0) / scale2);
    standardError[m] = se;
    lower[m] = ratings[m] - z * se;
    upper[m] = ratings[m] + z * se;
  }

  const rowA = new Float64Array(p);
  const rowB = new Float64Array(p);
  const differenceVariance = (a: number, b: number) => {
    const [x, y] = [compact[a], compact[b]];
    if (x === -1 || y === -1) return Number.NaN;
    if (a === b) return 0;
    if (below[x] === y) return (variance[x] + variance[y] - 2 * withBelow[x]) / scale2;
    if (below[y] === x) return (variance[x] + variance[y] - 2 * withBelow[y]) / scale2;
    rowOf(x, rowA);
    rowOf(y, rowB);
    let sum = 0;
    for (let c = 0; c < cells; c++) {
      const d = rowA[from[c]] - rowB[from[c]] - (rowA[to[c]] - rowB[to[c]]);
      sum += spread[c] * d * d;
    }
    return sum / scale2;
  };
  return {
    lower,
    upper,
    standardError,
    differenceVariance,
    hessian: { models: Int32Array.from(models), compact, factor: hessian },
  };
}

/**
 * uᵀGu, uᵀG·(the anchor's differences) and uᵀGv over the cells, for u and v rows of H⁻¹: the hot loop, kept
 * out of the generator, which V8 optimises less.
 */
function covariancesOver(
  cells: number,
  spread: Float64Array,
  from: Int32Array,
  to: Int32Array,
  u: Float64Array,
  anchorDiff: Float64Array,
  v: Float64Array,
): [number, number, number] {
  let own = 0;
  let cross = 0;
  let pair = 0;
  for (let c = 0; c < cells; c++) {
    const i = from[c];
    const j = to[c];
    const d = u[i] - u[j];
    const g = spread[c] * d;
    own += g * d;
    cross += g * anchorDiff[c];
    pair += g * (v[i] - v[j]);
  }
  return [own, cross, pair];
}

/**
 * How many more battles between a and b, at the rate a wins now, until the interval of their difference
 * leaves out zero: each battle adds p(1 − p) to the precision of the difference (in logits). An estimate —
 * battles elsewhere move it too. 0 when they are apart already; null when their ratings are equal.
 */
export function battlesToSeparate(
  difference: number,
  differenceVariance: number,
  opts: { scale?: number; base?: number; coverage?: number } = {},
): number | null {
  const perUnit = Math.log(opts.base ?? 10) / (opts.scale ?? 400);
  const z = normalQuantile(1 - (1 - (opts.coverage ?? 0.95)) / 2);
  const gap = Math.abs(difference) * perUnit;
  if (!(gap > 0) || !Number.isFinite(differenceVariance)) return null;
  const have = 1 / (differenceVariance * perUnit * perUnit);
  const need = (z * z) / (gap * gap);
  if (have >= need) return 0;
  const p = 1 / (1 + Math.exp(-gap));
  return Math.ceil((need - have) / (p * (1 - p)));
}

/**
 * arena-rank's inverse pair-frequency weights: each battle of a pair weighs 1 / max(battles of the pair,
 * minimum), so a pair played a thousand times counts no more than one played `minimum` times.
 */
export function pairWeights(table: PairTable, minimum = 50): Float64Array {
  const weights = new Float64Array(table.size);
  for (let c = 0; c < table.size; c++)
    weights[c] = 1 / Math.max(table.winsI[c] + table.winsJ[c] + table.ties[c], minimum);
  return weights;
}

/** The table with each cell's counts multiplied by its weight: the weighted likelihood is this table's. */
export function weightedTable(table: PairTable, weights: ArrayLike<number>): PairTable {
  const scaled = (counts: Float64Array) => counts.map((x, c) => x * weights[c]);
  return { ...table, winsI: scaled(table.winsI), winsJ: scaled(table.winsJ), ties: scaled(table.ties) };
}
