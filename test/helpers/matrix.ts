/** Dense matrix arithmetic for the rating tests' replicas: plain and independent of worker/rating. */

/** The inverse by Gauss–Jordan elimination with partial pivoting. */
export function gaussJordanInverse(matrix: number[][]): number[][] {
  const n = matrix.length;
  const a = matrix.map((row, r) => [...row, ...Array.from({ length: n }, (_, c) => (c === r ? 1 : 0))]);
  for (let col = 0; col < n; col++) {
    let pivot = col;
    for (let r = col + 1; r < n; r++) if (Math.abs(a[r][col]) > Math.abs(a[pivot][col])) pivot = r;
    [a[col], a[pivot]] = [a[pivot], a[col]];
    const d = a[col][col];
    for (let c = 0; c < 2 * n; c++) a[col][c] /= d;
    for (let r = 0; r < n; r++) {
      if (r === col) continue;
      const f = a[r][col];
      for (let c = 0; c < 2 * n; c++) a[r][c] -= f * a[col][c];
    }
  }
  return a.map((row) => row.slice(n));
}

export function multiply(x: number[][], y: number[][]): number[][] {
  return x.map((row) => y[0].map((_, c) => row.reduce((sum, v, k) => sum + v * y[k][c], 0)));
}
