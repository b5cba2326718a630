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
import { invertPositiveDefinite } from "./cholesky";
import { normalQuantile } from "./normal";
import type { PairTable } from "./pair-table";

export interface SandwichOptions {
  /** Each cell's weight per battle (pairWeights); absent, every battle weighs 1. */
  weights?: ArrayLike<number> | null;
  anchor?: Anchor | null;
  scale?: number;
  base?: number;
  /** The intervals' two-sided coverage. */
  coverage?: number;
}

export interface SandwichIntervals {
  /** NaN where unknown: a model with no battles */
  lower: Float64Array;
  upper: Float64Array;
  /** the standard error on the rating scale, NaN where unknown */
  standardError: Float64Array;
  /** Var(Ra − Rb) on the rating scale; NaN when either has no battles. Costs p + cells. */
  differenceVariance(a: number, b: number): number;
}

/** arena-rank's `hessian_reg`. */
export const SANDWICH_RIDGE = 1e-5;

/**
 * Intervals around `ratings` (the fit of the same table with the same weights, on the rating scale; NaN for
 * a model with no battles). Dense in the rated models: p³ for the inverse, p × cells for the variances.
 */
export function sandwichIntervals(
  n: number,
  table: PairTable,
  ratings: ArrayLike<number>,
  opts: SandwichOptions = {},
): SandwichIntervals {
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
  // Each cell's share of G, kept per cell: the variances are sums over cells (see below).
  const spread = new Float64Array(table.size);
  let battles = 0;
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
    spread[c] = w * w * miss;
  }
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

  const inverse = invertPositiveDefinite(p, hessian);
  const anchor = opts.anchor ?? null;
  const pinned = anchor && compact[anchor.index] !== -1 ? compact[anchor.index] : -1;

  // Var(θv − θk) = (uv − uk)ᵀ G (uv − uk) with u the rows of H⁻¹ (no k: u_k = 0), and G a sum over cells of
  // g·(eᵢ − eⱼ)(eᵢ − eⱼ)ᵀ: a sum over cells of g·(row[i] − row[j])².
  const row = new Float64Array(p);
  const varianceOf = (v: number, k: number) => {
    for (let x = 0; x < p; x++) row[x] = inverse[v * p + x] - (k === -1 ? 0 : inverse[k * p + x]);
    let variance = 0;
    for (let c = 0; c < table.size; c++) {
      // Zero for a cell with no battles, whose models may not be rated at all.
      if (spread[c] === 0) continue;
      const d = row[compact[table.i[c]]] - row[compact[table.j[c]]];
      variance += spread[c] * d * d;
    }
    return variance / (perUnit * perUnit);
  };
  const lower = new Float64Array(n).fill(Number.NaN);
  const upper = new Float64Array(n).fill(Number.NaN);
  const standardError = new Float64Array(n).fill(Number.NaN);
  for (let v = 0; v < p; v++) {
    const m = models[v];
    const se = v === pinned ? 0 : Math.sqrt(varianceOf(v, pinned));
    standardError[m] = se;
    lower[m] = ratings[m] - z * se;
    upper[m] = ratings[m] + z * se;
  }
  const differenceVariance = (a: number, b: number) =>
    compact[a] === -1 || compact[b] === -1 ? Number.NaN : a === b ? 0 : varianceOf(compact[a], compact[b]);
  return { lower, upper, standardError, differenceVariance };
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
