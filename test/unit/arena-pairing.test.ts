import { describe, expect, it } from "vitest";
import {
  drawPair,
  inFocus,
  NEW_MODEL_BOOST,
  OUTSIDE_FOCUS,
  overlap,
  pairChances,
  pairWeight,
  shuffleSides,
  UNIFORM_SHARE,
  type PairEvidence,
  type PairingRules,
} from "../../worker/arena/pairing";
import { expectedWidthReduction } from "../../worker/rating/active-sampling";
import { identityTerms, namesItself } from "../../worker/arena/identity";
import { seededRandom } from "../../worker/rating/random";

const ALL: PairingRules = { focus: { top: null }, newModelBattles: 0 };

const noEvidence: PairEvidence = {
  rating: () => null,
  differenceVariance: () => null,
  interval: () => null,
  battles: () => 0,
  ranked: [],
};

/** Three rated models with overlapping intervals: a above b above c, each with 500 battles. */
function threeModels(variances: Record<string, number>, battles: Record<string, number> = {}): PairEvidence {
  const ratings: Record<string, number> = { a: 1100, b: 1060, c: 1020 };
  const intervals: Record<string, [number, number]> = { a: [1040, 1160], b: [1000, 1120], c: [960, 1080] };
  return {
    rating: (m) => ratings[m] ?? null,
    differenceVariance: (x, y) => variances[[x, y].sort().join("+")] ?? null,
    interval: (m) => intervals[m] ?? null,
    battles: (m) => battles[m] ?? 500,
    ranked: ["a", "b", "c"],
  };
}

const chanceOf = (chances: [string, string, number][], pair: string) =>
  chances.find(([a, b]) => [a, b].sort().join("+") === pair)![2];

