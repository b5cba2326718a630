import { describe, expect, it } from "vitest";
import { editableAsLines, lineErrorsOf, promptCount, promptsOfLines } from "../../web/src/lib/prompt-lines";

const plain = (prompt: string, k: number) => ({
  id: `item-${k + 1}`,
  prompt,
  category: null,
  reference: null,
  turns: null,
  goal: null as string | null,
});

describe("pasted prompts", () => {
  it("takes one prompt a line, trimmed, whatever the line ends, blank lines left out", () => {
    expect(promptsOfLines("  one \r\ntwo\n\n   \rthree\n")).toEqual(["one", "two", "three"]);
    expect(promptsOfLines("\n \n")).toEqual([]);
  });

  it("edits a set as lines only when its items are nothing but one-line prompts with their positions' ids", () => {
    expect(editableAsLines(["a", "b"].map(plain))).toBe(true);
    expect(editableAsLines([plain("a", 0), { ...plain("b", 1), id: "mine" }])).toBe(false);
    expect(editableAsLines([{ ...plain("a", 0), category: "math" }])).toBe(false);
    expect(editableAsLines([{ ...plain("a", 0), reference: "A" }])).toBe(false);
    expect(editableAsLines([{ ...plain("a", 0), turns: [] }])).toBe(false);
    expect(editableAsLines([{ ...plain("a", 0), goal: "Book a table" }])).toBe(false);
    expect(editableAsLines([plain("two\nlines", 0)])).toBe(false);
  });

  it("reads the line errors of a refused upload, and nothing from any other error", () => {
    const refused = Object.assign(new Error("line 2: prompt is empty"), {
      details: { errors: [{ line: 2, message: "prompt is empty" }, { line: "x" }], rejected: 2 },
    });
    expect(lineErrorsOf(refused)).toEqual([{ line: 2, message: "prompt is empty" }]);
    expect(lineErrorsOf(new Error("network"))).toEqual([]);
    expect(lineErrorsOf(null)).toEqual([]);
  });

  it("counts prompts in words", () => {
    expect([promptCount(1), promptCount(0), promptCount(2500)]).toEqual(["1 prompt", "0 prompts", "2,500 prompts"]);
  });
});
