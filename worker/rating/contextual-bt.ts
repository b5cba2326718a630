/**
 * Style control as lmarena's arena-rank computes it today (ContextualBradleyTerry): one row per battle,
 *
 *   loss(θ, β) = −mean_i w_i·[y_i·z_i − softplus(z_i)] + ½·reg·‖β‖²,   z_i = θa − θb + β·x_i,
 *
 * θ in logits (rating = 1000 + θ·400/ln10, mean 1000, or shifted onto an anchor), y = 1, 0 or ½ for either
 * kind of tie, x_i the battle's style features standardised over the battles, and w_i = 1 or the inverse
 * pair-frequency weight 1 / max(battles of the pair, 50) normalised to mean 1. Only β is penalised.
 * Intervals are arena-rank's sandwich: H and G per observation (h = w·p(1−p)/N, g = (w·(y−p))²/N), a 1e-5
 * ridge on H's diagonal, G less the penalty's (reg²/N)·ββᵀ, Cov = H⁻¹GH⁻¹/N.
 * Newton's method runs to a vanishing gradient where arena-rank stops L-BFGS at a tolerance.
 */
import { scoreOfA, type Winner } from "./battle-outcome";
import type { Anchor } from "./bradley-terry";
import { choleskyFactorSliced, choleskySolve, inverseFromFactorSliced } from "./cholesky";
import { normalQuantile } from "./normal";
import { strongComponents } from "./strong-components";
import { drain, inChunks, type Sliced, Slicer } from "./work-slices";

export interface ContextualBattle {
  a: number;
  b: number;
  winner: Winner;
  /** the battle's raw features, e.g. contextualStyleFeatures of both sides' counts */
  features: ArrayLike<number>;
}

export interface ContextualOptions {
  /** arena-rank's `reg`: the L2 penalty on the style coefficients */
  reg?: number;
  /** inverse pair-frequency weights (arena-rank's default for style control) */
  reweight?: boolean;
  /** the reweighting's floor on a pair's battles */
  minPairBattles?: number;
  anchor?: Anchor | null;
  coverage?: number;
}

export interface ContextualFit {
  /** 400-scale, mean 1000 or anchored; NaN for a model with no battles */
  ratings: Float64Array;
  lower: Float64Array;
  upper: Float64Array;
  /** log-odds per standard deviation of each feature */
  coefficients: Float64Array;
  coefficientLower: Float64Array;
  coefficientUpper: Float64Array;
  featureMean: Float64Array;
  /** 1 for a feature that never varies, as arena-rank reads a zero deviation */
  featureStd: Float64Array;
  /** the maximum likelihood of θ did not exist (the win graph is not strongly connected): θ was penalised too */
  penalized: boolean;
  iterations: number;
}

const SCALE = 400 / Math.LN10;
const RIDGE = 1e-5;
/** Only when θ's optimum does not exist: a pull toward the mean too weak to matter where data exist. */
const THETA_PENALTY_WHEN_NEEDED = 1e-6;
const GRADIENT_TOLERANCE = 1e-12;
const MAX_ITERATIONS = 200;
/** Below this relative decrease the loss's rounding hides whether a step helped. */
const LOSS_RESOLUTION = 1e-13;

/** arena-rank's features from both sides' counts: (a − b)/(a + b), a + b = 0 read as 1, in the order given. */
export function contextualStyleFeatures(a: readonly number[], b: readonly number[]): number[] {
  return a.map((x, f) => (x - b[f]) / (x + b[f] === 0 ? 1 : x + b[f]));
}

export function fitContextualBradleyTerry(
  n: number,
  battles: readonly ContextualBattle[],
  opts: ContextualOptions = {},
): ContextualFit {
  return drain(fitContextualBradleyTerrySliced(n, battles, opts, new Slicer(Number.POSITIVE_INFINITY)));
}

/**
 * fitContextualBradleyTerry in slices that yield (work-slices.ts): every pass over the battles goes in chunks,
 * the factorisations by column, the intervals by model, so a large style view never holds a shared thread.
 */
