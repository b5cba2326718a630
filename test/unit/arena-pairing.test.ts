import { describe, expect, it } from "vitest";
import { drawPair, overlap, pairWeight, shuffleSides, type PairEvidence } from "../../worker/arena/pairing";
import { identityTerms, namesItself } from "../../worker/arena/identity";
import { seededRandom } from "../../worker/rating/random";

const noEvidence: PairEvidence = { battles: () => 0, interval: () => null };

describe("drawing a pair for the arena", () => {
  it("never pairs a model with itself and reaches every pair of the pool", () => {
    const random = seededRandom(3);
    const seen = new Set<string>();
    for (let i = 0; i < 600; i++) {
      const [a, b] = drawPair(["m1", "m2", "m3", "m4"], noEvidence, random);
      expect(a).not.toBe(b);
      seen.add([a, b].sort().join("+"));
    }
    expect(seen.size).toBe(6);
  });

  it("draws pairs with fewer battles more often, in proportion to their weights", () => {
    const battles: Record<string, number> = { "a+b": 99, "a+c": 0, "b+c": 0 };
    const evidence: PairEvidence = { battles: (x, y) => battles[[x, y].sort().join("+")], interval: () => null };
    const random = seededRandom(11);
    const counts: Record<string, number> = { "a+b": 0, "a+c": 0, "b+c": 0 };
    const n = 20_000;
    for (let i = 0; i < n; i++) counts[drawPair(["a", "b", "c"], evidence, random).sort().join("+")]++;
    const w = [pairWeight(99, 1), pairWeight(0, 1), pairWeight(0, 1)];
    const total = w[0] + w[1] + w[2];
    expect(counts["a+b"] / n).toBeCloseTo(w[0] / total, 1);
    expect(counts["a+c"] / n).toBeCloseTo(w[1] / total, 1);
    expect(pairWeight(99, 1)).toBeCloseTo(1.25 / 10, 12);
  });

  it("measures how far two intervals overlap, against the narrower one", () => {
    expect(overlap([1000, 1100], [1050, 1300])).toBeCloseTo(0.5, 12);
    expect(overlap([1000, 1100], [1200, 1300])).toBe(0);
    expect(overlap([1000, 1100], [1020, 1040])).toBe(1);
    expect(overlap(null, [0, 1])).toBe(1);
  });

  it("keeps the fixed model in every pair in topper mode", () => {
    const random = seededRandom(5);
    for (let i = 0; i < 50; i++) expect(drawPair(["x", "y", "z"], noEvidence, random, "z")).toContain("z");
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
