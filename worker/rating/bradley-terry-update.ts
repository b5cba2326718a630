/**
 * A refit after a few battles were added, from the previous fit's ratings, stepping with that fit's Hessian
 * factor (the sandwich's, sandwich.ts) instead of a new one: θ ← θ + H₀⁻¹·g(θ). Each step costs one pass over
 * the pair cells for the gradient and two triangular solves (2p² multiply-adds), never a factorisation. With
 * H₀ close to the Hessian at the new optimum (a handful of battles among many) each step gains several digits;
 * it stops at the same gradient tolerance as the exact solvers, so it reaches the same optimum, or gives up
 * (null) and leaves the caller to finish with them.
 */
import { choleskySolve } from "./cholesky";
import { GRADIENT_TOLERANCE, sigmoid, type ScoredPairs } from "./bradley-terry-newton";
import type { HessianFactor } from "./sandwich";
import type { Sliced, Slicer } from "./work-slices";

/** Past this many steps the old Hessian is too far from the new one: the exact solvers finish. */
export const MAX_REUSED_STEPS = 30;

/**
 * Maximises the same objective as the Newton solvers (bradley-terry-newton.ts) in place on `theta`, over
 * compact models `models` (compact index → model index). Returns the steps taken, or null when a model has no
 * row in the factor or the steps stop shrinking the gradient.
 */
export function* maximizeWithFactor(
  models: readonly number[],
  pairs: ScoredPairs,
  penalty: number,
  theta: Float64Array,
  hessian: HessianFactor,
  slicer: Slicer,
): Sliced<number | null> {
  const p = models.length;
  const q = hessian.models.length;
  // The factor's own order: fitted model v is row at[v] of it.
  const at = new Int32Array(p);
  for (let v = 0; v < p; v++) {
    at[v] = models[v] < hessian.compact.length ? hessian.compact[models[v]] : -1;
    if (at[v] === -1) return null;
  }
  if (q !== p) return null;
  const games = new Float64Array(p);
  for (let c = 0; c < pairs.count; c++) {
    games[pairs.a[c]] += pairs.scoreA[c] + pairs.scoreB[c];
    games[pairs.b[c]] += pairs.scoreA[c] + pairs.scoreB[c];
  }
  const gradient = new Float64Array(p);
  const permuted = new Float64Array(q);
  const step = new Float64Array(q);
  let previous = Number.POSITIVE_INFINITY;
  for (let iteration = 0; iteration <= MAX_REUSED_STEPS; iteration++) {
    const worst = gradientOf(pairs, penalty, theta, games, gradient);
    if (slicer.spend(pairs.count)) yield;
    if (worst <= GRADIENT_TOLERANCE) return iteration;
    if (!(worst < previous) || iteration === MAX_REUSED_STEPS) return null;
    previous = worst;
    for (let v = 0; v < p; v++) permuted[at[v]] = gradient[v];
    choleskySolve(q, hessian.factor, permuted, step);
    for (let v = 0; v < p; v++) theta[v] += step[at[v]];
    if (slicer.spend(2 * q * q)) yield;
  }
  return null;
}

/** The gradient of the penalised log-likelihood into `gradient`; returns its largest entry per game played. */
function gradientOf(
  pairs: ScoredPairs,
  penalty: number,
  theta: Float64Array,
  games: Float64Array,
  gradient: Float64Array,
): number {
  gradient.fill(0);
  for (let c = 0; c < pairs.count; c++) {
    const a = pairs.a[c];
    const b = pairs.b[c];
    const d = theta[a] - theta[b];
    const r = pairs.scoreA[c] * sigmoid(-d) - pairs.scoreB[c] * sigmoid(d);
    gradient[a] += r;
    gradient[b] -= r;
  }
  let worst = 0;
  for (let v = 0; v < theta.length; v++) {
    if (penalty > 0) gradient[v] -= penalty * theta[v];
    worst = Math.max(worst, Math.abs(gradient[v]) / Math.max(1, games[v]));
  }
  return worst;
}