export function* fitContextualBradleyTerrySliced(
  n: number,
  battles: readonly ContextualBattle[],
  opts: ContextualOptions,
  slicer: Slicer,
): Sliced<ContextualFit> {
  const reg = opts.reg ?? 1;
  const count = battles.length;
  const k = count === 0 ? 0 : battles[0].features.length;

  // Models that played, compacted; features standardised (population deviation, 0 read as 1).
  const compact = new Int32Array(n).fill(-1);
  const models: number[] = [];
  for (const { a, b } of battles) {
    if (!(Number.isInteger(a) && Number.isInteger(b) && a >= 0 && b >= 0 && a < n && b < n && a !== b))
      throw new RangeError(`a battle needs two different model indices below ${n}, got ${a} and ${b}`);
    for (const m of [a, b]) if (compact[m] === -1) compact[m] = models.push(m) - 1;
  }
  const p = models.length;
  const featureMean = new Float64Array(k);
  const featureStd = new Float64Array(k);
  for (const battle of battles) for (let f = 0; f < k; f++) featureMean[f] += battle.features[f];
  for (let f = 0; f < k; f++) featureMean[f] /= count;
  for (const battle of battles)
    for (let f = 0; f < k; f++) featureStd[f] += (battle.features[f] - featureMean[f]) ** 2 / count;
  // A column that never varies leaves only the mean's rounding behind: scaled up, that would be noise.
  for (let f = 0; f < k; f++)
    featureStd[f] =
      Math.sqrt(featureStd[f]) > 1e-12 * Math.max(1, Math.abs(featureMean[f])) ? Math.sqrt(featureStd[f]) : 1;

  const ia = new Int32Array(count);
  const ib = new Int32Array(count);
  const y = new Float64Array(count);
  const x = new Float64Array(count * k);
  const w = weightsOf(battles, opts.reweight ?? false, opts.minPairBattles ?? 50);
  battles.forEach((battle, i) => {
    ia[i] = compact[battle.a];
    ib[i] = compact[battle.b];
    y[i] = scoreOfA(battle.winner);
    for (let f = 0; f < k; f++) x[i * k + f] = (battle.features[f] - featureMean[f]) / featureStd[f];
  });
  const rows = { count, k, ia, ib, y, x, w };
  if (slicer.spend(3 * count * (k + 1))) yield;

  const penalized = !stronglyConnected(p, rows);
  const thetaPenalty = penalized ? THETA_PENALTY_WHEN_NEEDED : 0;
  const size = p + k;
  const params = new Float64Array(size);
  const iterations = yield* minimize(p, rows, reg, thetaPenalty, params, slicer);
  let mean = 0;
  for (let v = 0; v < p; v++) mean += params[v] / p;
  for (let v = 0; v < p; v++) params[v] -= mean;

  // The sandwich, per observation as arena-rank assembles it.
  const { hessian, spread } = yield* curvature(p, rows, params, reg, false, slicer);
  for (let v = 0; v < size; v++) hessian[v * size + v] += RIDGE;
  for (let f = 0; f < k; f++)
    for (let g = 0; g < k; g++) spread[(p + f) * size + p + g] -= ((reg * reg) / count) * params[p + f] * params[p + g];
  // H and G both vanish along θ's shift (1 on θ, 0 on β): adding it to H changes H⁻¹ only there, where G
  // never looks, and keeps the small ridge from flooding the inverse with rounding.
  let trace = 0;
  for (let v = 0; v < p; v++) trace += hessian[v * size + v];
  const kappa = p > 0 ? trace / (p * p) : 0;
  for (let u = 0; u < p; u++) for (let v = 0; v < p; v++) hessian[u * size + v] += kappa;
  if (!(yield* choleskyFactorSliced(size, hessian, slicer)))
    throw new RangeError("the style fit's Hessian is not positive definite");
  const inverse = symmetricFromUpper(size, yield* inverseFromFactorSliced(size, hessian, slicer));
  const anchor = opts.anchor ?? null;
  const pinned = anchor && compact[anchor.index] !== -1 ? compact[anchor.index] : -1;
  const variance = (u: Float64Array) => quadratic(size, spread, u) / count;
  const direction = new Float64Array(size);
  const z = normalQuantile(1 - (1 - (opts.coverage ?? 0.95)) / 2);

  const ratings = new Float64Array(n).fill(Number.NaN);
  const lower = new Float64Array(n).fill(Number.NaN);
  const upper = new Float64Array(n).fill(Number.NaN);
  const shift = pinned === -1 ? 0 : anchor!.rating - (1000 + SCALE * params[pinned]);
  for (let v = 0; v < p; v++) {
    const m = models[v];
    ratings[m] = 1000 + SCALE * params[v] + shift;
    for (let c = 0; c < size; c++)
      direction[c] = inverse[v * size + c] - (pinned === -1 ? 0 : inverse[pinned * size + c]);
    const se = v === pinned ? 0 : SCALE * Math.sqrt(Math.max(variance(direction), 0));
    lower[m] = ratings[m] - z * se;
    upper[m] = ratings[m] + z * se;
    if (slicer.spend(size * size)) yield;
  }
  if (pinned !== -1) ratings[anchor!.index] = lower[anchor!.index] = upper[anchor!.index] = anchor!.rating;
  const coefficients = params.slice(p);
  const coefficientLower = new Float64Array(k);
  const coefficientUpper = new Float64Array(k);
  for (let f = 0; f < k; f++) {
    for (let c = 0; c < size; c++) direction[c] = inverse[(p + f) * size + c];
    const se = Math.sqrt(Math.max(variance(direction), 0));
    coefficientLower[f] = coefficients[f] - z * se;
    coefficientUpper[f] = coefficients[f] + z * se;
  }
  return {
    ratings,
    lower,
    upper,
    coefficients,
    coefficientLower,
    coefficientUpper,
    featureMean,
    featureStd,
    penalized,
    iterations,
  };
}

