/**
 * The style-controlled loss of style-newton.ts minimised without a dense Hessian: each Newton step is solved by
 * preconditioned conjugate gradients on Hessian-vector products, one pass over the battles each, in slices that
 * yield (work-slices.ts). Memory and time grow with the battles, not with the square and cube of the models.
 * Same loss, same stopping rule, so it reaches the dense solver's optimum.
 */
import { relativeGradient, STYLE_GRADIENT_TOLERANCE, STYLE_MAX_ITERATIONS, type StyleDesign } from "./style-newton";
import { cgBuffers, conjugateGradients, dot } from "./conjugate-gradients";
import { inChunks, type Sliced, type Slicer } from "./work-slices";

const LN10 = Math.LN10;
const ARMIJO = 1e-4;

/** Minimises the loss in place on `params` (θ then β, its value on entry the start); returns the Newton steps. */
export function* minimizeStyleLossSparse(
  d: StyleDesign,
  weights: Float64Array | null,
  lambda: number,
  params: Float64Array,
  slicer: Slicer,
): Sliced<number> {
  if (!(lambda > 0)) throw new RangeError(`the style fit needs a positive L2 penalty, got ${lambda}`);
  const { n, k, count, a, b, y, x } = d;
  const size = n + k;
  const gradient = new Float64Array(size);
  const diagonal = new Float64Array(size);
  const curvature = new Float64Array(count);
  const trial = new Float64Array(size);
  const cg = cgBuffers(size);
  const { step, product } = cg;
  const weight = (i: number) => (weights === null ? 1 : weights[i]);

  const logit = (at: Float64Array, i: number) => {
    let z = LN10 * (at[a[i]] - at[b[i]]);
    for (let f = 0; f < k; f++) z += at[n + f] * x[i * k + f];
    return z;
  };

  function* loss(at: Float64Array): Sliced<number> {
    let sum = 0;
    yield* inChunks(count, slicer, (from, to) => {
      for (let i = from; i < to; i++) {
        const w = weight(i);
        if (w === 0) continue;
        const z = logit(at, i);
        sum += w * (Math.max(z, 0) + Math.log1p(Math.exp(-Math.abs(z))) - y[i] * z);
      }
    });
    for (let v = 0; v < size; v++) sum += 0.5 * lambda * at[v] * at[v];
    return sum;
  }

  /** gradient, diagonal and per-battle curvature at `params` */
  function* derivatives(): Sliced<void> {
    gradient.fill(0);
    diagonal.fill(0);
    yield* inChunks(count, slicer, (from, to) => {
      for (let i = from; i < to; i++) {
        const w = weight(i);
        curvature[i] = 0;
        if (w === 0) continue;
        const z = logit(params, i);
        const e = Math.exp(-Math.abs(z));
        const p = z >= 0 ? 1 / (1 + e) : e / (1 + e);
        const r = w * (p - y[i]);
        const c = (w * e) / ((1 + e) * (1 + e));
        curvature[i] = c;
        gradient[a[i]] += LN10 * r;
        gradient[b[i]] -= LN10 * r;
        if (a[i] !== b[i]) {
          diagonal[a[i]] += LN10 * LN10 * c;
          diagonal[b[i]] += LN10 * LN10 * c;
        }
        for (let f = 0; f < k; f++) {
          const xf = x[i * k + f];
          gradient[n + f] += r * xf;
          diagonal[n + f] += c * xf * xf;
        }
      }
    });
    for (let v = 0; v < size; v++) {
      gradient[v] += lambda * params[v];
      diagonal[v] += lambda;
    }
  }

  /** product = H v, H = Σ cᵢ Jᵢ Jᵢᵀ + λI with Jᵢ = ln10·(e_a − e_b) ⊕ xᵢ */
  function* multiply(v: Float64Array): Sliced<void> {
    for (let q = 0; q < size; q++) product[q] = lambda * v[q];
    yield* inChunks(count, slicer, (from, to) => {
      for (let i = from; i < to; i++) {
        const c = curvature[i];
        if (c === 0) continue;
        const u = c * logit(v, i);
        product[a[i]] += LN10 * u;
        product[b[i]] -= LN10 * u;
        for (let f = 0; f < k; f++) product[n + f] += u * x[i * k + f];
      }
    });
  }

  let current = yield* loss(params);
  for (let iteration = 0; iteration < STYLE_MAX_ITERATIONS; iteration++) {
    yield* derivatives();
    if (relativeGradient(d, weights, gradient) <= STYLE_GRADIENT_TOLERANCE) return iteration;
    if (slicer.spend(count)) yield;
    const norm = Math.sqrt(dot(gradient, gradient));
    yield* conjugateGradients(gradient, -1, diagonal, multiply, cg, Math.min(0.5, Math.sqrt(norm)) * norm);
    const slope = dot(gradient, step);
    if (!(slope < 0)) return iteration;
    // Below the rounding noise of the loss, Armijo can't judge a step (as in the dense solver).
    const judgeable = -slope > 1e-9 * (1 + Math.abs(current));
    let t = 1;
    for (;;) {
      for (let v = 0; v < size; v++) trial[v] = params[v] + t * step[v];
      const trialLoss = yield* loss(trial);
      if (!judgeable || trialLoss <= current + ARMIJO * t * slope) {
        current = trialLoss;
        break;
      }
      t *= 0.5;
      if (t < 1e-12) return iteration;
    }
    params.set(trial);
  }
  return STYLE_MAX_ITERATIONS;
}
