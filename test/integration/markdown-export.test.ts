/** A run's Markdown export stands alone: who wrote each label, how the votes were counted, headings in their place. */
import { describe, expect, inject, it } from "vitest";
import { client } from "../helpers/client";
import { createRun, finished } from "../helpers/runs";
import { scriptModel } from "../helpers/stub-client";

const stub = inject("stubUrl");

describe("the Markdown export", () => {
  it("names every label's model, shows the vote math, and keeps each answer's headings below its model's", async () => {
    await scriptModel(stub, "md-gpt", [
      { text: "## Setup\nInstall it.\n### Detail\nThen run it.\n```sh\n# a comment\n```" },
    ]);
    await scriptModel(stub, "md-claude", [{ text: "# Answer\nUse the default." }]);
    await scriptModel(stub, "md-gemini", [{ text: "No headings here." }]);
    const id = await createRun({
      question: "How do I set it up?",
      models: [{ id: "openai:md-gpt" }, { id: "anthropic:md-claude" }, { id: "google:md-gemini" }],
    });
    const run = await finished(id);
    expect(run.aggregation).not.toBeNull();
    const md = await (await client.runs[":id"].export.$get({ param: { id }, query: { format: "md" } })).text();

    // every label, with its model
    expect(md).toContain("## Labels");
    for (const a of run.answers) expect(md).toContain(`| ${a.label} | ${a.displayName} | \`${a.modelId}\` |`);

    // the vote math: one row per reviewer, whose points add up to the Borda totals
    const breakdown = run.aggregation!.voteBreakdown;
    const labels = Object.keys(breakdown.bordaTotals).sort();
    expect(md).toContain("### How the votes were counted");
    expect(md).toContain(`| Reviewer | Weight | Ranking | ${labels.map((l) => `Points to ${l}`).join(" | ")} |`);
    for (const r of breakdown.reviewers) {
      const reviewer = run.reviewers.find((s) => s.id === r.reviewSetId)!.reviewerModelId!;
      expect(md).toContain(`| ${reviewer} | 1 | ${r.ranking.join(" > ")} |`);
    }
    const total = (l: string) => breakdown.reviewers.reduce((s, r) => s + (r.points[l] ?? 0), 0);
    for (const l of labels) expect(breakdown.bordaTotals[l]).toBeCloseTo(total(l), 9);

    // under "### <model>", an answer's headings start at ####, their order kept; code is untouched
    const gpt = run.answers.find((a) => a.modelId === "openai:md-gpt")!;
    const section = md.slice(md.indexOf(`### ${gpt.displayName} (openai:md-gpt)`));
    expect(section).toContain("#### Setup\nInstall it.\n##### Detail\nThen run it.\n```sh\n# a comment\n```");
    expect(md).toContain("#### Answer\nUse the default.");
    expect(md).not.toMatch(/^#{1,3} (Setup|Detail|Answer)$/m);
  });
});
