import { describe, expect, it } from "vitest";
import { fitBradleyTerry, fitPairTable } from "../../worker/rating/bradley-terry";
import { bootstrapBradleyTerry } from "../../worker/rating/bootstrap";
import { choleskySolve } from "../../worker/rating/cholesky";
import { pairTableOf } from "../../worker/rating/pair-table";
import { battlesToSeparate, pairWeights, sandwichIntervals, weightedTable } from "../../worker/rating/sandwich";
import { mulberry32 } from "../helpers/arena-reference";
import { gaussJordanInverse, multiply } from "../helpers/matrix";
import { cellsOf, simulateBattles, type SimulatedBattle } from "./rating-simulation";

const PER_UNIT = Math.log(10) / 400;
const Z = 1.959963984540054;

/**
 * The sandwich written out independently, one term per battle as arena-rank states it (not per pair cell):
 * H = Σ w·p(1−p)·ddᵀ + ridge·I, G = Σ (w·(y−p))²·ddᵀ, Cov = H⁻¹GH⁻¹, inverted by Gauss–Jordan.
 */
function replicaCovariance(
  n: number,
  battles: readonly SimulatedBattle[],
  ratings: ArrayLike<number>,
  weightOf: ((b: SimulatedBattle) => number) | null,
): number[][] {
  const h = Array.from({ length: n }, () => new Array<number>(n).fill(0));
  const g = Array.from({ length: n }, () => new Array<number>(n).fill(0));
  const add = (m: number[][], a: number, b: number, x: number) => {
    m[a][a] += x;
    m[b][b] += x;
    m[a][b] -= x;
    m[b][a] -= x;
  };
  for (const battle of battles) {
    const w = weightOf ? weightOf(battle) : 1;
    const p = 1 / (1 + Math.exp(-(ratings[battle.a] - ratings[battle.b]) * PER_UNIT));
    add(h, battle.a, battle.b, w * p * (1 - p));
    add(g, battle.a, battle.b, (w * (battle.score - p)) ** 2);
  }
  const ridge = weightOf ? 1e-5 : 1e-5 * battles.length;
  for (let k = 0; k < n; k++) h[k][k] += ridge;
  // With the small weighted ridge, H is nearly singular along 1 and a plain inverse loses about five digits
  // there (LAPACK's too); G·1 = 0, so adding 1 to every entry changes nothing but that rounding.
  for (const row of h) for (let k = 0; k < n; k++) row[k] += 1;
  const inv = gaussJordanInverse(h);
  return multiply(multiply(inv, g), inv);
}

function replicaStandardErrors(
  n: number,
  battles: readonly SimulatedBattle[],
  ratings: ArrayLike<number>,
  weightOf: ((b: SimulatedBattle) => number) | null,
  anchor: number | null,
): number[] {
  const cov = replicaCovariance(n, battles, ratings, weightOf);
  return Array.from({ length: n }, (_, v) => {
    const variance = anchor === null ? cov[v][v] : cov[v][v] + cov[anchor][anchor] - 2 * cov[v][anchor];
    return Math.sqrt(Math.max(variance, 0)) / PER_UNIT;
  });
}

