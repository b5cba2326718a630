/**
 * The baseline of the BT benchmark: the same Bradley–Terry fit as worker/rating (Newton's method, the same
 * tolerance, line search and Cholesky solve) but with one term per battle, as Chatbot Arena's notebook fits
 * its logistic regression on battle rows, and a bootstrap that resamples the battle rows themselves.
 */
import { solvePositiveDefinite } from "../worker/rating/cholesky";
import { percentile, seededRandom } from "../worker/rating/random";

export interface BattleRows {
  count: number;
  a: Int32Array;
  b: Int32Array;
  /** model A's score: 1, 0 or ½ (both kinds of tie) */
  score: Float64Array;
}

const GRADIENT_TOLERANCE = 1e-10;
const MAX_ITERATIONS = 200;
const ARMIJO = 1e-4;

const logSigmoid = (x: number) => (x >= 0 ? -Math.log1p(Math.exp(-x)) : x - Math.log1p(Math.exp(x)));
const sigmoid = (x: number) => {
  if (x >= 0) return 1 / (1 + Math.exp(-x));
  const e = Math.exp(x);
  return e / (1 + e);
};

function objective(rows: BattleRows, theta: Float64Array): number {
  let sum = 0;
  for (let k = 0; k < rows.count; k++) {
    const d = theta[rows.a[k]] - theta[rows.b[k]];
    const s = rows.score[k];
    sum += s * logSigmoid(d) + (1 - s) * logSigmoid(-d);
  }
  return sum;
}

/** Newton on the battle rows, in place on θ (natural-log strengths); the win graph must be strongly connected. */
function maximize(p: number, rows: BattleRows, theta: Float64Array): number {
  const games = new Float64Array(p);
  for (let k = 0; k < rows.count; k++) {
    games[rows.a[k]]++;
    games[rows.b[k]]++;
  }
  const gradient = new Float64Array(p);
  const hessian = new Float64Array(p * p);
  const step = new Float64Array(p);
  const trial = new Float64Array(p);
  for (let iteration = 0; iteration < MAX_ITERATIONS; iteration++) {
    gradient.fill(0);
    hessian.fill(0);
    for (let k = 0; k < rows.count; k++) {
      const a = rows.a[k];
      const b = rows.b[k];
      const pa = sigmoid(theta[a] - theta[b]);
      const residual = rows.score[k] - pa;
      const curvature = pa * (1 - pa);
      gradient[a] += residual;
      gradient[b] -= residual;
      hessian[a * p + a] += curvature;
      hessian[b * p + b] += curvature;
      hessian[a * p + b] -= curvature;
      hessian[b * p + a] -= curvature;
    }
    let worst = 0;
    let trace = 0;
    for (let v = 0; v < p; v++) {
      worst = Math.max(worst, Math.abs(gradient[v]) / Math.max(1, games[v]));
      trace += hessian[v * p + v];
    }
    if (worst <= GRADIENT_TOLERANCE) return iteration;
    const shift = trace / (p * p);
    for (let e = 0; e < p * p; e++) hessian[e] += shift;
    if (!solvePositiveDefinite(p, hessian, gradient, step)) return iteration;
    let slope = 0;
    for (let v = 0; v < p; v++) slope += gradient[v] * step[v];
    const before = objective(rows, theta);
    const judgeable = slope > 1e-9 * (1 + Math.abs(before));
    let t = 1;
    for (;;) {
      for (let v = 0; v < p; v++) trial[v] = theta[v] + t * step[v];
      if (!judgeable || objective(rows, trial) >= before + ARMIJO * t * slope) break;
      t *= 0.5;
      if (t < 1e-12) return iteration;
    }
    theta.set(trial);
  }
  return MAX_ITERATIONS;
}

const PER_UNIT = Math.log(10) / 400;

function toRatings(theta: Float64Array): Float64Array {
  let mean = 0;
  for (const v of theta) mean += v;
  mean /= theta.length;
  return Float64Array.from(theta, (v) => 1000 + (v - mean) / PER_UNIT);
}

export function fitOnBattles(
  p: number,
  rows: BattleRows,
  start?: Float64Array,
): { ratings: Float64Array; iterations: number } {
  const theta = start ? Float64Array.from(start, (r) => (r - 1000) * PER_UNIT) : new Float64Array(p);
  const iterations = maximize(p, rows, theta);
  return { ratings: toRatings(theta), iterations };
}

/** `rounds` bootstrap rounds, each a resample of the battle rows with replacement, refitted from the full fit. */
export function bootstrapOnBattles(p: number, rows: BattleRows, rounds: number, seed: number) {
  const full = fitOnBattles(p, rows).ratings;
  const random = seededRandom(seed);
  const sample: BattleRows = {
    count: rows.count,
    a: new Int32Array(rows.count),
    b: new Int32Array(rows.count),
    score: new Float64Array(rows.count),
  };
  const samples = new Float64Array(rounds * p);
  for (let round = 0; round < rounds; round++) {
    for (let k = 0; k < rows.count; k++) {
      const pick = Math.floor(random() * rows.count);
      sample.a[k] = rows.a[pick];
      sample.b[k] = rows.b[pick];
      sample.score[k] = rows.score[pick];
    }
    samples.set(fitOnBattles(p, sample, full).ratings, round * p);
  }
  const lower = new Float64Array(p);
  const upper = new Float64Array(p);
  const values = new Float64Array(rounds);
  for (let m = 0; m < p; m++) {
    for (let r = 0; r < rounds; r++) values[r] = samples[r * p + m];
    values.sort();
    lower[m] = percentile(values, 0.025);
    upper[m] = percentile(values, 0.975);
  }
  return { ratings: full, lower, upper };
}

/**
 * An independent check of the optimum: Zermelo's / Hunter's MM iteration on the pair counts (ties half a win
 * each way), run until the strengths stop moving in the 13th digit.
 */
export function fitByMM(
  p: number,
  pairs: { i: number; j: number; winsI: number; winsJ: number; ties: number }[],
): { ratings: Float64Array; iterations: number } {
  const wins = new Float64Array(p);
  for (const c of pairs) {
    wins[c.i] += c.winsI + c.ties / 2;
    wins[c.j] += c.winsJ + c.ties / 2;
  }
  let strength = new Float64Array(p).fill(1);
  let iterations = 0;
  for (; iterations < 1_000_000; iterations++) {
    const denom = new Float64Array(p);
    for (const c of pairs) {
      const n = c.winsI + c.winsJ + c.ties;
      const s = n / (strength[c.i] + strength[c.j]);
      denom[c.i] += s;
      denom[c.j] += s;
    }
    const next = Float64Array.from(wins, (w, v) => w / denom[v]);
    let logMean = 0;
    for (const v of next) logMean += Math.log(v);
    logMean /= p;
    for (let v = 0; v < p; v++) next[v] /= Math.exp(logMean);
    let change = 0;
    for (let v = 0; v < p; v++) change = Math.max(change, Math.abs(Math.log(next[v] / strength[v])));
    strength = next;
    if (change < 1e-13) break;
  }
  return { ratings: toRatings(Float64Array.from(strength, Math.log)), iterations };
}