describe("drawing a pair for the arena", () => {
  it("never pairs a model with itself and reaches every pair of the pool", () => {
    const random = seededRandom(3);
    const seen = new Set<string>();
    for (let i = 0; i < 600; i++) {
      const [a, b] = drawPair(["m1", "m2", "m3", "m4"], noEvidence, ALL, random);
      expect(a).not.toBe(b);
      seen.add([a, b].sort().join("+"));
    }
    expect(seen.size).toBe(6);
  });

  it("weighs each pair by the paper's expected narrowing of its difference's interval, plus an even share", () => {
    const variances = { "a+b": 900, "a+c": 2_500, "b+c": 400 };
    const evidence = threeModels(variances);
    const w = {
      "a+b": expectedWidthReduction(40, 900),
      "a+c": expectedWidthReduction(80, 2_500),
      "b+c": expectedWidthReduction(40, 400),
    };
    expect(pairWeight("a", "b", evidence, ALL)).toBeCloseTo(w["a+b"], 12);
    const total = w["a+b"] + w["a+c"] + w["b+c"];
    const chances = pairChances(["a", "b", "c"], evidence, ALL);
    for (const pair of ["a+b", "a+c", "b+c"] as const)
      expect(chanceOf(chances, pair)).toBeCloseTo((1 - UNIFORM_SHARE) * (w[pair] / total) + UNIFORM_SHARE / 3, 12);
    expect(chances.reduce((s, p) => s + p[2], 0)).toBeCloseTo(1, 12);
    // The least known difference is the likeliest.
    expect(chanceOf(chances, "a+c")).toBeGreaterThan(chanceOf(chances, "a+b"));
    expect(chanceOf(chances, "a+b")).toBeGreaterThan(chanceOf(chances, "b+c"));
  });

  it("draws pairs in proportion to their chances", () => {
    const evidence = threeModels({ "a+b": 900, "a+c": 2_500, "b+c": 400 });
    const chances = pairChances(["a", "b", "c"], evidence, ALL);
    const random = seededRandom(11);
    const counts: Record<string, number> = { "a+b": 0, "a+c": 0, "b+c": 0 };
    const n = 20_000;
    for (let i = 0; i < n; i++) counts[drawPair(["a", "b", "c"], evidence, ALL, random).sort().join("+")]++;
    for (const pair of ["a+b", "a+c", "b+c"]) expect(counts[pair] / n).toBeCloseTo(chanceOf(chances, pair), 1);
  });

  it("keeps every pair's chance above zero, however well known the pair already is", () => {
    // One pair known to a billionth of a point, another hardly at all.
    const evidence = threeModels({ "a+b": 1e-9, "a+c": 1e6, "b+c": 1e6 });
    const chances = pairChances(["a", "b", "c"], evidence, ALL);
    expect(chanceOf(chances, "a+b")).toBeGreaterThanOrEqual(UNIFORM_SHARE / 3);
    const random = seededRandom(7);
    const seen = new Set<string>();
    for (let i = 0; i < 2_000; i++) seen.add(drawPair(["a", "b", "c"], evidence, ALL, random).sort().join("+"));
    expect(seen.size).toBe(3);
  });

  it("with a top k in focus, keeps a tenth of the weight of pairs that can't change the top k", () => {
    const evidence = threeModels({ "a+b": 900, "a+c": 900, "b+c": 900 });
    const top1: PairingRules = { focus: { top: 1 }, newModelBattles: 0 };
    expect(inFocus("a", "b", evidence, top1.focus)).toBe(true);
    expect(inFocus("a", "c", evidence, top1.focus)).toBe(true);
    expect(inFocus("b", "c", evidence, top1.focus)).toBe(false);
    expect(inFocus("b", "c", evidence, { top: 2 })).toBe(true);
    expect(pairWeight("b", "c", evidence, top1)).toBeCloseTo(OUTSIDE_FOCUS * pairWeight("b", "c", evidence, ALL), 12);
    expect(pairWeight("a", "c", evidence, top1)).toBeCloseTo(pairWeight("a", "c", evidence, ALL), 12);
  });

  it("leaves out of focus a pair whose intervals no longer overlap, and counts a model without a rating as in the top k", () => {
    const evidence: PairEvidence = {
      ...threeModels({}),
      interval: (m) => (({ a: [1200, 1300], b: [1000, 1100] })[m] as [number, number] | undefined) ?? null,
      ranked: ["a", "b"],
    };
    expect(inFocus("a", "b", evidence, { top: null })).toBe(false);
    // c has no rating: it may be anywhere, the top included.
    expect(inFocus("b", "c", evidence, { top: 1 })).toBe(true);
  });

  it("boosts a new model's pairs until it has the battles QUORUM_NEW_MODEL_BATTLES asks, whatever the focus", () => {
    const variances = { "a+b": 900, "a+c": 900, "b+c": 900 };
    const rules: PairingRules = { focus: { top: 1 }, newModelBattles: 50 };
    const fresh = threeModels(variances, { c: 49 });
    const plain = expectedWidthReduction(40, 900);
    expect(pairWeight("b", "c", fresh, rules)).toBeCloseTo(NEW_MODEL_BOOST * plain, 12);
    expect(pairWeight("a", "b", fresh, rules)).toBeCloseTo(plain, 12);
    const grown = threeModels(variances, { c: 50 });
    expect(pairWeight("b", "c", grown, rules)).toBeCloseTo(OUTSIDE_FOCUS * plain, 12);
  });

  it("measures how far two intervals overlap, against the narrower one", () => {
    expect(overlap([1000, 1100], [1050, 1300])).toBeCloseTo(0.5, 12);
    expect(overlap([1000, 1100], [1200, 1300])).toBe(0);
    expect(overlap([1000, 1100], [1100, 1300])).toBe(0);
    expect(overlap([1000, 1100], [1020, 1040])).toBe(1);
    expect(overlap(null, [0, 1])).toBe(1);
  });

  it("keeps the fixed model in every pair in topper mode", () => {
    const random = seededRandom(5);
    for (let i = 0; i < 50; i++) expect(drawPair(["x", "y", "z"], noEvidence, ALL, random, "z")).toContain("z");
  });

  it("puts a model on the left about half the time", () => {
    const random = seededRandom(17);
    let left = 0;
    for (let i = 0; i < 10_000; i++) if (shuffleSides(["p", "q"], random).left === "p") left++;
    expect(left / 10_000).toBeCloseTo(0.5, 1);
  });
});

describe("an answer that gives its model away", () => {
  it("is caught when it names its model or its maker as a word", () => {
    expect(namesItself("I'm Claude, an AI assistant made by Anthropic.", "anthropic:claude-sonnet-4-5")).toBe(true);
    expect(namesItself("As a large language model trained by OpenAI, I can't browse.", "openai:gpt-4o")).toBe(true);
    expect(namesItself("I am Gemini.", "google:gemini-2.5-flash")).toBe(true);
    expect(namesItself("Llama here: recursion is neat.", "openai-compatible:llama3.2")).toBe(true);
  });

  it("is not caught for other words, other makers, or the demo models", () => {
    expect(namesItself("Recursion calls itself on a smaller input.", "anthropic:claude-sonnet-4-5")).toBe(false);
    expect(namesItself("Claudette and Googleplex are not names of makers.", "anthropic:claude-sonnet-4-5")).toBe(false);
    expect(namesItself("OpenAI published a paper on this.", "anthropic:claude-sonnet-4-5")).toBe(false);
    expect(namesItself("I am the concise demo model.", "demo:concise")).toBe(false);
    expect(identityTerms("demo:thorough")).toEqual([]);
  });
});
