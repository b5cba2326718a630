/**
 * Cholesky factorisation of symmetric positive-definite p×p matrices (row-major), and what it gives: solves,
 * and the inverse. The sliced forms hand the thread back between columns or rows (work-slices.ts), so a
 * thousand-model factorisation never holds a shared thread for long.
 */
import { drain, type Sliced, Slicer } from "./work-slices";

/**
 * Overwrites the lower triangle of a symmetric positive-definite p×p matrix (row-major) with its Cholesky
 * factor L (A = L Lᵀ). Returns false when A is not numerically positive definite; A is then meaningless.
 */
export function choleskyFactor(p: number, a: Float64Array): boolean {
  return drain(choleskyFactorSliced(p, a, new Slicer(Number.POSITIVE_INFINITY)));
}

/** choleskyFactor in slices: column j costs about j·(p − j) multiply-adds. */
export function* choleskyFactorSliced(p: number, a: Float64Array, slicer: Slicer): Sliced<boolean> {
  for (let j = 0; j < p; j++) {
    if (!factorColumn(p, a, j)) return false;
    if (slicer.spend((j + 1) * (p - j))) yield;
  }
  return true;
}

// The loops live in plain functions: V8 optimises them better than code inside a generator.
function factorColumn(p: number, a: Float64Array, j: number): boolean {
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
  const upper = drain(inverseFromFactorSliced(p, a, new Slicer(Number.POSITIVE_INFINITY)));
  const inverse = new Float64Array(p * p);
  for (let x = 0; x < p; x++) for (let y = x; y < p; y++) inverse[x * p + y] = inverse[y * p + x] = upper[x * p + y];
  return inverse;
}

/**
 * A⁻¹ from the factor L in `l` (left as it is), as a new p×p array whose upper triangle (y ≥ x) holds it.
 * A⁻¹ = Zᵀ Z with Z = L⁻¹: the columns of Z by forward substitution, kept as the rows of Zᵀ, then each entry of
 * A⁻¹ a dot product of two of those rows, written over the first of them where it is no longer read. About p³/3
 * multiply-adds, every one along a row.
 */
export function* inverseFromFactorSliced(p: number, l: Float64Array, slicer: Slicer): Sliced<Float64Array> {
  // Row k of zt is column k of Z = L⁻¹: zero before k.
  const zt = new Float64Array(p * p);
  for (let k = 0; k < p; k++) {
    inverseFactorColumn(p, l, zt, k);
    if (slicer.spend(((p - k) * (p - k)) / 2 + 1)) yield;
  }
  for (let x = 0; x < p; x++) {
    inverseRow(p, zt, x);
    if (slicer.spend(((p - x) * (p - x)) / 2 + 1)) yield;
  }
  return zt;
}

function inverseFactorColumn(p: number, l: Float64Array, zt: Float64Array, k: number): void {
  const z = k * p;
  zt[z + k] = 1 / l[k * p + k];
  for (let i = k + 1; i < p; i++) {
    const rowI = i * p;
    let sum = 0;
    for (let m = k; m < i; m++) sum -= l[rowI + m] * zt[z + m];
    zt[z + i] = sum / l[rowI + i];
  }
}

/**
 * (A⁻¹)xy = Σ_{k ≥ max(x, y)} Z_kx·Z_ky. Entry (x, y ≥ x) reads rows x and y from y on, so it may take zt's
 * place (x, y): later entries of row x read from y + 1 on, and later rows never read row x.
 */
function inverseRow(p: number, zt: Float64Array, x: number): void {
  const rowX = x * p;
  for (let y = x; y < p; y++) {
    const rowY = y * p;
    let sum = 0;
    for (let k = y; k < p; k++) sum += zt[rowX + k] * zt[rowY + k];
    zt[rowX + y] = sum;
  }
}
