import { describe, expect, it } from "vitest";
import { isPresetId, parsePresetId, presetId } from "../../worker/shared/contestant";
import { slugFromName } from "../../worker/shared/preset-names";

describe("a preset's slug from its name", () => {
  it("lower-cases, drops accents and joins words with single hyphens", () => {
    expect(slugFromName("Terse, v2 (Café)")).toBe("terse-v2-cafe");
    expect(slugFromName("  --Thorough   answers--  ")).toBe("thorough-answers");
  });

  it("cuts at 48 characters without leaving a hyphen at the end", () => {
    const slug = slugFromName(`${"a".repeat(47)} b`)!;
    expect(slug).toBe("a".repeat(47));
    expect(slugFromName("x".repeat(60))).toHaveLength(48);
  });

  it("is null for a name with no letter or digit", () => {
    expect(slugFromName("!!! ???")).toBeNull();
    expect(slugFromName("")).toBeNull();
  });

  it("makes an id that parses back to the same slug and version", () => {
    const ref = { slug: slugFromName("Terse Café")!, version: 3 };
    expect(presetId(ref)).toBe("preset:terse-cafe@3");
    expect(parsePresetId(presetId(ref))).toEqual(ref);
    expect(isPresetId("demo:concise")).toBe(false);
  });
});
