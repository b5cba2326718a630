import { describe, expect, it } from "vitest";
import { BT_L2_PENALTY, fitBradleyTerry, type PairCell } from "../../worker/rating/bradley-terry";
import { pairCellsFromBattles } from "../../worker/rating/pair-cells";
import { seededRandom } from "../../worker/rating/random";
import { cellsOf, centred, relativeGradient, simulateBattles, type SimulatedBattle } from "./rating-simulation";

const cell = (i: number, j: number, winsI: number, winsJ: number, ties = 0): PairCell => ({ i, j, winsI, winsJ, ties });

const mean = (values: ArrayLike<number>): number => Array.from(values).reduce((sum, v) => sum + v, 0) / values.length;

/**
 * Zermelo's MM iteration (Hunter 2004) on individual battle rows — a different algorithm on a different input:
 * π_i ← W_i / Σ over i's battles of 1/(π_i + π_opponent), W_i = wins + half the ties.
 */
function zermelo(n: number, battles: readonly SimulatedBattle[]): number[] {
  let strength = new Array<number>(n).fill(1);
  const score = new Array<number>(n).fill(0);
  for (const { a, b, score: s } of battles) {
    score[a] += s;
    score[b] += 1 - s;
  }
  for (let sweep = 0; sweep < 200_000; sweep++) {
    const denominator = new Array<number>(n).fill(0);
    for (const { a, b } of battles) {
      const inverse = 1 / (strength[a] + strength[b]);
      denominator[a] += inverse;
      denominator[b] += inverse;
    }
    const next = strength.map((_, i) => score[i] / denominator[i]);
    const geometricMean = Math.exp(mean(next.map(Math.log)));
    const normalised = next.map((s) => s / geometricMean);
    const change = Math.max(...normalised.map((s, i) => Math.abs(Math.log(s / strength[i]))));
    strength = normalised;
    if (change < 1e-13) break;
  }
  return centred(strength.map((s) => 400 * Math.log10(s)));
}

