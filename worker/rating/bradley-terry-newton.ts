/**
 * Newton's method for the Bradley–Terry log-likelihood on pair counts, in natural-log strengths θ
 * (P(a beats b) = σ(θa − θb)). Works in place on `theta`; returns the number of Newton steps taken.
 */
import { solvePositiveDefinite } from "./cholesky";

/** Pairs over compact model indices 0..p-1; a score is the wins plus half the ties. */
export interface ScoredPairs {
  count: number;
  a: Int32Array;
  b: Int32Array;
  scoreA: Float64Array;
  scoreB: Float64Array;
}

/** Largest |gradient| per game a converged fit leaves: far below 0.01 rating points of the exact optimum. */
export const GRADIENT_TOLERANCE = 1e-10;
export const MAX_ITERATIONS = 200;
export const ARMIJO = 1e-4;

/** log σ(x) without overflow or cancellation. */
export function logSigmoid(x: number): number {
  return x >= 0 ? -Math.log1p(Math.exp(-x)) : x - Math.log1p(Math.exp(x));
}

export function sigmoid(x: number): number {
  if (x >= 0) return 1 / (1 + Math.exp(-x));
  const e = Math.exp(x);
  return e / (1 + e);
}

function objective(pairs: ScoredPairs, penalty: number, theta: Float64Array): number {
  let sum = 0;
  for (let c = 0; c < pairs.count; c++) {
    const d = theta[pairs.a[c]] - theta[pairs.b[c]];
    sum += pairs.scoreA[c] * logSigmoid(d) + pairs.scoreB[c] * logSigmoid(-d);
  }
  if (penalty > 0) for (let v = 0; v < theta.length; v++) sum -= 0.5 * penalty * theta[v] * theta[v];
  return sum;
}

/**
 * Maximises Σ log-likelihood − (penalty/2)·‖θ‖². With penalty 0 the maximum exists only when the win graph is
 * strongly connected, and θ is then fixed only up to a constant: the Hessian is a singular Laplacian L, so the
 * step solves (L + c·11ᵀ) d = g, whose solution has 1ᵀd = 0 and L d = g because the gradient sums to zero.
 * The mean of θ therefore never moves from its starting value.
 */
export function maximizeLikelihood(p: number, pairs: ScoredPairs, penalty: number, theta: Float64Array): number {
  const games = new Float64Array(p);
  for (let c = 0; c < pairs.count; c++) {
    const total = pairs.scoreA[c] + pairs.scoreB[c];
    games[pairs.a[c]] += total;
    games[pairs.b[c]] += total;
  }
  const gradient = new Float64Array(p);
  const hessian = new Float64Array(p * p);
  const step = new Float64Array(p);
  const trial = new Float64Array(p);

  for (let iteration = 0; iteration < MAX_ITERATIONS; iteration++) {
    gradient.fill(0);
    hessian.fill(0);
    for (let c = 0; c < pairs.count; c++) {
      const a = pairs.a[c];
      const b = pairs.b[c];
      const d = theta[a] - theta[b];
      const pa = sigmoid(d);
      const pb = sigmoid(-d);
      const residual = pairs.scoreA[c] * pb - pairs.scoreB[c] * pa;
      const curvature = (pairs.scoreA[c] + pairs.scoreB[c]) * pa * pb;
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
      if (penalty > 0) {
        gradient[v] -= penalty * theta[v];
        hessian[v * p + v] += penalty;
      }
      worst = Math.max(worst, Math.abs(gradient[v]) / Math.max(1, games[v]));
      trace += hessian[v * p + v];
    }
    if (worst <= GRADIENT_TOLERANCE) return iteration;

    if (penalty === 0) {
      const shift = trace / (p * p);
      for (let e = 0; e < p * p; e++) hessian[e] += shift;
    }
    if (!solvePositiveDefinite(p, hessian, gradient, step)) return iteration;

    let slope = 0;
    for (let v = 0; v < p; v++) slope += gradient[v] * step[v];
    const before = objective(pairs, penalty, theta);
    // Below the rounding noise of the objective, Armijo can no longer judge a step: Newton is then in its
    // quadratic phase and the full step is the right one.
    const judgeable = slope > 1e-9 * (1 + Math.abs(before));
    let t = 1;
    for (;;) {
      for (let v = 0; v < p; v++) trial[v] = theta[v] + t * step[v];
      if (!judgeable || objective(pairs, penalty, trial) >= before + ARMIJO * t * slope) break;
      t *= 0.5;
      if (t < 1e-12) return iteration;
    }
    theta.set(trial);
  }
  return MAX_ITERATIONS;
}
