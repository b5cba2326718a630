/**
 * Solves A x = b for a symmetric positive-definite p×p matrix (row-major), overwriting A with its Cholesky
 * factor. Returns false when A is not numerically positive definite; x is then meaningless.
 */
export function solvePositiveDefinite(p: number, a: Float64Array, b: Float64Array, x: Float64Array): boolean {
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
  for (let i = 0; i < p; i++) {
    const rowI = i * p;
    let sum = b[i];
    for (let k = 0; k < i; k++) sum -= a[rowI + k] * x[k];
    x[i] = sum / a[rowI + i];
  }
  for (let i = p - 1; i >= 0; i--) {
    let sum = x[i];
    for (let k = i + 1; k < p; k++) sum -= a[k * p + i] * x[k];
    x[i] = sum / a[i * p + i];
  }
  return true;
}
