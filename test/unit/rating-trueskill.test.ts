import { describe, expect, it } from "vitest";
import { WINNERS } from "../../worker/rating/battle-outcome";
import { normalCdf, normalPdf, normalQuantile } from "../../worker/rating/normal";
import {
  computeTrueSkill,
  conservative,
  TRUESKILL_DEFAULTS,
  updateTrueSkill,
  type TrueSkillRating,
} from "../../worker/rating/trueskill";

const battle = (modelA: string, modelB: string, winner: (typeof WINNERS)[number]) => ({ modelA, modelB, winner });

function expectRating(actual: TrueSkillRating | undefined, mu: number, sigma: number, digits = 9): void {
  expect(actual).toBeDefined();
  expect(actual?.mu).toBeCloseTo(mu, digits);
  expect(actual?.sigma).toBeCloseTo(sigma, digits);
}

describe("the standard normal distribution", () => {
  it("matches 40-digit reference values of Φ to about 1e-15 relative, tails included", () => {
    // Reference values from mpmath at 40 digits.
    const reference: [number, number][] = [
      [-20, 2.7536241186062337e-89],
      [-10, 7.619853024160525e-24],
      [-5, 2.866515718791939e-7],
      [-3, 1.3498980316300946e-3],
      [-1, 0.15865525393145705],
      [0, 0.5],
      [0.3, 0.6179114221889527],
      [1.96, 0.9750021048517795],
      [5, 0.9999997133484281],
    ];
    for (const [x, value] of reference) expect(Math.abs(normalCdf(x) - value) / value).toBeLessThan(1e-14);
    expect(normalPdf(1)).toBeCloseTo(0.24197072451914334, 16);
  });

  it("inverts Φ: the draw margin's quantile Φ⁻¹(0.55) = 0.12566134685507402, and far tails round-trip", () => {
    expect(normalQuantile(0.55)).toBeCloseTo(0.12566134685507402, 14);
    expect(normalQuantile(0.975)).toBeCloseTo(1.959963984540054, 13);
    expect(normalQuantile(0.5)).toBe(0);
    for (const q of [1e-300, 1e-20, 0.01, 0.3])
      expect(Math.abs(normalCdf(normalQuantile(q)) - q) / q).toBeLessThan(1e-12);
  });
});

