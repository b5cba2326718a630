/**
 * Newton's method for Chatbot Arena's contextual Bradley–Terry loss, one row per battle:
 *   loss(θ, β) = Σ_i w_i·[softplus(z_i) − y_i·z_i] + (λ/2)·(‖θ‖² + ‖β‖²),  z_i = ln10·(θ_a − θ_b) + β·x_i,
 * the binary cross-entropy of FastChat's contextual_bt_loss_and_grad with a tie as y = ½. The penalty makes
 * the Hessian positive definite, so the optimum always exists and the plain Cholesky solve always applies.
 */
import { solvePositiveDefinite } from "./cholesky";

/** Battles as typed columns: model indices, A's score (1, ½, 0) and k standardised features per battle, row-major. */
export interface StyleDesign {
  n: number;
  k: number;
  count: number;
  a: Int32Array;
  b: Int32Array;
  y: Float64Array;
  x: Float64Array;
}

const LN10 = Math.LN10;
export const STYLE_GRADIENT_TOLERANCE = 1e-10;
export const STYLE_MAX_ITERATIONS = 100;
const ARMIJO = 1e-4;
const GRADIENT_TOLERANCE = STYLE_GRADIENT_TOLERANCE;
const MAX_ITERATIONS = STYLE_MAX_ITERATIONS;

/**
 * The loss at `params` (θ then β), with its gradient and the lower triangle of its Hessian — the half the
 * Cholesky solve reads. `weights` (bootstrap multiplicities) default to 1; a battle of weight 0 costs nothing.
 */
function evaluate(
  d: StyleDesign,
  weights: Float64Array | null,
  lambda: number,
  params: Float64Array,
  gradient: Float64Array,
  hessian: Float64Array,
): number {
  const { n, k, count, a, b, y, x } = d;
  const size = n + k;
  gradient.fill(0);
  hessian.fill(0);
  let loss = 0;
  for (let i = 0; i < count; i++) {
    const w = weights === null ? 1 : weights[i];
    if (w === 0) continue;
    const ai = a[i];
    const bi = b[i];
    const row = i * k;
    let z = LN10 * (params[ai] - params[bi]);
    for (let f = 0; f < k; f++) z += params[n + f] * x[row + f];
    const e = Math.exp(-Math.abs(z));
    const p = z >= 0 ? 1 / (1 + e) : e / (1 + e);
    loss += w * (Math.max(z, 0) + Math.log1p(e) - y[i] * z);
    const residual = w * (p - y[i]);
    // p(1 − p) = e/(1 + e)² on either side of 0, without the cancellation of 1 − p near 1.
    const curvature = (w * e) / ((1 + e) * (1 + e));
    gradient[ai] += LN10 * residual;
    gradient[bi] -= LN10 * residual;
    if (ai !== bi) {
      const c = LN10 * LN10 * curvature;
      hessian[ai * size + ai] += c;
      hessian[bi * size + bi] += c;
      hessian[Math.max(ai, bi) * size + Math.min(ai, bi)] -= c;
    }
    for (let f = 0; f < k; f++) {
      const xf = x[row + f];
      gradient[n + f] += residual * xf;
      const rowF = (n + f) * size;
      const cross = LN10 * curvature * xf;
      hessian[rowF + ai] += cross;
      hessian[rowF + bi] -= cross;
      const cf = curvature * xf;
      for (let g = 0; g <= f; g++) hessian[rowF + n + g] += cf * x[row + g];
    }
  }
  for (let v = 0; v < size; v++) {
    loss += 0.5 * lambda * params[v] * params[v];
    gradient[v] += lambda * params[v];
    hessian[v * size + v] += lambda;
  }
  return loss;
}

/** Largest |∂loss| relative to the battles behind it (a model's weighted battles; all battles for a feature). */
export function relativeGradient(d: StyleDesign, weights: Float64Array | null, gradient: Float64Array): number {
  const games = new Float64Array(d.n);
  let total = 0;
  for (let i = 0; i < d.count; i++) {
    const w = weights === null ? 1 : weights[i];
    games[d.a[i]] += w;
    games[d.b[i]] += w;
    total += w;
  }
  let worst = 0;
  for (let v = 0; v < d.n; v++) worst = Math.max(worst, Math.abs(gradient[v]) / Math.max(1, games[v]));
  for (let f = 0; f < d.k; f++) worst = Math.max(worst, Math.abs(gradient[d.n + f]) / Math.max(1, total));
  return worst;
}

/**
 * Minimises the loss in place on `params` (length n + k; its value on entry is the starting point) until the
 * gradient vanishes to 1e-10 of the battles behind each parameter. Returns the number of Newton steps.
 */
export function minimizeStyleLoss(
  d: StyleDesign,
  weights: Float64Array | null,
  lambda: number,
  params: Float64Array,
): number {
  if (!(lambda > 0)) throw new RangeError(`the style fit needs a positive L2 penalty, got ${lambda}`);
  const size = d.n + d.k;
  let gradient = new Float64Array(size);
  let hessian = new Float64Array(size * size);
  let nextGradient = new Float64Array(size);
  let nextHessian = new Float64Array(size * size);
  const descent = new Float64Array(size);
  const step = new Float64Array(size);
  const trial = new Float64Array(size);

  let loss = evaluate(d, weights, lambda, params, gradient, hessian);
  for (let iteration = 0; iteration < MAX_ITERATIONS; iteration++) {
    if (relativeGradient(d, weights, gradient) <= GRADIENT_TOLERANCE) return iteration;
    for (let v = 0; v < size; v++) descent[v] = -gradient[v];
    if (!solvePositiveDefinite(size, hessian, descent, step)) return iteration;
    let slope = 0;
    for (let v = 0; v < size; v++) slope += gradient[v] * step[v];
    // Below the rounding noise of the loss, Armijo can't judge a step; Newton is then quadratic and takes it whole.
    const judgeable = -slope > 1e-9 * (1 + Math.abs(loss));
    let t = 1;
    for (;;) {
      for (let v = 0; v < size; v++) trial[v] = params[v] + t * step[v];
      const trialLoss = evaluate(d, weights, lambda, trial, nextGradient, nextHessian);
      if (!judgeable || trialLoss <= loss + ARMIJO * t * slope) {
        loss = trialLoss;
        break;
      }
      t *= 0.5;
      if (t < 1e-12) return iteration;
    }
    params.set(trial);
    [gradient, nextGradient] = [nextGradient, gradient];
    [hessian, nextHessian] = [nextHessian, hessian];
  }
  return MAX_ITERATIONS;
}
