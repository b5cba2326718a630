/**
 * Exact binomial variates: inversion when n·min(p, 1−p) < 10, otherwise Hörmann's BTRS (transformed rejection
 * with squeeze, "The generation of binomial random variates", 1993), which costs O(1) draws whatever n is.
 */

const LOG_FACTORIAL_TABLE_SIZE = 256;
const logFactorialTable = new Float64Array(LOG_FACTORIAL_TABLE_SIZE);
for (let k = 1; k < LOG_FACTORIAL_TABLE_SIZE; k++) logFactorialTable[k] = logFactorialTable[k - 1] + Math.log(k);
const HALF_LOG_TWO_PI = 0.5 * Math.log(2 * Math.PI);

/** ln k! — a table below 256, Stirling's series above (its next term is below 1e-20 there). */
export function logFactorial(k: number): number {
  if (k < LOG_FACTORIAL_TABLE_SIZE) return logFactorialTable[k];
  const inverse = 1 / k;
  const inverseSquared = inverse * inverse;
  return (
    (k + 0.5) * Math.log(k) -
    k +
    HALF_LOG_TWO_PI +
    inverse * (1 / 12 - inverseSquared * (1 / 360 - inverseSquared / 1260))
  );
}

export function sampleBinomial(random: () => number, n: number, p: number): number {
  if (!Number.isSafeInteger(n) || n < 0) throw new RangeError(`binomial n must be a non-negative integer, got ${n}`);
  if (!(p >= 0 && p <= 1)) throw new RangeError(`binomial p must be in [0, 1], got ${p}`);
  if (n === 0 || p === 0) return 0;
  if (p === 1) return n;
  if (p > 0.5) return n - sampleSmallP(random, n, 1 - p);
  return sampleSmallP(random, n, p);
}

function sampleSmallP(random: () => number, n: number, p: number): number {
  return n * p < 10 ? byInversion(random, n, p) : byTransformedRejection(random, n, p);
}

/** Walks the pmf from 0; expected cost n·p + 1 steps. */
function byInversion(random: () => number, n: number, p: number): number {
  const q = 1 - p;
  const ratio = p / q;
  const first = Math.exp(n * Math.log1p(-p));
  for (;;) {
    let u = random();
    let pmf = first;
    for (let k = 0; ; k++) {
      if (u < pmf) return k;
      u -= pmf;
      // Rounding can leave u a hair above the mass left: once the pmf is spent or underflows, draw again.
      if (k === n) break;
      pmf *= ((n - k) / (k + 1)) * ratio;
      if (pmf === 0) break;
    }
  }
}

/** BTRS for p ≤ 1/2 and n·p ≥ 10, with the constants of Hörmann's Table 1. */
function byTransformedRejection(random: () => number, n: number, p: number): number {
  const q = 1 - p;
  const spq = Math.sqrt(n * p * q);
  const b = 1.15 + 2.53 * spq;
  const a = -0.0873 + 0.0248 * b + 0.01 * p;
  const c = n * p + 0.5;
  const alpha = (2.83 + 5.1 / b) * spq;
  const vr = 0.92 - 4.2 / b;
  const logOdds = Math.log(p / q);
  const mode = Math.floor((n + 1) * p);
  const logPmfAtMode = logFactorial(mode) + logFactorial(n - mode);
  for (;;) {
    const u = random() - 0.5;
    const v = random();
    const us = 0.5 - Math.abs(u);
    const k = Math.floor(((2 * a) / us + b) * u + c);
    if (!(k >= 0 && k <= n)) continue;
    if (us >= 0.07 && v <= vr) return k;
    const logRatio = logPmfAtMode - logFactorial(k) - logFactorial(n - k) + (k - mode) * logOdds;
    if (Math.log((v * alpha) / (a / (us * us) + b)) <= logRatio) return k;
  }
}
