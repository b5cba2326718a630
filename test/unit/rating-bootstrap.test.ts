import { describe, expect, it } from "vitest";
import { BOOTSTRAP_DEFAULTS, bootstrapBradleyTerry } from "../../worker/rating/bootstrap";
import { fitBradleyTerry, type PairCell } from "../../worker/rating/bradley-terry";
import { percentile, seededRandom } from "../../worker/rating/random";
import { cellsOf, centred, simulateBattles } from "./rating-simulation";

const cell = (i: number, j: number, winsI: number, winsJ: number, ties = 0): PairCell => ({ i, j, winsI, winsJ, ties });

/** Four models with a clear order and a fifth that never played. */
const cells = [
  cell(0, 1, 30, 20, 6),
  cell(1, 2, 28, 18, 4),
  cell(2, 3, 25, 20, 5),
  cell(0, 2, 35, 12, 3),
  cell(1, 3, 30, 15, 5),
  cell(0, 3, 40, 8, 2),
];

describe("bootstrap intervals for Bradley–Terry", () => {
  it("runs 100 seeded rounds by default and gives the same intervals for the same seed", () => {
    const first = bootstrapBradleyTerry(5, cells);
    expect(first.rounds).toBe(BOOTSTRAP_DEFAULTS.rounds);
    expect(BOOTSTRAP_DEFAULTS.rounds).toBe(100);
    expect(bootstrapBradleyTerry(5, cells)).toEqual(first);
    const other = bootstrapBradleyTerry(5, cells, { seed: 99 });
    expect(Array.from(other.lower)).not.toEqual(Array.from(first.lower));
  });

  it("brackets the full fit for every model that played and is NaN for the one that did not", () => {
    const fit = fitBradleyTerry(5, cells);
    const { lower, upper } = bootstrapBradleyTerry(5, cells, { seed: 3 });
    for (let k = 0; k < 4; k++) {
      expect(lower[k]).toBeLessThan(fit.ratings[k]);
      expect(upper[k]).toBeGreaterThan(fit.ratings[k]);
      // ~50 battles per pair: intervals tens of points wide, not hundreds.
      expect(upper[k] - lower[k]).toBeGreaterThan(20);
      expect(upper[k] - lower[k]).toBeLessThan(250);
    }
    expect(lower[4]).toBeNaN();
    expect(upper[4]).toBeNaN();
  });

  it("pins the anchored model in every round, so its interval is exactly its rating", () => {
    const { lower, upper } = bootstrapBradleyTerry(5, cells, { anchor: { index: 2, rating: 1114 } });
    expect(lower[2]).toBe(1114);
    expect(upper[2]).toBe(1114);
    const free = bootstrapBradleyTerry(5, cells);
    expect(lower[0]).toBeGreaterThan(free.lower[0]);
  });

  it("agrees with a naive bootstrap that resamples battle rows one by one", () => {
    const truth = [1150, 1050, 1000, 950, 850];
    const battles = simulateBattles(seededRandom(8), truth, 3000);
    const ours = bootstrapBradleyTerry(5, cellsOf(battles), { rounds: 200, seed: 8 });
    const random = seededRandom(80);
    const samples: number[][] = truth.map(() => []);
    for (let round = 0; round < 200; round++) {
      const resampled = Array.from({ length: battles.length }, () => battles[Math.floor(random() * battles.length)]);
      const { ratings } = fitBradleyTerry(5, cellsOf(resampled));
      ratings.forEach((r, k) => {
        samples[k].push(r);
      });
    }
    samples.forEach((values, k) => {
      values.sort((a, b) => a - b);
      const naiveWidth = percentile(values, 0.975) - percentile(values, 0.025);
      // Both are 200-round estimates of the same distribution; their widths differ only by sampling noise.
      expect((ours.upper[k] - ours.lower[k]) / naiveWidth).toBeGreaterThan(0.8);
      expect((ours.upper[k] - ours.lower[k]) / naiveWidth).toBeLessThan(1.25);
    });
  });

  it("covers the true ratings about 95% of the time over many seeded simulations", () => {
    const truth = centred([1200, 1130, 1080, 1040, 1000, 960, 900, 820]);
    let covered = 0;
    let intervals = 0;
    for (let simulation = 0; simulation < 60; simulation++) {
      const battleCells = cellsOf(simulateBattles(seededRandom(500 + simulation), truth, 4000));
      const { lower, upper } = bootstrapBradleyTerry(8, battleCells, { seed: simulation });
      truth.forEach((r, k) => {
        intervals++;
        if (lower[k] <= r && r <= upper[k]) covered++;
      });
    }
    // With 100 rounds the interpolated 2.5/97.5 order statistics enclose on average (97.525 − 3.475)/101 = 93%
    // of the bootstrap distribution, so ~93% is the expected coverage (600 simulations of this setup gave 0.929;
    // these 60 give 0.906).
    expect(covered / intervals).toBeGreaterThan(0.88);
    expect(covered / intervals).toBeLessThan(0.99);
  });

  it("returns no intervals when there are no battles or no rounds", () => {
    expect(Array.from(bootstrapBradleyTerry(2, []).lower)).toEqual([Number.NaN, Number.NaN]);
    expect(Array.from(bootstrapBradleyTerry(2, [cell(0, 1, 3, 1)], { rounds: 0 }).upper)).toEqual([
      Number.NaN,
      Number.NaN,
    ]);
  });

  it("refuses fractional counts, which cannot be resampled as battles", () => {
    expect(() => bootstrapBradleyTerry(2, [cell(0, 1, 2.5, 1)])).toThrow(RangeError);
  });
});
