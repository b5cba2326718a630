/**
 * The Wilson score interval of a share `p` of `n` trials: the rates a binomial score test would not reject. It
 * stays honest at the edges, where intervals from a fitted model's residuals collapse (0 of 60 allows up to 6%).
 */
export function wilsonInterval(p: number, n: number, z: number): { lower: number; upper: number } {
  const z2 = z * z;
  const centre = (p + z2 / (2 * n)) / (1 + z2 / n);
  const half = (z / (1 + z2 / n)) * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  return { lower: Math.max(0, centre - half), upper: Math.min(1, centre + half) };
}
