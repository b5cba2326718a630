/**
 * The standard normal distribution to about 1e-15 relative accuracy (1e-13 far out in the tails), written
 * out because TrueSkill's updates divide tail probabilities by densities and JavaScript has no erf.
 */

const INV_SQRT_2PI = 1 / Math.sqrt(2 * Math.PI);

/** Beyond this many standard deviations the series loses digits to cancellation and the continued fraction takes over. */
const SERIES_LIMIT = 3;

export function normalPdf(x: number): number {
  return INV_SQRT_2PI * Math.exp(-0.5 * x * x);
}

/**
 * Mills' ratio Φ(−t)/φ(t) for t ≥ SERIES_LIMIT, by the continued fraction 1/(t + 1/(t + 2/(t + 3/(t + …))))
 * evaluated with the modified Lentz method. Scaled by the density, it never underflows.
 */
export function millsRatio(t: number): number {
  if (!(t >= SERIES_LIMIT)) return normalCdf(-t) / normalPdf(t);
  const tiny = 1e-300;
  let f = t;
  let c = t;
  let d = 0;
  for (let k = 1; k < 500; k++) {
    d = t + k * d;
    d = d === 0 ? 1 / tiny : 1 / d;
    c = t + k / c;
    if (c === 0) c = tiny;
    const delta = c * d;
    f *= delta;
    if (Math.abs(delta - 1) < 1e-16) break;
  }
  return 1 / f;
}

/** Φ(x): the series Φ(x) = ½ + φ(x)·(x + x³/3 + x⁵/(3·5) + …) near the centre, Mills' ratio in the tails. */
export function normalCdf(x: number): number {
  if (Number.isNaN(x)) return Number.NaN;
  if (x <= -SERIES_LIMIT) return x < -40 ? 0 : normalPdf(x) * millsRatio(-x);
  if (x >= SERIES_LIMIT) return 1 - normalCdf(-x);
  const x2 = x * x;
  let term = x;
  let sum = x;
  for (let k = 3; Math.abs(term) > 1e-17 * Math.abs(sum); k += 2) {
    term *= x2 / k;
    sum += term;
  }
  return 0.5 + normalPdf(x) * sum;
}

/** Φ⁻¹(q) by Newton's method on normalCdf, which converges monotonically from the start chosen here. */
export function normalQuantile(q: number): number {
  if (!(q >= 0 && q <= 1)) throw new RangeError(`quantile needs q in [0, 1], got ${q}`);
  if (q === 0) return -Infinity;
  if (q === 1) return Infinity;
  // 1 − q is exact for q ≥ ½ (Sterbenz), so solving the lower tail loses nothing.
  if (q > 0.5) return -normalQuantile(1 - q);
  if (q === 0.5) return 0;
  // On x < 0, Φ is convex: from 0 Newton approaches the root from above; from the tail guess −√(−2 ln q),
  // which lies below it, one step lands above it (by at most √(2π)) and the rest descend.
  let x = q < 0.1 ? -Math.sqrt(-2 * Math.log(q)) : 0;
  for (let k = 0; k < 200; k++) {
    const step = (normalCdf(x) - q) / normalPdf(x);
    x -= step;
    if (Math.abs(step) <= 1e-15 * Math.max(1, Math.abs(x))) break;
  }
  return x;
}
