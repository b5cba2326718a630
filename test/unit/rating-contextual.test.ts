import { describe, expect, it } from "vitest";
import { fitBradleyTerry } from "../../worker/rating/bradley-terry";
import {
  contextualStyleFeatures,
  fitContextualBradleyTerry,
  type ContextualBattle,
} from "../../worker/rating/contextual-bt";
import { pairTableOf } from "../../worker/rating/pair-table";
import { sandwichIntervals } from "../../worker/rating/sandwich";
import type { Winner } from "../../worker/rating/battle-outcome";
import { mulberry32 } from "../helpers/arena-reference";
import { gaussJordanInverse, multiply } from "../helpers/matrix";
import { cellsOf, simulateBattles } from "./rating-simulation";

const SCALE = 400 / Math.LN10;
const winnerOf = (score: number): Winner => (score === 1 ? "model_a" : score === 0 ? "model_b" : "tie");

/** Battles whose odds carry a style effect: logit = (Ra − Rb)/SCALE + beta · (a's length share − b's). */
function styledBattles(seed: number, truth: number[], beta: number, count: number): ContextualBattle[] {
  const random = mulberry32(seed);
  const out: ContextualBattle[] = [];
  for (let k = 0; k < count; k++) {
    const a = Math.floor(random() * truth.length);
    let b = Math.floor(random() * (truth.length - 1));
    if (b >= a) b++;
    const lengths = [Math.round(50 + 900 * random()), Math.round(50 + 900 * random())];
    const features = contextualStyleFeatures([lengths[0], 3, 1, 2], [lengths[1], 3, 2, 0]);
    const p = 1 / (1 + Math.exp(-((truth[a] - truth[b]) / SCALE + beta * features[0])));
    const u = random();
    // A tie one time in ten, taken evenly from both wins, keeps a's expected score at p.
    out.push({ a, b, features, winner: u < p - 0.05 ? "model_a" : u < p + 0.05 ? "tie" : "model_b" });
  }
  return out;
}

