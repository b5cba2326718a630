/**
 * Overwrites the lower triangle of a symmetric positive-definite p×p matrix (row-major) with its Cholesky
 * factor L (A = L Lᵀ). Returns false when A is not numerically positive definite; A is then meaningless.
 */
export function choleskyFactor(p: number, a: Float64Array): boolean {
  for (let j = 0; j < p; j++) {
    const rowJ = j * p;
    let diagonal = a[rowJ + j];
    for (let k = 0; k < j; k++) diagonal -= a[rowJ + k] * a[rowJ + k];
    if (!(diagonal > 0)) return false;
    const pivot = Math.sqrt(diagonal);
    a[rowJ + j] = pivot;
    for (let i = j + 1; i < p; i++) {
      const rowI = i * p;
      let sum = a[rowI + j];
      for (let k = 0; k < j; k++) sum -= a[rowI + k] * a[rowJ + k];
      a[rowI + j] = sum / pivot;
    }
  }
  return true;
}

/** Solves L Lᵀ x = b with the factor choleskyFactor left in `l`. */
export function choleskySolve(p: number, l: Float64Array, b: ArrayLike<number>, x: Float64Array): void {
  for (let i = 0; i < p; i++) {
    const rowI = i * p;
    let sum = b[i];
    for (let k = 0; k < i; k++) sum -= l[rowI + k] * x[k];
    x[i] = sum / l[rowI + i];
  }
  for (let i = p - 1; i >= 0; i--) {
    let sum = x[i];
    for (let k = i + 1; k < p; k++) sum -= l[k * p + i] * x[k];
    x[i] = sum / l[i * p + i];
  }
}

/**
 * Solves A x = b for a symmetric positive-definite p×p matrix (row-major), overwriting A with its Cholesky
 * factor. Returns false when A is not numerically positive definite; x is then meaningless.
 */
export function solvePositiveDefinite(p: number, a: Float64Array, b: Float64Array, x: Float64Array): boolean {
  if (!choleskyFactor(p, a)) return false;
  choleskySolve(p, a, b, x);
  return true;
}

/** The inverse of a symmetric positive-definite p×p matrix (row-major), from one factorisation; `a` is overwritten. */
export function invertPositiveDefinite(p: number, a: Float64Array): Float64Array {
  if (!choleskyFactor(p, a)) throw new RangeError("the matrix is not positive definite");
  const inverse = new Float64Array(p * p);
  const unit = new Float64Array(p);
  const column = new Float64Array(p);
  for (let k = 0; k < p; k++) {
    unit[k] = 1;
    choleskySolve(p, a, unit, column);
    unit[k] = 0;
    // The inverse is symmetric: its k-th column is its k-th row.
    inverse.set(column, k * p);
  }
  return inverse;
}