describe("TrueSkill", () => {
  it("uses the usual defaults: μ 25, σ 25/3, β 25/6, τ 25/300, draw probability 0.10", () => {
    expect(TRUESKILL_DEFAULTS).toEqual({ mu: 25, sigma: 25 / 3, beta: 25 / 6, tau: 25 / 300, drawProbability: 0.1 });
  });

  it("moves two new models to 29.395832 ± 7.171476 and 20.604168 ± 7.171476 when A wins", () => {
    // σ² + τ² = 69.444444 + 0.006944 = 69.451389 per side; c² = 2β² + 2·69.451389 = 34.722222 + 138.902778
    // = 173.625, c = 13.176684. Draw margin ε = Φ⁻¹((0.1 + 1)/2)·√2·β = 0.1256613·1.4142136·4.1666667 = 0.7404666,
    // so ε/c = 0.0561952 and t = (μA − μB)/c = 0. A win: x = t − ε/c = −0.0561952,
    // v = φ(x)/Φ(x) = 0.3983129/0.4775931 = 0.8340004, w = v·(v + x) = 0.8340004·0.7778052 = 0.6486898.
    // μA = 25 + (69.451389/13.176684)·v = 25 + 5.2707790·0.8340004 = 29.3958317; μB = 25 − 4.3958317.
    // σ² ← 69.451389·(1 − (69.451389/173.625)·w) = 69.451389·(1 − 0.4000080·0.6486898) = 51.430065, σ = 7.1714758.
    const ratings = computeTrueSkill([battle("A", "B", "model_a")]);
    expectRating(ratings.get("A"), 29.3958316929915, 7.17147580700922);
    expectRating(ratings.get("B"), 20.6041683070085, 7.17147580700922);
  });

  it("keeps two new models at μ 25 and shrinks both to σ 6.457516 on a draw", () => {
    // t = 0, so v = (φ(−ε/c) − φ(ε/c))/(Φ(ε/c) − Φ(−ε/c)) = 0: the means stay. The draw's w is
    // v² + ((ε/c)·φ(ε/c) + (ε/c)·φ(ε/c))/(Φ(ε/c) − Φ(−ε/c)) = 2·0.0561952·0.3983129/0.0448137 = 0.9989478;
    // σ² ← 69.451389·(1 − 0.4000080·0.9989478) = 41.699509, σ = 6.4575157 — a draw between equals says more than a win.
    const ratings = computeTrueSkill([battle("A", "B", "tie")]);
    expectRating(ratings.get("A"), 25, 6.45751568324505);
    expectRating(ratings.get("B"), 25, 6.45751568324505);
  });

  it("pulls a winner and a loser together on a draw, matching the formulas at 40 digits", () => {
    // After A's win, a draw moves A down and B up by the same amount (equal σ): values from mpmath.
    const ratings = computeTrueSkill([battle("A", "B", "model_a"), battle("A", "B", "tie")]);
    expectRating(ratings.get("A"), 26.1136445018396, 5.67750381681579, 11);
    expectRating(ratings.get("B"), 23.8863554981604, 5.67750381681579, 11);
  });

  it("treats a tie (bothbad) exactly like a tie", () => {
    const tie = computeTrueSkill([battle("A", "B", "model_a"), battle("A", "C", "tie")]);
    const bothBad = computeTrueSkill([battle("A", "B", "model_a"), battle("A", "C", "tie (bothbad)")]);
    expect([...bothBad]).toEqual([...tie]);
  });

  it("is symmetric: B beating A on the right is A beating B on the left, mirrored", () => {
    const left = computeTrueSkill([battle("A", "B", "model_a"), battle("C", "A", "tie"), battle("B", "C", "model_a")]);
    const right = computeTrueSkill([battle("B", "A", "model_b"), battle("A", "C", "tie"), battle("C", "B", "model_b")]);
    for (const model of ["A", "B", "C"]) {
      expect(right.get(model)?.mu).toBeCloseTo(left.get(model)?.mu ?? Number.NaN, 12);
      expect(right.get(model)?.sigma).toBeCloseTo(left.get(model)?.sigma ?? Number.NaN, 12);
    }
  });

  it("depends on the order of battles: a win then a loss is not a loss then a win", () => {
    const winFirst = computeTrueSkill([battle("A", "B", "model_a"), battle("A", "B", "model_b")]);
    const lossFirst = computeTrueSkill([battle("A", "B", "model_b"), battle("A", "B", "model_a")]);
    // The later battle weighs more: whoever won last ends ahead (mpmath: 23.3567567 against 26.6432433).
    expect(winFirst.get("A")?.mu).toBeCloseTo(23.3567566873026, 11);
    expect(lossFirst.get("A")?.mu).toBeCloseTo(26.6432433126974, 11);
    expect(winFirst.get("A")?.sigma).toBeCloseTo(lossFirst.get("A")?.sigma ?? Number.NaN, 12);
  });

  it("shrinks σ with every battle among evenly matched models, despite the dynamics τ", () => {
    const ratings = new Map<string, TrueSkillRating>();
    const models = ["A", "B", "C", "D"];
    for (let k = 0; k < 40; k++) {
      const a = models[k % 4];
      const b = models[(k + 1 + ((k >> 2) % 3)) % 4];
      const before = [ratings.get(a)?.sigma ?? 25 / 3, ratings.get(b)?.sigma ?? 25 / 3];
      updateTrueSkill(ratings, a, b, WINNERS[k % 4]);
      expect(ratings.get(a)?.sigma).toBeLessThan(before[0]);
      expect(ratings.get(b)?.sigma).toBeLessThan(before[1]);
    }
  });

  it("barely moves a heavy favourite that wins, and stays finite on an absurd upset", () => {
    const ratings = new Map([
      ["strong", { mu: 225, sigma: 1 }],
      ["weak", { mu: 25, sigma: 1 }],
    ]);
    const upset = new Map(ratings);
    updateTrueSkill(ratings, "strong", "weak", "model_a");
    expect(ratings.get("strong")?.mu).toBeCloseTo(225, 9);
    updateTrueSkill(upset, "strong", "weak", "model_b");
    for (const r of upset.values()) expect(Number.isFinite(r.mu) && Number.isFinite(r.sigma)).toBe(true);
    expect(upset.get("weak")?.mu).toBeGreaterThan(25);
  });

  it("honours other parameters: with no draws possible a win between equals moves μ by σ²/c·√(2/π)", () => {
    // ε = 0: v = φ(0)/Φ(0) = 2φ(0) = √(2/π). With τ = 0, σ² = 69.444444 and c² = 173.611111.
    const ratings = computeTrueSkill([battle("A", "B", "model_a")], { drawProbability: 0, tau: 0 });
    const variance = (25 / 3) ** 2;
    const c = Math.sqrt(2 * (25 / 6) ** 2 + 2 * variance);
    expect(ratings.get("A")?.mu).toBeCloseTo(25 + (variance / c) * Math.sqrt(2 / Math.PI), 12);
  });

  it("learns nothing from a model battling itself", () => {
    expect(computeTrueSkill([battle("A", "A", "model_a")]).size).toBe(0);
  });

  it("ranks by the conservative μ − 3σ", () => {
    expect(conservative({ mu: 25, sigma: 25 / 3 })).toBe(0);
    expect(conservative({ mu: 29.4, sigma: 7.2 })).toBeCloseTo(7.8, 12);
  });
});
