import { describe, expect, it } from "vitest";
import { settledRanking } from "../../worker/arena/settled";
import { rankSpread } from "../../worker/rating/ranks";

/** Rows with ratings and intervals, their rank spreads as the leaderboard computes them. */
function rows(intervals: Record<string, [number, number]>, provisional: string[] = []) {
  const ids = Object.keys(intervals);
  const spread = rankSpread(
    ids.map((m) => intervals[m][0]),
    ids.map((m) => intervals[m][1]),
  );
  return ids.map((modelId, k) => ({
    modelId,
    bt: (intervals[modelId][0] + intervals[modelId][1]) / 2,
    ciLower: intervals[modelId][0],
    ciUpper: intervals[modelId][1],
    rankUpper: spread.best[k],
    rankLower: spread.worst[k],
    provisional: provisional.includes(modelId),
  }));
}

describe("the leaderboard's settled notice", () => {
  it("settles the whole order once no two intervals overlap", () => {
    const apart = rows({ c: [900, 950], a: [1100, 1150], b: [1000, 1050] });
    expect(settledRanking(apart, { top: null })).toEqual({ focus: "all", models: ["a", "b", "c"], confidence: 0.95 });
  });

  it("leaves the whole order open while any two overlap, even below a settled top", () => {
    const tail = rows({ a: [1100, 1150], b: [1000, 1050], c: [990, 1010] });
    expect(settledRanking(tail, { top: null })).toBeNull();
    expect(settledRanking(tail, { top: 1 })).toEqual({ focus: "top1", models: ["a"], confidence: 0.95 });
  });

  it("leaves a top k open when its last member overlaps the model below, or two inside it overlap", () => {
    const edge = rows({ a: [1100, 1150], b: [1000, 1050], c: [1040, 1060] });
    expect(settledRanking(edge, { top: 2 })).toBeNull();
    expect(settledRanking(edge, { top: 1 })).toMatchObject({ models: ["a"] });
    const inside = rows({ a: [1100, 1150], b: [1120, 1130], c: [900, 950] });
    expect(settledRanking(inside, { top: 2 })).toBeNull();
  });

  it("reads a top k larger than the table as the whole order", () => {
    const apart = rows({ a: [1100, 1150], b: [1000, 1050] });
    expect(settledRanking(apart, { top: 3 })).toEqual({ focus: "top3", models: ["a", "b"], confidence: 0.95 });
  });

  it("says nothing while a model has no rating, a rating is provisional, or there is one model", () => {
    const apart = rows({ a: [1100, 1150], b: [1000, 1050] });
    expect(
      settledRanking([...apart, { ...apart[1], modelId: "c", bt: null, ciLower: null, ciUpper: null }], { top: 1 }),
    ).toBeNull();
    expect(settledRanking(rows({ a: [1100, 1150], b: [1000, 1050] }, ["b"]), { top: null })).toBeNull();
    expect(settledRanking(rows({ a: [1100, 1150] }), { top: null })).toBeNull();
  });
});