interface Rows {
  count: number;
  k: number;
  ia: Int32Array;
  ib: Int32Array;
  y: Float64Array;
  x: Float64Array;
  w: Float64Array;
}

/** 1, or 1 / max(battles of the battle's pair, floor) normalised to mean 1. */
function weightsOf(battles: readonly ContextualBattle[], reweight: boolean, floor: number): Float64Array {
  const w = new Float64Array(battles.length).fill(1);
  if (!reweight || battles.length === 0) return w;
  const pairKey = (a: number, b: number) => (a < b ? `${a},${b}` : `${b},${a}`);
  const perPair = new Map<string, number>();
  for (const { a, b } of battles) perPair.set(pairKey(a, b), (perPair.get(pairKey(a, b)) ?? 0) + 1);
  let sum = 0;
  battles.forEach(({ a, b }, i) => {
    w[i] = 1 / Math.max(perPair.get(pairKey(a, b))!, floor);
    sum += w[i];
  });
  const mean = sum / battles.length;
  for (let i = 0; i < w.length; i++) w[i] /= mean;
  return w;
}

/** θ's optimum exists iff "scored against" (a win, or half of one in a tie) is strongly connected. */
function stronglyConnected(p: number, rows: Rows): boolean {
  if (p <= 1) return true;
  const from = new Int32Array(2 * rows.count);
  const to = new Int32Array(2 * rows.count);
  let edges = 0;
  for (let i = 0; i < rows.count; i++) {
    if (rows.y[i] > 0) {
      from[edges] = rows.ia[i];
      to[edges++] = rows.ib[i];
    }
    if (rows.y[i] < 1) {
      from[edges] = rows.ib[i];
      to[edges++] = rows.ia[i];
    }
  }
  const component = strongComponents(p, from, to, edges);
  return component.every((c) => c === component[0]);
}

/** The loss at params, and its gradient, a chunk of battles at a time. */
function* lossAt(
  p: number,
  rows: Rows,
  params: Float64Array,
  reg: number,
  thetaPenalty: number,
  slicer: Slicer,
  gradient?: Float64Array,
): Sliced<number> {
  const k = rows.k;
  gradient?.fill(0);
  let loss = 0;
  yield* inChunks(rows.count, slicer, (from, to) => {
    loss += lossOver(p, rows, params, from, to, gradient);
  });
  for (let f = 0; f < k; f++) {
    loss += 0.5 * reg * params[p + f] ** 2;
    if (gradient) gradient[p + f] += reg * params[p + f];
  }
  for (let v = 0; v < p; v++) {
    loss += 0.5 * thetaPenalty * params[v] ** 2;
    if (gradient) gradient[v] += thetaPenalty * params[v];
  }
  return loss;
}

/** The battles [from, to)'s share of the loss (returned) and of its gradient (added). */
function lossOver(
  p: number,
  rows: Rows,
  params: Float64Array,
  from: number,
  to: number,
  gradient: Float64Array | undefined,
): number {
  const { count, k, ia, ib, y, x, w } = rows;
  let loss = 0;
  for (let i = from; i < to; i++) {
    let zi = params[ia[i]] - params[ib[i]];
    for (let f = 0; f < k; f++) zi += params[p + f] * x[i * k + f];
    const softplus = zi > 0 ? zi + Math.log1p(Math.exp(-zi)) : Math.log1p(Math.exp(zi));
    loss -= (w[i] * (y[i] * zi - softplus)) / count;
    if (!gradient) continue;
    const residual = (w[i] * (y[i] - 1 / (1 + Math.exp(-zi)))) / count;
    gradient[ia[i]] -= residual;
    gradient[ib[i]] += residual;
    for (let f = 0; f < k; f++) gradient[p + f] -= residual * x[i * k + f];
  }
  return loss;
}

/**
 * H of the mean loss (without the penalties when `withPenalty` is false, as arena-rank's sandwich takes it) and
 * the per-observation spread G = Σ (w·(y − p))²/N·ddᵀ, d the battle's row of (eₐ − e_b, x).
 */
function* curvature(
  p: number,
  rows: Rows,
  params: Float64Array,
  reg: number,
  withPenalty: boolean,
  slicer: Slicer,
): Sliced<{ hessian: Float64Array; spread: Float64Array }> {
  const size = p + rows.k;
  const hessian = new Float64Array(size * size);
  const spread = new Float64Array(size * size);
  const d = new Float64Array(size);
  yield* inChunks(rows.count, slicer, (from, to) => curvatureOver(p, rows, params, from, to, hessian, spread, d));
  if (withPenalty) for (let f = 0; f < rows.k; f++) hessian[(p + f) * size + p + f] += reg;
  return { hessian, spread };
}

