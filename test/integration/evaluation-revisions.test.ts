/**
 * Suggest a revision: a finished evaluation's lost items drafted into a revised system prompt, over the demo
 * models (a deterministic draft, saved as the preset's next version) and over the stub through a real SDK (what
 * the drafting model is shown, and what its call cost).
 */
import { env } from "cloudflare:test";
import { describe, expect, inject, it } from "vitest";
import { client, ok } from "../helpers/client";
import { ended, promptSet, startEvaluation } from "../helpers/evaluations";
import { callsFor, ruleFor } from "../helpers/stub-client";

const stub = inject("stubUrl");

const suggest = (id: string, json: { contestant: string; model: string }) =>
  client.evaluations[":id"].revisions.$post({ param: { id }, json });

async function errorCode(res: { json(): Promise<unknown> }) {
  return ((await res.json()) as { error: { code: string } }).error.code;
}

describe("suggest a revision", () => {
  it("over the demo models: drafts from the lost items, saves as version 2, and the revision is evaluated again", async () => {
    const preset = await ok(
      client.presets.$post({ json: { name: "Revise me", modelId: "demo:concise", systemPrompt: "Answer plainly." } }),
    );
    const setId = await promptSet("set-rv1", ["How do I rotate logs?", "How do I back up a database?"]);
    const plan = {
      promptSetId: setId,
      contestants: [preset.id, "demo:skeptic"],
      baseline: "demo:skeptic",
      judges: ["demo:thorough"],
    };
    const started = await startEvaluation(plan);
    expect((await ended(started.id)).status).toBe("completed");

    const draft = await ok(suggest(started.id, { contestant: preset.id, model: "demo:thorough" }));
    expect(draft.currentPrompt).toBe("Answer plainly.");
    expect(draft.lostItems.length).toBeGreaterThan(0);
    expect(draft.lostItems.every((i) => i.score < 0 && i.winner === "demo:skeptic")).toBe(true);
    // The demo adds the one instruction the judge's reasons point to most, keeping the prompt it had.
    expect(draft.revisedPrompt).toBe("Answer plainly. Use numbered steps.");
    expect(draft.revisedPrompt).not.toBe(draft.currentPrompt);
    expect(draft.rationale).toContain("the judges preferred");
    // The same lost items get the same draft.
    expect((await ok(suggest(started.id, { contestant: preset.id, model: "demo:thorough" }))).revisedPrompt).toBe(
      draft.revisedPrompt,
    );

    const saved = await ok(
      client.presets[":slug"].$patch({ param: { slug: preset.slug }, json: { systemPrompt: draft.revisedPrompt } }),
    );
    expect(saved).toMatchObject({ id: `preset:${preset.slug}@2`, version: 2, saved: "new_version" });
    expect(saved.systemPrompt).toBe(draft.revisedPrompt);

    expect(draft.plan).toEqual({
      ...plan,
      method: "pairwise",
      repeats: 1,
      rubric: null,
      settings: { timeoutMs: 120_000, maxTokens: null, temperature: null },
    });
    const again = await startEvaluation({ ...plan, contestants: [saved.id, "demo:skeptic"] });
    expect((await ended(again.id)).status).toBe("completed");
    const compared = await ok(client.evaluations.compare.$get({ query: { a: started.id, b: again.id } }));
    expect(compared.a.id).toBe(started.id);
    expect(compared.b.id).toBe(again.id);
  });

  it("refuses what it can't draft from: a model contestant (409), a preset that lost nothing (400), an unknown evaluation (404)", async () => {
    const preset = await ok(
      client.presets.$post({ json: { name: "Winner", modelId: "demo:skeptic", systemPrompt: "Be careful." } }),
    );
    const setId = await promptSet("set-rv2", ["How do I rotate logs?"]);
    const started = await startEvaluation({
      promptSetId: setId,
      contestants: [preset.id, "demo:skeptic"],
      baseline: "demo:skeptic",
      judges: ["demo:thorough"],
    });
    expect((await ended(started.id)).status).toBe("completed");
    const model = await suggest(started.id, { contestant: "demo:skeptic", model: "demo:thorough" });
    expect(model.status).toBe(409);
    expect(await errorCode(model)).toBe("not_a_preset_contestant");
    // Same model, same answers: every game a tie, so nothing was lost.
    const tied = await suggest(started.id, { contestant: preset.id, model: "demo:thorough" });
    expect(tied.status).toBe(400);
    expect(await errorCode(tied)).toBe("nothing_lost");
    const missing = await suggest("no-such-evaluation", { contestant: preset.id, model: "demo:thorough" });
    expect(missing.status).toBe(404);
  });

  it("refuses an evaluation that hasn't completed (409)", async () => {
    await env.DB.prepare("INSERT OR IGNORE INTO prompt_sets (id, name, items) VALUES ('set-rv3', 'x', 0)").run();
    await env.DB.prepare(
      "INSERT INTO evaluations (id, name, prompt_set_id, method, contestants, judges, baseline, settings, status) VALUES ('eval-rv3', 'x', 'set-rv3', 'pairwise', '[\"preset:x@1\",\"demo:concise\"]', '[\"demo:thorough\"]', 'demo:concise', '{}', 'running')",
    ).run();
    const res = await suggest("eval-rv3", { contestant: "preset:x@1", model: "demo:thorough" });
    expect(res.status).toBe(409);
    expect(await errorCode(res)).toBe("not_completed");
  });

  it("over the stub: the drafting model is shown the lost answers, the winners' and the judges' reasons, and its cost is kept", async () => {
    await ruleFor(stub, "rv4-plain", "", { text: "PLAIN reply, no steps." });
    await ruleFor(stub, "rv4-good", "", { text: "GOOD reply, in steps." });
    await ruleFor(stub, "rv4-judge", "Answer A[^#]*GOOD", {
      review: { reasons: "GOOD lists its steps; PLAIN does not.", verdict: "A>>B" },
    });
    await ruleFor(stub, "rv4-judge", "Answer B[^#]*GOOD", {
      review: { reasons: "GOOD lists its steps; PLAIN does not.", verdict: "B>>A" },
    });
    await ruleFor(stub, "priced-custom", "Current system prompt", {
      review: { rationale: "The judges wanted steps.", revisedPrompt: "Answer plainly. Use numbered steps." },
      tokensIn: 1000,
      tokensOut: 500,
    });
    const preset = await ok(
      client.presets.$post({
        json: { name: "Plain stub", modelId: "openai:rv4-plain", systemPrompt: "Answer plainly." },
      }),
    );
    const setId = await promptSet("set-rv4", ["How do I rotate logs?", "How do I back up a database?"]);
    const started = await startEvaluation({
      promptSetId: setId,
      contestants: [preset.id, "anthropic:rv4-good"],
      baseline: "anthropic:rv4-good",
      judges: ["openai:rv4-judge"],
    });
    expect((await ended(started.id)).status).toBe("completed");

    const draft = await ok(suggest(started.id, { contestant: preset.id, model: "openai:priced-custom" }));
    expect(draft).toMatchObject({
      currentPrompt: "Answer plainly.",
      revisedPrompt: "Answer plainly. Use numbered steps.",
      rationale: "The judges wanted steps.",
    });
    expect(draft.lostItems.map((i) => [i.itemId, i.score, i.winner])).toEqual([
      ["q1", -4, "anthropic:rv4-good"],
      ["q2", -4, "anthropic:rv4-good"],
    ]);

    const asked = (await callsFor(stub, "priced-custom"))
      .map((c) => JSON.stringify(c.body))
      .filter((b) => b.includes("Current system prompt"));
    expect(asked).toHaveLength(1);
    for (const text of [
      "Answer plainly.",
      "How do I rotate logs?",
      "PLAIN reply, no steps.",
      "GOOD reply, in steps.",
      "GOOD lists its steps; PLAIN does not.",
    ])
      expect(asked[0]).toContain(text);

    // QUORUM_PRICES: priced-custom costs $1 in and $2 out per million tokens.
    expect(draft.costUsd).toBeCloseTo(0.002, 6);
    const entry = await env.DB.prepare(
      "SELECT kind, tokens_in AS tokensIn, tokens_out AS tokensOut, cost_usd AS costUsd FROM spend_entries WHERE model_id = 'openai:priced-custom' AND item_id LIKE 'revision-%'",
    ).first<{ kind: string; tokensIn: number; tokensOut: number; costUsd: number }>();
    expect(entry).toMatchObject({ kind: "judge", tokensIn: 1000, tokensOut: 500 });
    expect(entry?.costUsd).toBeCloseTo(0.002, 6);
    const holds = await env.DB.prepare(
      "SELECT COUNT(*) AS n FROM spend_holds WHERE item_id LIKE 'revision-%' AND settled_at IS NULL",
    ).first<{ n: number }>();
    expect(holds?.n).toBe(0);
  });

  it("a council evaluation: the drafting model reads the items the preset was ranked low in, with the reviewers' critiques", async () => {
    await ruleFor(stub, "rv5-plain", "", { text: "PLAIN reply, no steps." });
    await ruleFor(stub, "rv5-good", "", { text: "GOOD reply, in steps." });
    const scores = { correctness: 7, completeness: 7, clarity: 7, helpfulness: 7, safety: 7, overall: 7 };
    // Whichever label GOOD is dealt, the reviewer ranks it first and says why PLAIN is worse.
    for (const [good, plain] of [
      ["A", "B"],
      ["B", "A"],
    ])
      await ruleFor(stub, "rv5-judge", `### Answer ${good}[^#]*GOOD`, {
        review: {
          reviews: [
            { label: good, critique: "Clear numbered steps.", scores },
            { label: plain, critique: "PLAIN gives no steps to follow.", scores },
          ],
          ranking: [good, plain],
          confidence: 0.8,
        },
      });
    await ruleFor(stub, "priced-custom", "Current system prompt", {
      review: { rationale: "The reviewers wanted steps.", revisedPrompt: "Answer plainly. Use numbered steps." },
      tokensIn: 1000,
      tokensOut: 500,
    });
    const preset = await ok(
      client.presets.$post({
        json: { name: "Plain council", modelId: "openai:rv5-plain", systemPrompt: "Answer plainly." },
      }),
    );
    const setId = await promptSet("set-rv5", ["How do I rotate council logs?", "How do I back up a council database?"]);
    const plan = {
      promptSetId: setId,
      method: "council" as const,
      contestants: [preset.id, "anthropic:rv5-good"],
      judges: ["openai:rv5-judge"],
    };
    const started = await startEvaluation(plan);
    expect((await ended(started.id)).status).toBe("completed");

    const draft = await ok(suggest(started.id, { contestant: preset.id, model: "openai:priced-custom" }));
    expect(draft.revisedPrompt).toBe("Answer plainly. Use numbered steps.");
    // Ranked second of two on each item by the one reviewer: one game lost per item.
    expect(draft.lostItems.map((i) => [i.itemId, i.score, i.winner, i.reasons])).toEqual([
      ["q1", -1, "anthropic:rv5-good", ["Ranked 2 of 2: PLAIN gives no steps to follow."]],
      ["q2", -1, "anthropic:rv5-good", ["Ranked 2 of 2: PLAIN gives no steps to follow."]],
    ]);
    const asked = (await callsFor(stub, "priced-custom"))
      .map((c) => JSON.stringify(c.body))
      .filter((b) => b.includes("How do I rotate council logs?"));
    expect(asked).toHaveLength(1);
    for (const text of [
      "Answer plainly.",
      "PLAIN reply, no steps.",
      "GOOD reply, in steps.",
      "PLAIN gives no steps to follow.",
    ])
      expect(asked[0]).toContain(text);
    // The plan runs the revision again as a council evaluation.
    expect(draft.plan).toMatchObject({ ...plan, baseline: null, rubric: null });
  });
});