describe("contextual Bradley–Terry (arena-rank's style control)", () => {
  it("reads features as (a − b)/(a + b), with 0/0 as 0", () => {
    expect(contextualStyleFeatures([300, 2, 0, 4], [100, 2, 0, 0])).toEqual([0.5, 0, 0, 1]);
  });

  it("is the plain fit and its sandwich exactly when no feature varies", () => {
    const truth = [1100, 1050, 1000, 950, 900];
    const simulated = simulateBattles(mulberry32(3), truth, 2_000);
    const battles = simulated.map((b) => ({ a: b.a, b: b.b, winner: winnerOf(b.score), features: [0.2, 0] }));
    const styled = fitContextualBradleyTerry(5, battles);
    const cells = cellsOf(simulated);
    const plain = fitBradleyTerry(5, cells);
    const intervals = sandwichIntervals(5, pairTableOf(5, cells), plain.ratings);
    for (let m = 0; m < 5; m++) {
      expect(styled.ratings[m]).toBeCloseTo(plain.ratings[m], 8);
      expect(styled.lower[m]).toBeCloseTo(intervals.lower[m], 6);
      expect(styled.upper[m]).toBeCloseTo(intervals.upper[m], 6);
    }
    for (const beta of styled.coefficients) expect(Math.abs(beta)).toBeLessThan(1e-12);
    expect([...styled.featureStd]).toEqual([1, 1]);
  });

  const truth = [1150, 1080, 1040, 1000, 960, 900];
  const battles = styledBattles(11, truth, 0.8, 20_000);

  it("stops where the penalised mean loss is flat, written out per battle", () => {
    const fit = fitContextualBradleyTerry(6, battles, { reweight: true });
    const n = battles.length;
    const mean = fit.featureMean;
    const std = fit.featureStd;
    const perPair = new Map<string, number>();
    const key = (a: number, b: number) => `${Math.min(a, b)},${Math.max(a, b)}`;
    for (const b of battles) perPair.set(key(b.a, b.b), (perPair.get(key(b.a, b.b)) ?? 0) + 1);
    const raw = battles.map((b) => 1 / Math.max(perPair.get(key(b.a, b.b))!, 50));
    const meanWeight = raw.reduce((s, x) => s + x, 0) / n;
    const theta = [...fit.ratings].map((r) => (r - 1000) / SCALE);
    const gradient = new Array<number>(6 + 4).fill(0);
    battles.forEach((b, i) => {
      const x = [0, 1, 2, 3].map((f) => (b.features[f] - mean[f]) / std[f]);
      const z = theta[b.a] - theta[b.b] + x.reduce((s, v, f) => s + v * fit.coefficients[f], 0);
      const y = b.winner === "model_a" ? 1 : b.winner === "model_b" ? 0 : 0.5;
      const r = ((raw[i] / meanWeight) * (y - 1 / (1 + Math.exp(-z)))) / n;
      gradient[b.a] -= r;
      gradient[b.b] += r;
      x.forEach((v, f) => {
        gradient[6 + f] -= r * v;
      });
    });
    fit.coefficients.forEach((beta, f) => {
      gradient[6 + f] += beta;
    });
    for (const g of gradient) expect(Math.abs(g)).toBeLessThan(1e-10);
    expect([...fit.ratings].reduce((s, r) => s + r, 0) / 6).toBeCloseTo(1000, 9);
  });

  it("recovers known strengths with style held equal, and the style effect's sign", () => {
    const fit = fitContextualBradleyTerry(6, battles);
    const centred = truth.map((r) => r - truth.reduce((s, x) => s + x, 0) / 6 + 1000);
    for (let m = 0; m < 6; m++) {
      expect(fit.lower[m]).toBeLessThan(centred[m] + 6);
      expect(fit.upper[m]).toBeGreaterThan(centred[m] - 6);
    }
    // A length effect of 0.8 per unit of the raw ratio: positive, and its interval excludes zero.
    expect(fit.coefficients[0]).toBeGreaterThan(0);
    expect(fit.coefficientLower[0]).toBeGreaterThan(0);
    // The other features never vary: no effect.
    expect(Math.abs(fit.coefficients[1])).toBeLessThan(1e-12);
  });

  it("pins the anchor and widens the others to their difference from it", () => {
    const free = fitContextualBradleyTerry(6, battles);
    const pinned = fitContextualBradleyTerry(6, battles, { anchor: { index: 3, rating: 1000 } });
    expect(pinned.ratings[3]).toBe(1000);
    expect(pinned.lower[3]).toBe(1000);
    expect(pinned.ratings[0] - pinned.ratings[3]).toBeCloseTo(free.ratings[0] - free.ratings[3], 9);
    expect(pinned.upper[0] - pinned.lower[0]).toBeGreaterThan(free.upper[0] - free.lower[0]);
  });

  it("gives the intervals of arena-rank's sandwich, its blocks written out per battle", () => {
    const sample = styledBattles(5, truth, 0.8, 3_000);
    const fit = fitContextualBradleyTerry(6, sample, { reweight: true });
    const n = sample.length;
    const size = 6 + 4;
    const key = (a: number, b: number) => `${Math.min(a, b)},${Math.max(a, b)}`;
    const perPair = new Map<string, number>();
    for (const b of sample) perPair.set(key(b.a, b.b), (perPair.get(key(b.a, b.b)) ?? 0) + 1);
    const raw = sample.map((b) => 1 / Math.max(perPair.get(key(b.a, b.b))!, 50));
    const meanWeight = raw.reduce((s, x) => s + x, 0) / n;
    const params = [...[...fit.ratings].map((r) => (r - 1000) / SCALE), ...fit.coefficients];
    const h = Array.from({ length: size }, () => new Array<number>(size).fill(0));
    const g = Array.from({ length: size }, () => new Array<number>(size).fill(0));
    sample.forEach((b, i) => {
      const d = new Array<number>(size).fill(0);
      d[b.a] = 1;
      d[b.b] = -1;
      for (let f = 0; f < 4; f++) d[6 + f] = (b.features[f] - fit.featureMean[f]) / fit.featureStd[f];
      const z = d.reduce((sum, v, c) => sum + v * params[c], 0);
      const prob = 1 / (1 + Math.exp(-z));
      const w = raw[i] / meanWeight;
      const y = b.winner === "model_a" ? 1 : b.winner === "model_b" ? 0 : 0.5;
      for (let r = 0; r < size; r++)
        for (let c = 0; c < size; c++) {
          h[r][c] += ((w * prob * (1 - prob)) / n) * d[r] * d[c];
          g[r][c] += ((w * (y - prob)) ** 2 / n) * d[r] * d[c];
        }
    });
    for (let r = 0; r < size; r++) h[r][r] += 1e-5;
    for (let f = 0; f < 4; f++) for (let e = 0; e < 4; e++) g[6 + f][6 + e] -= (1 / n) * params[6 + f] * params[6 + e];
    // Adding 1 on the θ block moves H⁻¹ only along θ's shift, which G never sees: it spares the inverse the
    // small ridge's rounding there.
    for (let r = 0; r < 6; r++) for (let c = 0; c < 6; c++) h[r][c] += 1;
    const inv = gaussJordanInverse(h);
    const cov = multiply(multiply(inv, g), inv);
    for (let m = 0; m < 6; m++) {
      const se = SCALE * Math.sqrt(cov[m][m] / n);
      expect(fit.upper[m] - fit.ratings[m]).toBeCloseTo(1.959963984540054 * se, 7);
    }
    for (let f = 0; f < 4; f++) {
      const se = Math.sqrt(Math.max(cov[6 + f][6 + f], 0) / n);
      expect(fit.coefficientUpper[f] - fit.coefficients[f]).toBeCloseTo(1.959963984540054 * se, 9);
    }
  });
});