function curvatureOver(
  p: number,
  rows: Rows,
  params: Float64Array,
  from: number,
  to: number,
  hessian: Float64Array,
  spread: Float64Array,
  d: Float64Array,
): void {
  const { count, k, ia, ib, y, x, w } = rows;
  const size = p + k;
  const touched: number[] = [];
  for (let i = from; i < to; i++) {
    let zi = params[ia[i]] - params[ib[i]];
    for (let f = 0; f < k; f++) zi += params[p + f] * x[i * k + f];
    const prob = 1 / (1 + Math.exp(-zi));
    const h = (w[i] * prob * (1 - prob)) / count;
    const g = (w[i] * (y[i] - prob)) ** 2 / count;
    touched.length = 0;
    d[ia[i]] = 1;
    d[ib[i]] = -1;
    touched.push(ia[i], ib[i]);
    for (let f = 0; f < k; f++) {
      d[p + f] = x[i * k + f];
      touched.push(p + f);
    }
    for (const r of touched)
      for (const c of touched) {
        hessian[r * size + c] += h * d[r] * d[c];
        spread[r * size + c] += g * d[r] * d[c];
      }
    for (const r of touched) d[r] = 0;
  }
}

/** The full symmetric matrix from one whose upper triangle holds it (inverseFromFactorSliced's), in place. */
function symmetricFromUpper(size: number, m: Float64Array): Float64Array {
  for (let r = 0; r < size; r++) for (let c = 0; c < r; c++) m[r * size + c] = m[c * size + r];
  return m;
}

/**
 * Damped Newton; the shift of θ, where the loss is flat, is held fixed by adding κ along it to H. Near the
 * optimum the loss stops resolving the decrease (a mean of many battles has about 1e-16 of relative precision),
 * so there the full step is taken and the gradient judges it: the fit ends when the gradient stops shrinking.
 */
function* minimize(
  p: number,
  rows: Rows,
  reg: number,
  thetaPenalty: number,
  params: Float64Array,
  slicer: Slicer,
): Sliced<number> {
  const size = params.length;
  const gradient = new Float64Array(size);
  const step = new Float64Array(size);
  const trial = new Float64Array(size);
  const largestOf = (g: Float64Array) => g.reduce((m, x) => Math.max(m, Math.abs(x)), 0);
  let loss = yield* lossAt(p, rows, params, reg, thetaPenalty, slicer, gradient);
  for (let iteration = 1; iteration <= MAX_ITERATIONS; iteration++) {
    const largest = largestOf(gradient);
    if (largest < GRADIENT_TOLERANCE) return iteration - 1;
    const { hessian } = yield* curvature(p, rows, params, reg, true, slicer);
    for (let v = 0; v < p; v++) hessian[v * size + v] += thetaPenalty;
    for (let u = 0; u < p; u++) for (let v = 0; v < p; v++) hessian[u * size + v] += 1 / p;
    if (!(yield* choleskyFactorSliced(size, hessian, slicer)))
      throw new RangeError("the style fit's Hessian is not positive definite");
    choleskySolve(size, hessian, gradient, step);
    let decrement = 0;
    for (let c = 0; c < size; c++) decrement += gradient[c] * step[c];
    let t = 1;
    if (decrement > LOSS_RESOLUTION * Math.max(1, Math.abs(loss))) {
      for (;;) {
        for (let c = 0; c < size; c++) trial[c] = params[c] - t * step[c];
        if ((yield* lossAt(p, rows, trial, reg, thetaPenalty, slicer)) <= loss - 1e-4 * t * decrement || t < 1e-10)
          break;
        t /= 2;
      }
      params.set(trial);
      loss = yield* lossAt(p, rows, params, reg, thetaPenalty, slicer, gradient);
      continue;
    }
    for (let c = 0; c < size; c++) trial[c] = params[c] - step[c];
    const trialGradient = new Float64Array(size);
    const trialLoss = yield* lossAt(p, rows, trial, reg, thetaPenalty, slicer, trialGradient);
    if (!(largestOf(trialGradient) < largest / 2)) return iteration;
    params.set(trial);
    gradient.set(trialGradient);
    loss = trialLoss;
  }
  return MAX_ITERATIONS;
}

/** uᵀ M u for a dense symmetric size×size M. */
function quadratic(size: number, m: Float64Array, u: Float64Array): number {
  let sum = 0;
  for (let r = 0; r < size; r++) {
    if (u[r] === 0) continue;
    let row = 0;
    for (let c = 0; c < size; c++) row += m[r * size + c] * u[c];
    sum += u[r] * row;
  }
  return sum;
}
