import { describe, expect, it } from "vitest";
import { logFactorial } from "../../worker/rating/binomial";
import { percentile, sampleBinomial, sampleMultinomial, seededRandom } from "../../worker/rating/random";

function moments(draws: readonly number[]): { mean: number; variance: number } {
  const mean = draws.reduce((sum, x) => sum + x, 0) / draws.length;
  const variance = draws.reduce((sum, x) => sum + (x - mean) ** 2, 0) / (draws.length - 1);
  return { mean, variance };
}

/** The exact pmf by the recurrence f(k+1) = f(k)·(n−k)/(k+1)·p/(1−p), from f(0) = (1−p)^n. */
function binomialPmf(n: number, p: number): number[] {
  const pmf = [(1 - p) ** n];
  for (let k = 0; k < n; k++) pmf.push((pmf[k] * (n - k) * p) / ((k + 1) * (1 - p)));
  return pmf;
}

/**
 * Pearson's statistic over bins holding at least 5 expected draws (the thin tails pooled into their neighbours),
 * with the Wilson–Hilferty approximation of the chi-square 99.9% quantile for its degrees of freedom.
 */
function chiSquare(draws: readonly number[], pmf: readonly number[]): { statistic: number; critical: number } {
  const observed = new Array<number>(pmf.length).fill(0);
  for (const x of draws) observed[x]++;
  const bins: { expected: number; observed: number }[] = [];
  let pending = { expected: 0, observed: 0 };
  pmf.forEach((p, k) => {
    pending = { expected: pending.expected + p * draws.length, observed: pending.observed + observed[k] };
    if (pending.expected >= 5) {
      bins.push(pending);
      pending = { expected: 0, observed: 0 };
    }
  });
  bins[bins.length - 1].expected += pending.expected;
  bins[bins.length - 1].observed += pending.observed;
  const statistic = bins.reduce((sum, b) => sum + (b.observed - b.expected) ** 2 / b.expected, 0);
  const df = bins.length - 1;
  const z = 3.090232;
  const critical = df * (1 - 2 / (9 * df) + z * Math.sqrt(2 / (9 * df))) ** 3;
  return { statistic, critical };
}

const draw = (seed: number, count: number, n: number, p: number): number[] => {
  const random = seededRandom(seed);
  return Array.from({ length: count }, () => sampleBinomial(random, n, p));
};

describe("seeded randomness", () => {
  it("repeats the same sequence for the same seed and a different one for another seed", () => {
    const first = seededRandom(42);
    const again = seededRandom(42);
    const other = seededRandom(43);
    const a = Array.from({ length: 5 }, first);
    expect(Array.from({ length: 5 }, again)).toEqual(a);
    expect(Array.from({ length: 5 }, other)).not.toEqual(a);
  });

  it("draws doubles in [0, 1) with mean 1/2 and variance 1/12", () => {
    const random = seededRandom(7);
    const draws = Array.from({ length: 200_000 }, random);
    expect(draws.every((x) => x >= 0 && x < 1)).toBe(true);
    const { mean, variance } = moments(draws);
    expect(Math.abs(mean - 0.5)).toBeLessThan(0.003);
    expect(Math.abs(variance - 1 / 12)).toBeLessThan(0.001);
  });
});

