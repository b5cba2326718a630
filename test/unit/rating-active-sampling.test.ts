import { describe, expect, it } from "vitest";
import { expectedWidthReduction, paperReduction } from "../../worker/rating/active-sampling";

/** Logits per rating point (base 10, scale 400). */
const PER_UNIT = Math.LN10 / 400;
const Z = 1.959963984540054;

describe("the Arena paper's expected narrowing of a pair's interval", () => {
  it("is sqrt(Σ/n) − sqrt(Σ/(n + 1))", () => {
    expect(paperReduction(4, 3)).toBeCloseTo(Math.sqrt(4 / 3) - 1, 15);
    expect(paperReduction(4, 3)).toBeCloseTo(0.1547005, 7);
  });

  it("reads n as the battles the sandwich variance is worth: evenly matched, Var = Σ/3 is three battles", () => {
    // p = ½: one battle's variance Σ = 1 / (½ · ½) = 4 logits²; Var(Ra − Rb) = 4/3 logits² is n = 3 battles.
    const variance = 4 / 3 / PER_UNIT ** 2;
    const expected = (2 * Z * (Math.sqrt(4 / 3) - Math.sqrt(4 / 4))) / PER_UNIT;
    expect(expectedWidthReduction(0, variance)).toBeCloseTo(expected, 9);
    expect(expectedWidthReduction(0, variance)).toBeCloseTo(105.34507, 4);
  });

  it("works from a small covariance matrix: Var(a − b) = Var a + Var b − 2 Cov(a, b)", () => {
    // Var a = 400, Var b = 300, Cov = 100 (rating points²): Var(a − b) = 500 points² = 0.0165684 logits²,
    // n = 4 / 0.0165684 = 241.423 battles, one more narrows the standard error by 0.000265757 logits.
    const variance = 400 + 300 - 2 * 100;
    expect(expectedWidthReduction(0, variance)).toBeCloseTo((2 * Z * 0.000265757) / PER_UNIT, 4);
    expect(expectedWidthReduction(0, variance)).toBeCloseTo(0.18097, 4);
  });

  it("uses the fitted win probability: a 3-to-1 favourite makes one battle's variance 16/3", () => {
    const difference = 400 * Math.log10(3);
    // Var = Σ/1: worth one battle; the next narrows sqrt(16/3) · (1 − sqrt(½)).
    const variance = 16 / 3 / PER_UNIT ** 2;
    const expected = (2 * Z * Math.sqrt(16 / 3) * (1 - Math.SQRT1_2)) / PER_UNIT;
    expect(expectedWidthReduction(difference, variance)).toBeCloseTo(expected, 9);
    expect(expectedWidthReduction(-difference, variance)).toBeCloseTo(expected, 9);
    expect(expected).toBeCloseTo(460.60757, 4);
  });

  it("shrinks as the pair is better known, and reads an unknown variance as one battle's worth", () => {
    const known = [1_000, 100, 10, 1].map((v) => expectedWidthReduction(0, v));
    expect(known).toEqual([...known].sort((a, b) => b - a));
    const oneBattle = expectedWidthReduction(0, 4 / PER_UNIT ** 2);
    expect(expectedWidthReduction(0, null)).toBeCloseTo(oneBattle, 9);
    expect(expectedWidthReduction(0, Number.NaN)).toBeCloseTo(oneBattle, 9);
    expect(expectedWidthReduction(0, Number.POSITIVE_INFINITY)).toBeCloseTo(oneBattle, 9);
  });
});
