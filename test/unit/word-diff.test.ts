import { describe, expect, it } from "vitest";
import { wordDiff } from "../../web/src/lib/word-diff";

const marked = (segments: { text: string; changed: boolean }[]) =>
  segments.map((s) => (s.changed ? `[${s.text}]` : s.text)).join("");

describe("wordDiff", () => {
  it("marks the words each side has that the other lacks", () => {
    const d = wordDiff("Use pgvector for this size.", "Use Qdrant for this size.");
    expect(marked(d.left)).toBe("Use [pgvector] for this size.");
    expect(marked(d.right)).toBe("Use [Qdrant] for this size.");
  });

  it("keeps the text whole: joined again, each side is its answer", () => {
    const left = "Paris is the capital.\n\nIt sits on the Seine.";
    const right = "The capital of France is Paris,  on the Seine.";
    const d = wordDiff(left, right);
    expect(d.left.map((s) => s.text).join("")).toBe(left);
    expect(d.right.map((s) => s.text).join("")).toBe(right);
  });

  it("joins neighbouring changed words into one mark, and marks nothing in equal answers", () => {
    expect(marked(wordDiff("a b c d", "a x y d").left)).toBe("a [b c] d");
    expect(wordDiff("same words", "same words").left.every((s) => !s.changed)).toBe(true);
  });

  it("marks a whole answer against an empty one", () => {
    expect(marked(wordDiff("only here", "").left)).toBe("[only here]");
    expect(wordDiff("only here", "").right).toEqual([]);
  });

  it("still matches the start and end of very long answers, marking their different middles whole", () => {
    const middleA = Array.from({ length: 2500 }, (_, i) => `a${i}`).join(" ");
    const middleB = Array.from({ length: 2500 }, (_, i) => `b${i}`).join(" ");
    const d = wordDiff(`start ${middleA} end`, `start ${middleB} end`);
    expect(d.left[0]).toEqual({ text: "start ", changed: false });
    expect(d.left.at(-1)).toEqual({ text: " end", changed: false });
    expect(d.left.filter((s) => s.changed)).toHaveLength(1);
  });
});