describe("sandwich intervals", () => {
  it("match the hand-worked two-model case: 7 wins to 3", () => {
    const cells = [{ i: 0, j: 1, winsI: 7, winsJ: 3, ties: 0 }];
    const fit = fitBradleyTerry(2, cells);
    expect(fit.ratings[0] - fit.ratings[1]).toBeCloseTo(Math.log(7 / 3) / PER_UNIT, 9);
    const { lower, upper, standardError } = sandwichIntervals(2, pairTableOf(2, cells), fit.ratings);
    // p = 0.7: H = 2.1·[[1,−1],[−1,1]] + 1e-4·I and G = (7·0.3² + 3·0.7²)·[[1,−1],[−1,1]] = 2.1·[[1,−1],[−1,1]].
    // Along (1,−1)/√2 H has 4.2 + 1e-4 and G 4.2, so Var θ0 = ½ · 4.2 / (4.2 + 1e-4)².
    const se = Math.sqrt((0.5 * 4.2) / (4.2 + 1e-4) ** 2) / PER_UNIT;
    expect(standardError[0]).toBeCloseTo(se, 9);
    expect(standardError[1]).toBeCloseTo(se, 9);
    expect(lower[0]).toBeCloseTo(fit.ratings[0] - Z * se, 9);
    expect(upper[1]).toBeCloseTo(fit.ratings[1] + Z * se, 9);

    // Weighted (0.1 a battle), the ridge is 1e-5 flat: Var θ0 = ½ · 0.01·4.2 / (0.1·4.2 + 1e-5)².
    const weighted = sandwichIntervals(2, pairTableOf(2, cells), fit.ratings, { weights: [0.1] });
    expect(weighted.standardError[0]).toBeCloseTo(Math.sqrt((0.5 * 0.042) / (0.42 + 1e-5) ** 2) / PER_UNIT, 9);
  });

  const truth = [1180, 1120, 1060, 1000, 990, 940, 900, 850];
  const battles = simulateBattles(mulberry32(26), truth, 4_000);
  const cells = cellsOf(battles);
  const n = truth.length;
  const table = pairTableOf(n, cells);

  it("equal a per-battle replica of arena-rank's formulas, with and without an anchor", () => {
    const fit = fitPairTable(n, table, {});
    const plain = sandwichIntervals(n, table, fit.ratings);
    const replica = replicaStandardErrors(n, battles, fit.ratings, null, null);
    for (let m = 0; m < n; m++) expect(plain.standardError[m]).toBeCloseTo(replica[m], 8);

    const anchored = fitPairTable(n, table, { anchor: { index: 3, rating: 1000 } });
    const pinned = sandwichIntervals(n, table, anchored.ratings, { anchor: { index: 3, rating: 1000 } });
    const replicaPinned = replicaStandardErrors(n, battles, anchored.ratings, null, 3);
    for (let m = 0; m < n; m++) expect(pinned.standardError[m]).toBeCloseTo(replicaPinned[m], 8);
    expect(pinned.lower[3]).toBe(1000);
    expect(pinned.upper[3]).toBe(1000);
    // The difference to the anchor is wider than either model's own unanchored interval alone.
    expect(pinned.standardError[0]).toBeGreaterThan(plain.standardError[0]);
  });

  it("give the variance of any two models' difference, neighbours by rating and the rest alike", () => {
    const fit = fitPairTable(n, table, {});
    const sandwich = sandwichIntervals(n, table, fit.ratings);
    const cov = replicaCovariance(n, battles, fit.ratings, null);
    for (let a = 0; a < n; a++)
      for (let b = 0; b < n; b++) {
        const expected = (cov[a][a] + cov[b][b] - 2 * cov[a][b]) / PER_UNIT ** 2;
        expect(sandwich.differenceVariance(a, b)).toBeCloseTo(expected, 6);
      }
  });

  it("keep the factor L of the H they used (its upper triangle left as it was)", () => {
    const fit = fitPairTable(n, table, {});
    const { hessian } = sandwichIntervals(n, table, fit.ratings);
    const l = (r: number, c: number) => (c <= r ? hessian.factor[r * n + c] : 0);
    for (let r = 0; r < n; r++)
      for (let c = r + 1; c < n; c++) {
        let product = 0;
        for (let k = 0; k < n; k++) product += l(r, k) * l(c, k);
        expect(product).toBeCloseTo(hessian.factor[r * n + c], 9);
      }
    // A solve with it undoes H: H·x from the same pieces gives b back.
    const b = Float64Array.from({ length: n }, (_, k) => k - (n - 1) / 2);
    const x = new Float64Array(n);
    choleskySolve(n, hessian.factor, b, x);
    for (let r = 0; r < n; r++) {
      let sum = 0;
      for (let c = 0; c < n; c++) for (let k = 0; k < n; k++) sum += l(r, k) * l(c, k) * x[c];
      expect(sum).toBeCloseTo(b[r], 9);
    }
  });

  it("reweight each pair by 1 / max(its battles, 50), in the fit and the intervals", () => {
    // Over-sample one pair so the weights differ: 3,000 more battles of models 0 and 1.
    const extra = simulateBattles(mulberry32(7), [truth[0], truth[1]], 3_000);
    const all = [...battles, ...extra];
    const allTable = pairTableOf(n, cellsOf(all));
    const weights = pairWeights(allTable);
    const pairTotal = new Map<string, number>();
    for (const b of all) {
      const key = `${Math.min(b.a, b.b)},${Math.max(b.a, b.b)}`;
      pairTotal.set(key, (pairTotal.get(key) ?? 0) + 1);
    }
    const weightOf = (b: SimulatedBattle) =>
      1 / Math.max(pairTotal.get(`${Math.min(b.a, b.b)},${Math.max(b.a, b.b)}`)!, 50);

    const fit = fitPairTable(n, weightedTable(allTable, weights), {});
    // The weighted optimum: Σ w·(y − p) over each model's battles is zero, per battle as written.
    const score = new Array<number>(n).fill(0);
    for (const b of all) {
      const p = 1 / (1 + Math.exp(-(fit.ratings[b.a] - fit.ratings[b.b]) * PER_UNIT));
      score[b.a] += weightOf(b) * (b.score - p);
      score[b.b] -= weightOf(b) * (b.score - p);
    }
    for (const s of score) expect(Math.abs(s)).toBeLessThan(1e-9);

    const intervals = sandwichIntervals(n, allTable, fit.ratings, { weights });
    const replica = replicaStandardErrors(n, all, fit.ratings, weightOf, null);
    for (let m = 0; m < n; m++) expect(intervals.standardError[m]).toBeCloseTo(replica[m], 8);

    // The reweighted bootstrap (whole battles resampled, then weighed) brackets the weighted fit with widths
    // near the sandwich's; with every weight 1 it is the plain bootstrap exactly.
    const allCells = cellsOf(all);
    const boot = bootstrapBradleyTerry(n, allCells, { rounds: 300, seed: 5, weights });
    for (let m = 0; m < n; m++) {
      expect(boot.lower[m]).toBeLessThan(fit.ratings[m]);
      expect(boot.upper[m]).toBeGreaterThan(fit.ratings[m]);
      const ratio = (intervals.upper[m] - intervals.lower[m]) / (boot.upper[m] - boot.lower[m]);
      expect(ratio).toBeGreaterThan(0.8);
      expect(ratio).toBeLessThan(1.25);
    }
    const ones = new Float64Array(allTable.size).fill(1);
    expect(bootstrapBradleyTerry(n, allCells, { rounds: 20, seed: 5, weights: ones })).toEqual(
      bootstrapBradleyTerry(n, allCells, { rounds: 20, seed: 5 }),
    );
  });

  it("cover the true ratings about 95% of the time, and agree with the bootstrap's width", () => {
    const random = mulberry32(2026);
    let covered = 0;
    let intervals = 0;
    const centredTruth = truth.map((r) => r - truth.reduce((s, x) => s + x, 0) / n + 1000);
    for (let rep = 0; rep < 150; rep++) {
      const sample = pairTableOf(n, cellsOf(simulateBattles(random, truth, 1_500)));
      const fit = fitPairTable(n, sample, {});
      const { lower, upper } = sandwichIntervals(n, sample, fit.ratings);
      for (let m = 0; m < n; m++) {
        intervals++;
        if (lower[m] <= centredTruth[m] && centredTruth[m] <= upper[m]) covered++;
      }
    }
    // 1,200 intervals: a true 95% lands in [0.93, 0.97] with probability well above 99%.
    expect(covered / intervals).toBeGreaterThan(0.93);
    expect(covered / intervals).toBeLessThan(0.97);

    const fit = fitPairTable(n, table, {});
    const sandwich = sandwichIntervals(n, table, fit.ratings);
    const boot = bootstrapBradleyTerry(n, cells, { rounds: 400, seed: 3 });
    for (let m = 0; m < n; m++) {
      const ratio = (sandwich.upper[m] - sandwich.lower[m]) / (boot.upper[m] - boot.lower[m]);
      expect(ratio).toBeGreaterThan(0.85);
      expect(ratio).toBeLessThan(1.18);
    }
  });

  it("count the battles that would separate two models at today's rate, and the count holds", () => {
    const fit = fitBradleyTerry(2, [{ i: 0, j: 1, winsI: 7, winsJ: 3, ties: 0 }]);
    const now = sandwichIntervals(2, pairTableOf(2, [{ i: 0, j: 1, winsI: 7, winsJ: 3, ties: 0 }]), fit.ratings);
    const difference = fit.ratings[0] - fit.ratings[1];
    const variance = now.differenceVariance(0, 1);
    // Var(θ0 − θ1) = 2 · 4.2 / (4.2 + 1e-4)² logits² (about 1/2.1); the gap ln(7/3) needs precision
    // z² / ln(7/3)², and each battle adds 0.7 · 0.3 = 0.21: ⌈(z²/ln(7/3)² − (4.2 + 1e-4)²/8.4) / 0.21⌉ = 16.
    expect(variance * PER_UNIT ** 2).toBeCloseTo(8.4 / (4.2 + 1e-4) ** 2, 12);
    const more = battlesToSeparate(difference, variance);
    expect(more).toBe(Math.ceil((Z ** 2 / Math.log(7 / 3) ** 2 - (4.2 + 1e-4) ** 2 / 8.4) / 0.21));
    expect(more).toBe(16);
    // At the same rate, 10 + 16 battles separate them and 10 + 15 do not.
    const separated = (total: number) => {
      const cells = [{ i: 0, j: 1, winsI: 0.7 * total, winsJ: 0.3 * total, ties: 0 }];
      const intervals = sandwichIntervals(2, pairTableOf(2, cells), fitBradleyTerry(2, cells).ratings);
      return difference > Z * Math.sqrt(intervals.differenceVariance(0, 1));
    };
    expect(separated(26)).toBe(true);
    expect(separated(25)).toBe(false);
    expect(battlesToSeparate(0, variance)).toBeNull();
    expect(battlesToSeparate(difference, variance / 100)).toBe(0);
  });
});
