import { describe, expect, it } from "vitest";
import { rankByIntervals, rankSpread } from "../../worker/rating/ranks";
import { mulberry32 } from "../helpers/arena-reference";

describe("ranks from intervals", () => {
  const lower = [1100, 1050, 990, Number.NaN, 900, 1000];
  const upper = [1150, 1120, 1060, Number.NaN, 1000, 1040];

  it("ranks a model 1 + the number of models whose lower bound is strictly above its upper bound", () => {
    // 0: no lower bound above 1150 → 1. 1: none above 1120 (1100 is below) → 1. 2: only 1100 > 1060 → 2.
    // 3: no interval → null. 4: 1100, 1050 > 1000 (990 and 1000 are not strictly above) → 3. 5: 1100, 1050 > 1040 → 3.
    expect(rankByIntervals(lower, upper)).toEqual([1, 1, 2, null, 3, 3]);
  });

  it("spreads each rank to the worst its interval allows: 1 + the others whose upper bound is above its lower", () => {
    // 0 (lower 1100): only 1120 > 1100 → 2. 1 (1050): 1150, 1060 → 3. 2 (990): 1150, 1120, 1000, 1040 → 5.
    // 4 (900): 1150, 1120, 1060, 1040 → 5. 5 (1000): 1150, 1120, 1060 → 4.
    expect(rankSpread(lower, upper)).toEqual({ best: [1, 1, 2, null, 3, 3], worst: [2, 3, 5, null, 5, 4] });
  });

  it("never counts a pinned anchor's point interval above itself", () => {
    expect(rankSpread([1000, 990], [1000, 1010])).toEqual({ best: [1, 1], worst: [2, 2] });
  });

  it("agrees with counting every pair directly, for a thousand random intervals", () => {
    const random = mulberry32(4);
    const lo: number[] = [];
    const hi: number[] = [];
    for (let m = 0; m < 1000; m++) {
      const centre = 1000 + 300 * random();
      const half = Math.round(40 * random()) / 2; // some ties between bounds, some point intervals
      lo.push(Math.round(centre - half));
      hi.push(Math.round(centre + half));
    }
    const { best, worst } = rankSpread(lo, hi);
    for (let m = 0; m < 1000; m++) {
      let above = 0;
      let maybeAbove = 0;
      for (let o = 0; o < 1000; o++) {
        if (lo[o] > hi[m]) above++;
        if (o !== m && hi[o] > lo[m]) maybeAbove++;
      }
      expect(best[m]).toBe(1 + above);
      expect(worst[m]).toBe(1 + maybeAbove);
      expect(worst[m]!).toBeGreaterThanOrEqual(best[m]!);
    }
  });
});
