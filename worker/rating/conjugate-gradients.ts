/**
 * Preconditioned conjugate gradients for the sparse solvers' Newton steps: solves H·step = ±rhs for a
 * positive definite H known only through its products (one pass over the pair cells or battles each),
 * with H's diagonal as the preconditioner, to a residual below the tolerance the caller chooses.
 */
import type { Sliced } from "./work-slices";

/** A Newton step is exact enough long before this many conjugate-gradient steps on any graph seen in practice. */
const MAX_CG_STEPS = 2_000;

export function dot(x: Float64Array, y: Float64Array): number {
  let sum = 0;
  for (let v = 0; v < x.length; v++) sum += x[v] * y[v];
  return sum;
}

/** The vectors one solve works in; `multiply` writes H·x into `product`, and the answer is left in `step`. */
export interface CgBuffers {
  step: Float64Array;
  product: Float64Array;
  residual: Float64Array;
  preconditioned: Float64Array;
  direction: Float64Array;
}

export const cgBuffers = (size: number): CgBuffers => ({
  step: new Float64Array(size),
  product: new Float64Array(size),
  residual: new Float64Array(size),
  preconditioned: new Float64Array(size),
  direction: new Float64Array(size),
});

/** Solves H·step = sign·rhs into `buffers.step`; stops early where H shows no curvature along a direction. */
export function* conjugateGradients(
  rhs: Float64Array,
  sign: 1 | -1,
  diagonal: Float64Array,
  multiply: (x: Float64Array) => Sliced<void>,
  buffers: CgBuffers,
  tolerance: number,
): Sliced<void> {
  const { step, product, residual, preconditioned, direction } = buffers;
  const size = rhs.length;
  step.fill(0);
  for (let v = 0; v < size; v++) residual[v] = sign * rhs[v];
  for (let v = 0; v < size; v++) direction[v] = preconditioned[v] = residual[v] / diagonal[v];
  let rho = dot(residual, preconditioned);
  const limit = Math.min(MAX_CG_STEPS, Math.max(size, 50));
  for (let k = 0; k < limit; k++) {
    yield* multiply(direction);
    const curvatureAlong = dot(direction, product);
    if (!(curvatureAlong > 0)) return;
    const alpha = rho / curvatureAlong;
    for (let v = 0; v < size; v++) {
      step[v] += alpha * direction[v];
      residual[v] -= alpha * product[v];
    }
    if (Math.sqrt(dot(residual, residual)) <= tolerance) return;
    for (let v = 0; v < size; v++) preconditioned[v] = residual[v] / diagonal[v];
    const next = dot(residual, preconditioned);
    const beta = next / rho;
    rho = next;
    for (let v = 0; v < size; v++) direction[v] = preconditioned[v] + beta * direction[v];
  }
}
