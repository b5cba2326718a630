import { describe, expect, it } from "vitest";
import { bootstrapBradleyTerry, bootstrapBradleyTerrySliced } from "../../worker/rating/bootstrap";
import {
  DENSE_MAX_MODELS,
  fitBradleyTerry,
  fitBradleyTerrySliced,
  type PairCell,
} from "../../worker/rating/bradley-terry";
import { maximizeLikelihood, type ScoredPairs } from "../../worker/rating/bradley-terry-newton";
import { maximizeLikelihoodSparse } from "../../worker/rating/bradley-terry-sparse";
import { seededRandom } from "../../worker/rating/random";
import { drain, Slicer, WORK_PER_SLICE } from "../../worker/rating/work-slices";
import { cellsOf, relativeGradient, simulateBattles } from "./rating-simulation";

const spread = (n: number) => Array.from({ length: n }, (_, k) => 600 + (800 * k) / (n - 1));

function scoredPairs(cells: readonly PairCell[]): ScoredPairs {
  return {
    count: cells.length,
    a: Int32Array.from(cells, (c) => c.i),
    b: Int32Array.from(cells, (c) => c.j),
    scoreA: Float64Array.from(cells, (c) => c.winsI + c.ties / 2),
    scoreB: Float64Array.from(cells, (c) => c.winsJ + c.ties / 2),
  };
}

const centredTheta = (theta: Float64Array) => {
  const mean = theta.reduce((sum, v) => sum + v, 0) / theta.length;
  return Array.from(theta, (v) => ((v - mean) * 400) / Math.LN10);
};

/** Records the most work done between two yields. */
class MeasuredSlicer extends Slicer {
  since = 0;
  most = 0;
  override spend(units: number): boolean {
    this.since += units;
    const full = super.spend(units);
    if (full) {
      this.most = Math.max(this.most, this.since);
      this.since = 0;
    }
    return full;
  }
}

describe("Bradley–Terry by conjugate gradients on the pair cells", () => {
  it("reaches the dense Newton solver's optimum on 150 models, penalised or not, to 1e-6 points", () => {
    const cells = cellsOf(simulateBattles(seededRandom(11), spread(150), 6_000));
    const pairs = scoredPairs(cells);
    for (const penalty of [0, 1e-3]) {
      const dense = new Float64Array(150);
      const sparse = new Float64Array(150);
      maximizeLikelihood(150, pairs, penalty, dense);
      drain(maximizeLikelihoodSparse(150, pairs, penalty, sparse, new Slicer()));
      const [d, s] = [centredTheta(dense), centredTheta(sparse)];
      expect(Math.max(...d.map((r, k) => Math.abs(r - s[k])))).toBeLessThan(1e-6);
    }
  });

  it("fits 1,000 models from 30,000 battles to a vanishing gradient (1e-10 of each model's battles)", () => {
    const cells = cellsOf(simulateBattles(seededRandom(12), spread(1000), 30_000));
    const fit = fitBradleyTerry(1000, cells);
    expect(1000).toBeGreaterThan(DENSE_MAX_MODELS);
    expect(fit.penalized).toBe(false);
    expect(Math.max(...relativeGradient(1000, cells, fit.ratings))).toBeLessThan(1e-10);
  });

  it("yields between slices of bounded work and ends where the one-go fit ends", () => {
    const cells = cellsOf(simulateBattles(seededRandom(13), spread(400), 40_000));
    const slicer = new MeasuredSlicer();
    const steps = fitBradleyTerrySliced(400, cells, {}, slicer);
    let yields = 0;
    let next = steps.next();
    for (; !next.done; next = steps.next()) yields++;
    expect(yields).toBeGreaterThan(10);
    expect(yields).toBe(slicer.slices);
    // A slice ends at the first chunk boundary past WORK_PER_SLICE; a chunk is 16,384 cells.
    expect(slicer.most).toBeLessThanOrEqual(WORK_PER_SLICE + 16_384);
    expect(Array.from(next.value.ratings)).toEqual(Array.from(fitBradleyTerry(400, cells).ratings));
  });

  it("gives the same bootstrap intervals in slices as in one go", () => {
    const cells = cellsOf(simulateBattles(seededRandom(14), spread(120), 5_000));
    const whole = bootstrapBradleyTerry(120, cells, { rounds: 5, seed: 3 });
    const sliced = drain(bootstrapBradleyTerrySliced(120, cells, { rounds: 5, seed: 3 }, new Slicer(1_000)));
    expect(Array.from(sliced.lower)).toEqual(Array.from(whole.lower));
    expect(Array.from(sliced.upper)).toEqual(Array.from(whole.upper));
  });
});