describe("binomial sampler", () => {
  it("has mean n·p and variance n·p·(1−p) when n·p is small (inversion)", () => {
    // n·p = 4, variance 3.2; over 100,000 draws the mean's standard error is 0.0057.
    const { mean, variance } = moments(draw(1, 100_000, 20, 0.2));
    expect(Math.abs(mean - 4)).toBeLessThan(0.025);
    expect(Math.abs(variance - 3.2)).toBeLessThan(0.06);
  });

  it("has mean n·p and variance n·p·(1−p) when n·p is large (BTRS)", () => {
    // n·p = 300,000, variance 210,000 (sd 458); over 100,000 draws the mean's standard error is 1.45.
    const { mean, variance } = moments(draw(2, 100_000, 1_000_000, 0.3));
    expect(Math.abs(mean - 300_000)).toBeLessThan(6);
    expect(Math.abs(variance / 210_000 - 1)).toBeLessThan(0.02);
  });

  it("mirrors p above one half: n = 1000, p = 0.9 has mean 900 and variance 90", () => {
    const { mean, variance } = moments(draw(3, 100_000, 1000, 0.9));
    expect(Math.abs(mean - 900)).toBeLessThan(0.15);
    expect(Math.abs(variance / 90 - 1)).toBeLessThan(0.03);
  });

  it.each([
    { n: 25, p: 0.1, method: "inversion" },
    { n: 60, p: 0.4, method: "BTRS just above n·p = 10" },
    { n: 2000, p: 0.05, method: "BTRS with a skewed pmf" },
    { n: 1000, p: 0.5, method: "BTRS at p = 1/2" },
  ])("fits the exact pmf by a chi-square test for n = $n, p = $p ($method)", ({ n, p }) => {
    const { statistic, critical } = chiSquare(draw(n, 200_000, n, p), binomialPmf(n, p));
    expect(statistic).toBeLessThan(critical);
  });

  it("returns the certain outcomes when p is 0 or 1 or n is 0", () => {
    const random = seededRandom(9);
    expect(sampleBinomial(random, 50, 0)).toBe(0);
    expect(sampleBinomial(random, 50, 1)).toBe(50);
    expect(sampleBinomial(random, 0, 0.3)).toBe(0);
    expect(() => sampleBinomial(random, 2.5, 0.3)).toThrow(RangeError);
    expect(() => sampleBinomial(random, 5, 1.5)).toThrow(RangeError);
  });

  it("computes ln k! on both sides of the switch from table to Stirling's series", () => {
    let exact = 0;
    for (let k = 1; k <= 300; k++) {
      exact += Math.log(k);
      if (k >= 250) expect(logFactorial(k)).toBeCloseTo(exact, 10);
    }
    expect(logFactorial(0)).toBe(0);
    expect(logFactorial(5)).toBeCloseTo(Math.log(120), 14);
  });
});

describe("multinomial sampler", () => {
  it("always draws exactly n in total and nothing in an empty cell", () => {
    const random = seededRandom(4);
    const out = new Int32Array(5);
    for (const n of [0, 1, 7, 1_000, 1_000_000]) {
      sampleMultinomial(random, n, [0.5, 0, 0.3, 0.2, 0], out);
      expect(out.reduce((sum, x) => sum + x, 0)).toBe(n);
      expect(out[1]).toBe(0);
      expect(out[4]).toBe(0);
    }
  });

  it("gives each cell n·p_k on average, taking probabilities relative to their sum", () => {
    const random = seededRandom(5);
    const totals = new Float64Array(3);
    const out = new Float64Array(3);
    for (let round = 0; round < 2000; round++) {
      sampleMultinomial(random, 100, [2, 1, 1], out);
      for (let k = 0; k < 3; k++) totals[k] += out[k];
    }
    // Expected 50, 25, 25 per draw; the standard error of each mean over 2000 draws is about 0.1.
    expect(Math.abs(totals[0] / 2000 - 50)).toBeLessThan(0.4);
    expect(Math.abs(totals[1] / 2000 - 25)).toBeLessThan(0.4);
    expect(Math.abs(totals[2] / 2000 - 25)).toBeLessThan(0.4);
  });
});

describe("percentile", () => {
  it("interpolates linearly between order statistics like numpy.percentile", () => {
    // numpy: position (n−1)·q, then x[lo] + fraction·(x[lo+1] − x[lo]).
    expect(percentile([1, 2, 3, 4], 0.25)).toBeCloseTo(1.75, 12); // position 0.75
    expect(percentile([1, 2, 3, 4], 0.5)).toBeCloseTo(2.5, 12); // position 1.5
    expect(percentile([15, 20, 35, 40, 50], 0.4)).toBeCloseTo(29, 12); // position 1.6: 20 + 0.6·15
    expect(percentile([10, 20, 30, 40, 50], 0.025)).toBeCloseTo(11, 12); // position 0.1
    expect(percentile([10, 20, 30, 40, 50], 0.975)).toBeCloseTo(49, 12); // position 3.9
    expect(percentile([10, 20, 30, 40, 50], 0)).toBe(10);
    expect(percentile([10, 20, 30, 40, 50], 1)).toBe(50);
    expect(percentile([7], 0.975)).toBe(7);
  });

  it("is NaN for no values and rejects a quantile outside [0, 1]", () => {
    expect(percentile([], 0.5)).toBeNaN();
    expect(() => percentile([1, 2], 97.5)).toThrow(RangeError);
  });
});
