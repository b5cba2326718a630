import { describe, expect, it } from "vitest";
import { nestHeadings } from "../../worker/shared/markdown-headings";

describe("nestHeadings", () => {
  it("pushes an answer's headings below the export's, keeping their order of rank", () => {
    expect(nestHeadings("## Setup\ntext\n### Detail", 3)).toBe("#### Setup\ntext\n##### Detail");
    expect(nestHeadings("## Setup\n### Detail\n# Top", 3)).toBe("##### Setup\n###### Detail\n#### Top");
    // the shallowest is # here: it becomes ####, the rest follow
    expect(nestHeadings("# A\n## B", 3)).toBe("#### A\n##### B");
  });

  it("leaves text already deep enough as it is", () => {
    expect(nestHeadings("#### Deep\n##### Deeper", 3)).toBe("#### Deep\n##### Deeper");
    expect(nestHeadings("no headings at all", 3)).toBe("no headings at all");
  });

  it("turns what would pass ###### into bold lines", () => {
    expect(nestHeadings("# One\n## Two\n### Three\n#### Four", 3)).toBe("#### One\n##### Two\n###### Three\n**Four**");
  });

  it("leaves fenced code alone, and # comments in it", () => {
    const text = "## Run it\n```sh\n# install\nnpm i\n```\n~~~\n## not a heading\n~~~";
    expect(nestHeadings(text, 3)).toBe("#### Run it\n```sh\n# install\nnpm i\n```\n~~~\n## not a heading\n~~~");
  });

  it("reads underlined headings, not rules, list items or table rows", () => {
    expect(nestHeadings("Title\n=====\nbody\n\n---\n\nSub\n---", 3)).toBe("#### Title\nbody\n\n---\n\n##### Sub");
    expect(nestHeadings("- item\n---", 3)).toBe("- item\n---");
    expect(nestHeadings("#hashtag is not a heading\n## But this is ##", 2)).toBe(
      "#hashtag is not a heading\n### But this is",
    );
  });
});
