/**
 * Newton's method for the Bradley–Terry log-likelihood without a dense Hessian: each Newton step is solved by
 * preconditioned conjugate gradients on Hessian-vector products, which cost one pass over the pair cells. Time
 * and memory are then linear in the pairs that played, not cubic and quadratic in the models, and the work
 * yields between slices (work-slices.ts). Same objective, same stopping rule as the dense solver
 * (bradley-terry-newton.ts), so both reach the same optimum.
 */
import {
  ARMIJO,
  GRADIENT_TOLERANCE,
  logSigmoid,
  MAX_ITERATIONS,
  sigmoid,
  type ScoredPairs,
} from "./bradley-terry-newton";
import { cgBuffers, conjugateGradients, dot } from "./conjugate-gradients";
import { inChunks, type Sliced, type Slicer } from "./work-slices";

/**
 * Maximises Σ log-likelihood − (penalty/2)·‖θ‖² in place on `theta`; returns the Newton steps taken. With
 * penalty 0 the Hessian is a singular Laplacian L, so the step solves (L + s·11ᵀ) d = g as the dense solver
 * does (the gradient sums to zero, so d has mean zero and the mean of θ never moves).
 */
export function* maximizeLikelihoodSparse(
  p: number,
  pairs: ScoredPairs,
  penalty: number,
  theta: Float64Array,
  slicer: Slicer,
): Sliced<number> {
  const { a, b, scoreA, scoreB } = pairs;
  const count = pairs.count;
  const games = new Float64Array(p);
  for (let c = 0; c < count; c++) {
    const total = scoreA[c] + scoreB[c];
    games[a[c]] += total;
    games[b[c]] += total;
  }
  const gradient = new Float64Array(p);
  const curvature = new Float64Array(count);
  const diagonal = new Float64Array(p);
  const trial = new Float64Array(p);
  const cg = cgBuffers(p);
  const { step, product } = cg;
  let shift = 0;

  function* objective(at: Float64Array): Sliced<number> {
    let sum = 0;
    yield* inChunks(count, slicer, (from, to) => {
      for (let c = from; c < to; c++) {
        const d = at[a[c]] - at[b[c]];
        sum += scoreA[c] * logSigmoid(d) + scoreB[c] * logSigmoid(-d);
      }
    });
    if (penalty > 0) for (let v = 0; v < p; v++) sum -= 0.5 * penalty * at[v] * at[v];
    return sum;
  }

  /** product = (L + penalty·I + shift·11ᵀ) x */
  function* multiply(x: Float64Array): Sliced<void> {
    let total = 0;
    for (let v = 0; v < p; v++) total += x[v];
    for (let v = 0; v < p; v++) product[v] = penalty * x[v] + shift * total;
    yield* inChunks(count, slicer, (from, to) => {
      for (let c = from; c < to; c++) {
        const flow = curvature[c] * (x[a[c]] - x[b[c]]);
        product[a[c]] += flow;
        product[b[c]] -= flow;
      }
    });
  }

  for (let iteration = 0; iteration < MAX_ITERATIONS; iteration++) {
    gradient.fill(0);
    diagonal.fill(0);
    yield* inChunks(count, slicer, (from, to) => {
      for (let c = from; c < to; c++) {
        const d = theta[a[c]] - theta[b[c]];
        const pa = sigmoid(d);
        const pb = sigmoid(-d);
        const r = scoreA[c] * pb - scoreB[c] * pa;
        const w = (scoreA[c] + scoreB[c]) * pa * pb;
        curvature[c] = w;
        gradient[a[c]] += r;
        gradient[b[c]] -= r;
        diagonal[a[c]] += w;
        diagonal[b[c]] += w;
      }
    });
    let worst = 0;
    let trace = 0;
    for (let v = 0; v < p; v++) {
      if (penalty > 0) {
        gradient[v] -= penalty * theta[v];
        diagonal[v] += penalty;
      }
      worst = Math.max(worst, Math.abs(gradient[v]) / Math.max(1, games[v]));
      trace += diagonal[v];
    }
    if (worst <= GRADIENT_TOLERANCE) return iteration;
    shift = penalty === 0 ? trace / (p * p) : 0;
    for (let v = 0; v < p; v++) diagonal[v] += shift;

    // Inexact Newton: a loose solve far from the optimum, a tighter one near it (superlinear convergence).
    const norm = Math.sqrt(dot(gradient, gradient));
    yield* conjugateGradients(gradient, 1, diagonal, multiply, cg, Math.min(0.5, Math.sqrt(norm)) * norm);

    const slope = dot(gradient, step);
    if (!(slope > 0)) return iteration;
    const before = yield* objective(theta);
    // Below the rounding noise of the objective, Armijo can no longer judge a step (as in the dense solver).
    const judgeable = slope > 1e-9 * (1 + Math.abs(before));
    let t = 1;
    for (;;) {
      for (let v = 0; v < p; v++) trial[v] = theta[v] + t * step[v];
      if (!judgeable || (yield* objective(trial)) >= before + ARMIJO * t * slope) break;
      t *= 0.5;
      if (t < 1e-12) return iteration;
    }
    theta.set(trial);
  }
  return MAX_ITERATIONS;
}