describe("Bradley–Terry by maximum likelihood", () => {
  it("gives two models 3 wins to 1 a gap of 400·log10(3) = 190.85: 1095.42 and 904.58", () => {
    // P(A beats B) = 3/4 at the optimum, so 10^(gap/400) = 3; the ratings sit symmetrically about 1000.
    const fit = fitBradleyTerry(2, [cell(0, 1, 3, 1)]);
    expect(fit.ratings[0]).toBeCloseTo(1095.4243, 3);
    expect(fit.ratings[1]).toBeCloseTo(904.5757, 3);
    expect(fit.ratings[0] - fit.ratings[1]).toBeCloseTo(400 * Math.log10(3), 6);
    expect(fit).toMatchObject({ rated: [true, true], provisional: [false, false], penalized: false });
  });

  it("rates every model of a symmetric cycle at exactly 1000", () => {
    // A beats B, B beats C, C beats A, each 2–1: every model has the same score against the same field.
    const fit = fitBradleyTerry(3, [cell(0, 1, 2, 1), cell(1, 2, 2, 1), cell(0, 2, 1, 2)]);
    for (const r of fit.ratings) expect(r).toBeCloseTo(1000, 9);
    expect(fit.penalized).toBe(false);
  });

  it("counts ties as half a win each way, the optimum of FastChat's 2·wins + ties weighting", () => {
    // A 2 wins, B 1 win, 2 ties. FastChat weighs A over B by 2·2 + 2 = 6 and B over A by 2·1 + 2 = 4, so
    // P(A beats B) = 0.6 and the gap is 400·log10(6/4) = 70.437: ratings 1035.218 and 964.782.
    const fit = fitBradleyTerry(2, [cell(0, 1, 2, 1, 2)]);
    expect(fit.ratings[0]).toBeCloseTo(1035.2185, 3);
    expect(fit.ratings[1]).toBeCloseTo(964.7815, 3);
  });

  it("treats a tie (bothbad) like a tie when battles are tallied into cells", () => {
    const battle = (modelA: string, modelB: string, winner: "model_a" | "model_b" | "tie" | "tie (bothbad)") => ({
      modelA,
      modelB,
      winner,
    });
    const tallied = pairCellsFromBattles([
      battle("x", "y", "model_a"),
      battle("y", "x", "model_a"),
      battle("y", "x", "model_b"),
      battle("x", "y", "tie"),
      battle("y", "x", "tie (bothbad)"),
      battle("x", "x", "model_a"),
    ]);
    expect(tallied).toEqual({ models: ["x", "y"], cells: [cell(0, 1, 2, 1, 2)] });
  });

  it("agrees within 0.01 with Zermelo's iteration on the battle rows, for six models with ties", () => {
    const truth = [1180, 1090, 1040, 1000, 930, 860];
    const battles = simulateBattles(seededRandom(11), truth, 600);
    const fit = fitBradleyTerry(6, cellsOf(battles));
    expect(fit.penalized).toBe(false);
    const reference = zermelo(6, battles);
    reference.forEach((r, k) => {
      expect(Math.abs(fit.ratings[k] - r)).toBeLessThan(0.01);
    });
  });

  it("returns a point where the gradient of the log-likelihood vanishes to 1e-10 of each model's battles", () => {
    const truth = Array.from({ length: 20 }, (_, k) => 700 + 35 * k);
    const cells = cellsOf(simulateBattles(seededRandom(5), truth, 50_000));
    const fit = fitBradleyTerry(20, cells);
    expect(Math.max(...relativeGradient(20, cells, fit.ratings))).toBeLessThan(1e-10);
    expect(mean(fit.ratings)).toBeCloseTo(1000, 9);
  });

  it("recovers 12 known strengths spread over 600 points from 100,000 battles within a few points", () => {
    const truth = centred(Array.from({ length: 12 }, (_, k) => 700 + (600 * k) / 11));
    const fit = fitBradleyTerry(12, cellsOf(simulateBattles(seededRandom(2024), truth, 100_000)));
    // Each model plays ~16,700 battles; its standard error is about 2.6 points (bootstrap and repeated
    // simulation agree), so a mean error of ~2 and a worst of 3–4 standard errors out of 12 are expected.
    const errors = truth.map((r, k) => Math.abs(fit.ratings[k] - r));
    expect(Math.max(...errors)).toBeLessThan(10);
    expect(mean(errors)).toBeLessThan(3.5);
  });

  it("pins the anchor at its rating and moves every other model by the same amount", () => {
    const cells = [cell(0, 1, 3, 1), cell(1, 2, 5, 2, 1), cell(0, 2, 4, 4)];
    const free = fitBradleyTerry(3, cells);
    const pinned = fitBradleyTerry(3, cells, { anchor: { index: 1, rating: 1114 } });
    expect(pinned.ratings[1]).toBe(1114);
    const shift = 1114 - free.ratings[1];
    for (let k = 0; k < 3; k++) expect(pinned.ratings[k]).toBeCloseTo(free.ratings[k] + shift, 9);
  });

  it("keeps the mean at 1000 when the anchor has no battles", () => {
    const fit = fitBradleyTerry(3, [cell(0, 1, 3, 1)], { anchor: { index: 2, rating: 1114 } });
    expect(fit.ratings[0]).toBeCloseTo(1095.4243, 3);
    expect(fit.ratings[2]).toBeNaN();
  });

  it("leaves a model with no battles unrated and keeps the mean of the rated ones at 1000", () => {
    const fit = fitBradleyTerry(4, [cell(0, 2, 3, 1), cell(0, 3, 0, 0, 0)]);
    expect(fit.rated).toEqual([true, false, true, false]);
    expect(fit.ratings[1]).toBeNaN();
    expect(fit.ratings[3]).toBeNaN();
    expect((fit.ratings[0] + fit.ratings[2]) / 2).toBeCloseTo(1000, 9);
    expect(fit.provisional).toEqual([false, false, false, false]);
  });

  it("rates nothing when there are no battles at all", () => {
    const fit = fitBradleyTerry(2, []);
    expect(fit).toMatchObject({ rated: [false, false], provisional: [false, false], penalized: false, iterations: 0 });
  });

  it("keeps a lone vote finite with the L2 penalty and marks both models provisional", () => {
    // One win: the likelihood grows without bound as the gap does. With −(λ/2)·Σβ², β = ±t/ln10,
    // the optimum solves σ(−2t) = t·λ/ln²10, t ≈ 3.64: a gap of about 1,265 points.
    expect(BT_L2_PENALTY).toBe(1e-3);
    const fit = fitBradleyTerry(2, [cell(0, 1, 1, 0)]);
    expect(fit.penalized).toBe(true);
    expect(fit.provisional).toEqual([true, true]);
    const t = ((fit.ratings[0] - 1000) * Math.log(10)) / 400;
    expect(1 / (1 + Math.exp(2 * t))).toBeCloseTo((t * BT_L2_PENALTY) / Math.log(10) ** 2, 12);
    expect(fit.ratings[0] - fit.ratings[1]).toBeGreaterThan(1200);
    expect(fit.ratings[0] - fit.ratings[1]).toBeLessThan(1300);
    expect(fit.ratings[0] + fit.ratings[1]).toBeCloseTo(2000, 9);
  });

  it("marks only the model outside the strongly connected part provisional when one side always wins", () => {
    // A, B and C beat each other around a cycle; D lost all four games to A, so no finite optimum exists.
    const fit = fitBradleyTerry(4, [cell(0, 1, 3, 2), cell(1, 2, 3, 2), cell(0, 2, 2, 3), cell(0, 3, 4, 0)]);
    expect(fit.penalized).toBe(true);
    expect(fit.provisional).toEqual([false, false, false, true]);
    for (const r of fit.ratings) expect(Number.isFinite(r)).toBe(true);
    expect(Math.min(...fit.ratings)).toBe(fit.ratings[3]);
    // The penalty is too small to disturb the connected three: their gaps stay those of the cycle alone.
    const cycle = fitBradleyTerry(3, [cell(0, 1, 3, 2), cell(1, 2, 3, 2), cell(0, 2, 2, 3)]);
    expect(fit.ratings[0] - fit.ratings[1]).toBeCloseTo(cycle.ratings[0] - cycle.ratings[1], 0);
    expect(fit.ratings[1] - fit.ratings[2]).toBeCloseTo(cycle.ratings[1] - cycle.ratings[2], 0);
  });

  it("marks every model provisional when the win graph is a chain of single models", () => {
    const fit = fitBradleyTerry(3, [cell(0, 1, 2, 0), cell(1, 2, 1, 0)]);
    expect(fit.penalized).toBe(true);
    expect(fit.provisional).toEqual([true, true, true]);
    expect(fit.ratings[0]).toBeGreaterThan(fit.ratings[1]);
    expect(fit.ratings[1]).toBeGreaterThan(fit.ratings[2]);
  });

  it("marks every model provisional when two strongly connected parts tie for largest", () => {
    // {0, 1} and {2, 3} each trade wins; 1 beat 2 once and was never beaten back.
    const fit = fitBradleyTerry(4, [cell(0, 1, 1, 1), cell(2, 3, 1, 1), cell(1, 2, 1, 0)]);
    expect(fit.penalized).toBe(true);
    expect(fit.provisional).toEqual([true, true, true, true]);
  });

  it("rejects cells whose indices are not 0 <= i < j < n or whose counts are negative", () => {
    expect(() => fitBradleyTerry(2, [cell(1, 0, 1, 0)])).toThrow(RangeError);
    expect(() => fitBradleyTerry(2, [cell(0, 2, 1, 0)])).toThrow(RangeError);
    expect(() => fitBradleyTerry(2, [cell(0, 1, -1, 0)])).toThrow(RangeError);
    expect(() => fitBradleyTerry(2, [cell(0, 1, 1, 1)], { anchor: { index: 2, rating: 1000 } })).toThrow(RangeError);
  });
});
