/** Seeded randomness and the order statistics the bootstrap needs; the same seed gives the same numbers everywhere. */
import { sampleBinomial } from "./binomial";
import { drain, Slicer, type Sliced } from "./work-slices";

export { sampleBinomial } from "./binomial";

/**
 * xoshiro128** seeded through splitmix32, returning doubles in [0, 1) with 53 random bits. Math.random can't
 * be seeded, and intervals must not change on reload.
 */
export function seededRandom(seed: number): () => number {
  let mix = seed | 0;
  const splitmix32 = (): number => {
    mix = (mix + 0x9e3779b9) | 0;
    let z = mix;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
    return (z ^ (z >>> 16)) >>> 0;
  };
  let s0 = splitmix32();
  let s1 = splitmix32();
  let s2 = splitmix32();
  let s3 = splitmix32();
  if ((s0 | s1 | s2 | s3) === 0) s0 = 1;
  const next32 = (): number => {
    const result = Math.imul(rotateLeft(Math.imul(s1, 5), 7), 9) >>> 0;
    const t = s1 << 9;
    s2 ^= s0;
    s3 ^= s1;
    s1 ^= s2;
    s0 ^= s3;
    s2 ^= t;
    s3 = rotateLeft(s3, 11);
    return result;
  };
  return () => ((next32() >>> 5) * 67108864 + (next32() >>> 6)) / 9007199254740992;
}

function rotateLeft(x: number, bits: number): number {
  return (x << bits) | (x >>> (32 - bits));
}

/**
 * Multinomial(n; probs) by conditional binomials: cell k gets Binomial(n left, probs[k] / mass left).
 * `probs` need not sum to 1 exactly; they are taken relative to their sum.
 */
export function sampleMultinomial(
  random: () => number,
  n: number,
  probs: ArrayLike<number>,
  out: Float64Array | Int32Array,
): void {
  drain(sampleMultinomialSliced(random, n, probs, out, new Slicer(Number.POSITIVE_INFINITY)));
}

/** A binomial draw costs several pair-cell visits' worth of work (work-slices.ts). */
const WORK_PER_DRAW = 4;

/** sampleMultinomial in slices that yield: the same draws in the same order, so the same numbers. */
export function* sampleMultinomialSliced(
  random: () => number,
  n: number,
  probs: ArrayLike<number>,
  out: Float64Array | Int32Array,
  slicer: Slicer,
): Sliced<void> {
  if (out.length < probs.length) throw new RangeError("out is shorter than probs");
  let massLeft = 0;
  for (let k = 0; k < probs.length; k++) {
    if (!(probs[k] >= 0 && Number.isFinite(probs[k])))
      throw new RangeError(`probability ${k} is not a finite number >= 0`);
    massLeft += probs[k];
  }
  if (n > 0 && !(massLeft > 0)) throw new RangeError("probabilities sum to zero");
  let left = n;
  let last = -1;
  for (let k = 0; k < probs.length; k++) {
    out[k] = 0;
    if (probs[k] > 0) last = k;
  }
  for (let k = 0; k < last && left > 0; k++) {
    if (probs[k] === 0) continue;
    const drawn = sampleBinomial(random, left, Math.min(1, probs[k] / massLeft));
    out[k] = drawn;
    left -= drawn;
    massLeft -= probs[k];
    if (slicer.spend(WORK_PER_DRAW)) yield;
  }
  // The last non-empty cell takes what is left, so rounding in massLeft can never lose or invent a draw.
  if (last >= 0) out[last] = left;
}

/** The q-quantile (q in [0, 1]) of ascending values with linear interpolation, as numpy and pandas do by default. */
export function percentile(sortedAscending: ArrayLike<number>, q: number): number {
  if (!(q >= 0 && q <= 1)) throw new RangeError(`quantile must be in [0, 1], got ${q}`);
  const size = sortedAscending.length;
  if (size === 0) return Number.NaN;
  const position = (size - 1) * q;
  const below = Math.floor(position);
  const above = Math.min(below + 1, size - 1);
  const fraction = position - below;
  const low = sortedAscending[below];
  const high = sortedAscending[above];
  return fraction === 0 ? low : low + (high - low) * fraction;
}

/**
 * The 2.5th and 97.5th percentiles of each column of `samples` (rounds × width, row-major),
 * over the rounds where that column is not NaN.
 */
export function intervalsOf(
  samples: Float64Array,
  rounds: number,
  width: number,
  lower: Float64Array,
  upper: Float64Array,
): void {
  const values = new Float64Array(rounds);
  for (let column = 0; column < width; column++) {
    let size = 0;
    for (let round = 0; round < rounds; round++) {
      const value = samples[round * width + column];
      if (!Number.isNaN(value)) values[size++] = value;
    }
    const sorted = values.subarray(0, size).sort();
    lower[column] = percentile(sorted, 0.025);
    upper[column] = percentile(sorted, 0.975);
  }
}
