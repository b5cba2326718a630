import { describe, expect, it } from "vitest";
import { type Feed, feedsToExtend, horizon, mergedNewestFirst } from "../../web/src/lib/history-feed";

const item = (kind: string, createdAt: number) => ({ kind, createdAt });
const feed = (kind: string, times: number[], more: boolean): Feed<{ kind: string; createdAt: number }> => ({
  items: times.map((t) => item(kind, t)),
  cursor: more ? "next" : null,
});

describe("History's two lists merged", () => {
  it("shows nothing older than the oldest item of a list with more to load", () => {
    const runs = feed("run", [100, 90, 80], true);
    const arena = feed("arena", [95, 70, 60], false);
    // an unloaded run may sit between 80 and 70: the arena's 70 and 60 wait
    expect(horizon([runs, arena])).toBe(80);
    expect(mergedNewestFirst([runs, arena]).map((i) => `${i.kind}@${i.createdAt}`)).toEqual([
      "run@100",
      "arena@95",
      "run@90",
      "run@80",
    ]);
    expect(feedsToExtend([runs, arena])).toEqual([0]);
  });

  it("shows everything, in order, once both lists are complete", () => {
    const runs = feed("run", [100, 80], false);
    const arena = feed("arena", [95, 70], false);
    expect(horizon([runs, arena])).toBe(Number.NEGATIVE_INFINITY);
    expect(mergedNewestFirst([runs, arena]).map((i) => i.createdAt)).toEqual([100, 95, 80, 70]);
    expect(feedsToExtend([runs, arena])).toEqual([]);
  });

  it("loads the list that sets the horizon, then the other once it does", () => {
    const runs = feed("run", [100, 50], true);
    const arena = feed("arena", [95, 60], true);
    expect(horizon([runs, arena])).toBe(60);
    expect(mergedNewestFirst([runs, arena]).map((i) => i.createdAt)).toEqual([100, 95, 60]);
    expect(feedsToExtend([runs, arena])).toEqual([1]);
    const longer = feed("arena", [95, 60, 40], true);
    expect(feedsToExtend([runs, longer])).toEqual([0]);
    expect(mergedNewestFirst([runs, longer]).map((i) => i.createdAt)).toEqual([100, 95, 60, 50]);
  });

  it("with one list shown, shows all of it that is loaded", () => {
    expect(mergedNewestFirst([feed("arena", [3, 2, 1], true)]).map((i) => i.createdAt)).toEqual([3, 2, 1]);
  });
});
