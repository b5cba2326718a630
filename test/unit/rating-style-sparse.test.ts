import { describe, expect, it } from "vitest";
import { seededRandom } from "../../worker/rating/random";
import {
  bootstrapStyleControlled,
  bootstrapStyleControlledSliced,
  fitStyleControlled,
  STYLE_L2_PENALTY,
  type StyleBattle,
} from "../../worker/rating/style-control";
import { minimizeStyleLoss, type StyleDesign } from "../../worker/rating/style-newton";
import { minimizeStyleLossSparse } from "../../worker/rating/style-newton-sparse";
import { drain, Slicer } from "../../worker/rating/work-slices";

/** Battles among `n` models with four random standardised-looking features, outcomes from spread strengths. */
function design(n: number, count: number, seed: number): StyleDesign {
  const random = seededRandom(seed);
  const d: StyleDesign = {
    n,
    k: 4,
    count,
    a: new Int32Array(count),
    b: new Int32Array(count),
    y: new Float64Array(count),
    x: new Float64Array(count * 4),
  };
  for (let i = 0; i < count; i++) {
    const a = Math.floor(random() * n);
    const b = (a + 1 + Math.floor(random() * (n - 1))) % n;
    for (let f = 0; f < 4; f++) d.x[i * 4 + f] = 2 * random() - 1;
    const z = (2 * (a - b)) / n + 0.8 * d.x[i * 4];
    const u = random();
    d.a[i] = a;
    d.b[i] = b;
    d.y[i] = u < 0.1 ? 0.5 : u < 0.1 + 0.9 / (1 + Math.exp(-z)) ? 1 : 0;
  }
  return d;
}

function battlesOf(d: StyleDesign): StyleBattle[] {
  return Array.from({ length: d.count }, (_, i) => ({
    a: d.a[i],
    b: d.b[i],
    winner: d.y[i] === 1 ? "model_a" : d.y[i] === 0 ? "model_b" : "tie",
    diffs: Array.from(d.x.subarray(i * 4, i * 4 + 4)),
  }));
}

describe("style control by conjugate gradients", () => {
  it("reaches the dense Newton solver's optimum on 150 models to 1e-6, with and without bootstrap weights", () => {
    const d = design(150, 8_000, 21);
    const weights = Float64Array.from({ length: d.count }, (_, i) => (i * 7) % 3);
    for (const w of [null, weights]) {
      const dense = new Float64Array(154);
      const sparse = new Float64Array(154);
      minimizeStyleLoss(d, w, STYLE_L2_PENALTY, dense);
      drain(minimizeStyleLossSparse(d, w, STYLE_L2_PENALTY, sparse, new Slicer()));
      expect(Math.max(...Array.from(dense, (v, q) => Math.abs(v - sparse[q])))).toBeLessThan(1e-6);
    }
  });

  it("fits 1,000 models to a vanishing gradient, in slices that yield", () => {
    const d = design(1000, 30_000, 22);
    const params = new Float64Array(1004);
    const slicer = new Slicer();
    drain(minimizeStyleLossSparse(d, null, STYLE_L2_PENALTY, params, slicer));
    expect(slicer.slices).toBeGreaterThan(5);
    // Started again from its answer, the solver finds the gradient already below 1e-10 of the battles: zero Newton steps.
    const again = Float64Array.from(params);
    expect(drain(minimizeStyleLossSparse(d, null, STYLE_L2_PENALTY, again, new Slicer()))).toBe(0);
  });

  it("gives the same fit and intervals through the public functions in slices as in one go", () => {
    const battles = battlesOf(design(120, 3_000, 23));
    const fit = fitStyleControlled(120, battles);
    expect(Number.isFinite(fit.ratings[0])).toBe(true);
    const whole = bootstrapStyleControlled(120, battles, { rounds: 4, seed: 5 });
    const sliced = drain(bootstrapStyleControlledSliced(120, battles, { rounds: 4, seed: 5 }, new Slicer(2_000)));
    expect(Array.from(sliced.lower)).toEqual(Array.from(whole.lower));
    expect(Array.from(sliced.betaUpper)).toEqual(Array.from(whole.betaUpper));
  });
});
