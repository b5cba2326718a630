import { env } from "cloudflare:test";
import { describe, expect, inject, it } from "vitest";
import {
  castVote,
  createComparison,
  errorOf,
  getComparison,
  leaderboard,
  readyComparison,
  settled,
} from "../helpers/arena";
import { client, ok } from "../helpers/client";
import { api, createRun, finished } from "../helpers/runs";
import { withSettings } from "../helpers/spend";
import { callsFor, type RecordedCall, scriptModel } from "../helpers/stub-client";

const stub = inject("stubUrl");

type PresetBody = Parameters<typeof client.presets.$post>[0]["json"];

const create = (json: PresetBody) => ok(client.presets.$post({ json }));

/** The system message an OpenAI-protocol call carried, or null. */
function systemOf(call: RecordedCall): string | null {
  const messages = call.body.messages as unknown as { role: string; content: string }[];
  return messages.find((m) => m.role === "system")?.content ?? null;
}

const answerCalls = async (model: string) => (await callsFor(stub, model)).filter((c) => c.kind === "answer");

describe("presets: create, list, edit, delete", () => {
  it("creates version 1 with a slug made from the name, and refuses the same slug again with what to do", async () => {
    const made = await create({
      name: "Terse Café",
      modelId: "demo:concise",
      systemPrompt: "Be terse.",
      temperature: 0.2,
    });
    expect(made).toMatchObject({
      id: "preset:terse-cafe@1",
      slug: "terse-cafe",
      version: 1,
      name: "Terse Café",
      modelId: "demo:concise",
      systemPrompt: "Be terse.",
      temperature: 0.2,
      maxTokens: null,
      usedAt: null,
    });
    const again = await client.presets.$post({ json: { name: "terse café", modelId: "demo:thorough" } });
    expect(again.status).toBe(409);
    const error = await errorOf(again);
    expect(error.code).toBe("preset_exists");
    expect(error.message).toContain("PATCH /api/presets/terse-cafe");
  });

  it("lists the newest version of each preset with its count of versions, and shows every version of one", async () => {
    await create({ name: "List me", modelId: "demo:thorough", slug: "list-me", systemPrompt: "v1" });
    await ok(
      client.runs.$post({
        json: { question: "Hi?", models: [{ id: "preset:list-me@1" }], settings: { autoEvaluate: false } },
      }),
    );
    await ok(client.presets[":slug"].$patch({ param: { slug: "list-me" }, json: { systemPrompt: "v2" } }));
    const { presets } = await ok(client.presets.$get());
    const listed = presets.find((p) => p.slug === "list-me")!;
    expect(listed).toMatchObject({ id: "preset:list-me@2", version: 2, versions: 2, systemPrompt: "v2", usedAt: null });
    const versions = await ok(client.presets[":slug"].$get({ param: { slug: "list-me" } }));
    expect(versions.versions.map((v) => [v.id, v.systemPrompt])).toEqual([
      ["preset:list-me@2", "v2"],
      ["preset:list-me@1", "v1"],
    ]);
    expect(versions).toMatchObject({ id: "preset:list-me@2", systemPrompt: "v2" });
    const one = await ok(client.presets[":slug"].$get({ param: { slug: "preset:list-me@1" } }));
    expect(one).toMatchObject({ id: "preset:list-me@1", systemPrompt: "v1" });
    expect(one.versions).toHaveLength(2);
  });

  it("edits an unused version in place, and saves an edit of a used one as the next version, the old one unchanged", async () => {
    await create({ name: "Editable", modelId: "demo:concise", systemPrompt: "Be brief." });
    const inPlace = await ok(
      client.presets[":slug"].$patch({
        param: { slug: "editable" },
        json: { systemPrompt: "Be very brief.", maxTokens: 50 },
      }),
    );
    expect(inPlace.saved).toBe("in_place");
    expect(inPlace).toMatchObject({ id: "preset:editable@1", systemPrompt: "Be very brief.", maxTokens: 50 });

    const id = await createRun({
      question: "Why?",
      models: [{ id: "preset:editable@1" }],
      settings: { autoEvaluate: false },
    });
    await finished(id);
    const [used] = (await ok(client.presets[":slug"].$get({ param: { slug: "editable" } }))).versions;
    expect(used.usedAt).toEqual(expect.any(Number));

    const next = await ok(
      client.presets[":slug"].$patch({ param: { slug: "editable" }, json: { systemPrompt: null, temperature: 0.9 } }),
    );
    expect(next.saved).toBe("new_version");
    expect(next).toMatchObject({
      id: "preset:editable@2",
      systemPrompt: null,
      temperature: 0.9,
      maxTokens: 50,
      usedAt: null,
    });
    const versions = (await ok(client.presets[":slug"].$get({ param: { slug: "editable" } }))).versions;
    expect(versions[1]).toMatchObject({ id: "preset:editable@1", systemPrompt: "Be very brief.", temperature: null });
  });

  it("deletes softly: gone from the list and refused for new work, while results that name it still stand", async () => {
    await create({ name: "Doomed", modelId: "demo:skeptic", systemPrompt: "Hedge." });
    const id = await createRun({
      question: "Ok?",
      models: [{ id: "preset:doomed@1" }],
      settings: { autoEvaluate: false },
    });
    await finished(id);
    expect(await ok(client.presets[":slug"].$delete({ param: { slug: "doomed" } }))).toEqual({
      deleted: true,
      slug: "doomed",
    });
    expect((await ok(client.presets.$get())).presets.some((p) => p.slug === "doomed")).toBe(false);
    expect((await client.presets[":slug"].$get({ param: { slug: "doomed" } })).status).toBe(404);
    expect((await client.presets[":slug"].$delete({ param: { slug: "doomed" } })).status).toBe(404);

    const refused = await client.runs.$post({ json: { question: "Again?", models: [{ id: "preset:doomed@1" }] } });
    expect(refused.status).toBe(400);
    expect(await errorOf(refused)).toMatchObject({ code: "preset_deleted" });
    const run = await ok(client.runs[":id"].$get({ param: { id } }));
    expect(run.answers[0].modelId).toBe("preset:doomed@1");
    expect(run.answers[0].status).toBe("done");
    // The slug stays taken, so the old id never names something else.
    expect((await client.presets.$post({ json: { name: "Doomed", modelId: "demo:concise" } })).status).toBe(409);
  });
});

describe("presets: bad inputs", () => {
  it("refuses a preset on a preset, an unknown or unconfigured model, and malformed fields, each with its own code", async () => {
    const cases: [unknown, number, string][] = [
      [{ name: "Nest", modelId: "preset:terse@1" }, 400, "preset_on_preset"],
      [{ name: "Nowhere", modelId: "acme:model" }, 400, "unknown_provider"],
      [{ name: "", modelId: "demo:concise" }, 400, "invalid_request"],
      [{ name: "!!!", modelId: "demo:concise" }, 400, "invalid_request"],
      [{ name: "Hot", modelId: "demo:concise", temperature: 5 }, 400, "invalid_request"],
      [{ name: "Long", modelId: "demo:concise", maxTokens: 0 }, 400, "invalid_request"],
      [{ name: "Slug", modelId: "demo:concise", slug: "Not A Slug" }, 400, "invalid_request"],
      [{ name: "Extra", modelId: "demo:concise", colour: "red" }, 400, "invalid_request"],
    ];
    for (const [body, status, code] of cases) {
      const res = await api("/presets", { method: "POST", json: body });
      expect([JSON.stringify(body), res.status]).toEqual([JSON.stringify(body), status]);
      expect((await errorOf(res)).code).toBe(code);
    }
  });

  it("refuses an empty edit, an edit onto a preset, and edits or reads of a slug that doesn't exist", async () => {
    await create({ name: "Stable", modelId: "demo:concise" });
    const empty = await api("/presets/stable", { method: "PATCH", json: {} });
    expect([empty.status, (await errorOf(empty)).code]).toEqual([400, "invalid_request"]);
    const nested = await api("/presets/stable", { method: "PATCH", json: { modelId: "preset:stable@1" } });
    expect([nested.status, (await errorOf(nested)).code]).toEqual([400, "preset_on_preset"]);
    expect((await api("/presets/nobody", { method: "PATCH", json: { name: "X" } })).status).toBe(404);
    expect((await api("/presets/nobody")).status).toBe(404);
  });

  it("refuses unknown preset versions and malformed preset ids wherever a model id is taken, naming them", async () => {
    const unknown = await api("/runs", {
      method: "POST",
      json: { question: "Q?", models: [{ id: "preset:ghost@3" }] },
    });
    expect(unknown.status).toBe(400);
    expect(await errorOf(unknown)).toMatchObject({
      code: "unknown_preset",
      message: expect.stringContaining("preset:ghost@3"),
    });
    const bare = await api("/comparisons", {
      method: "POST",
      json: { prompt: "P", models: ["preset:ghost", "demo:concise"] },
    });
    expect([bare.status, (await errorOf(bare)).code]).toEqual([400, "invalid_preset_id"]);
    await create({ name: "Params", modelId: "demo:concise" });
    const withParams = await api("/runs", {
      method: "POST",
      json: { question: "Q?", models: [{ id: "preset:params@1", params: { temperature: 1 } }] },
    });
    expect([withParams.status, (await errorOf(withParams)).code]).toEqual([400, "invalid_request"]);
  });
});

describe("presets at work", () => {
  it("a council run: the preset's model answers with the preset's system prompt and parameters, under the preset's id", async () => {
    await scriptModel(stub, "pw-base", [{ text: "Arr, the sky be blue." }]);
    await scriptModel(stub, "pw-other", [{ text: "Rayleigh scattering." }]);
    await scriptModel(stub, "pw-third", [{ text: "Short blue wavelengths scatter most." }]);
    await create({
      name: "Pirate",
      modelId: "openai:pw-base",
      systemPrompt: "You are a pirate.",
      temperature: 0.3,
      maxTokens: 77,
    });
    const id = await createRun({
      question: "Why is the sky blue?",
      models: [{ id: "preset:pirate@1" }, { id: "openai:pw-other" }, { id: "openai:pw-third" }],
    });
    const run = await finished(id);
    expect(run.run.status).toBe("done");
    const byModel = Object.fromEntries(run.answers.map((a) => [a.modelId, a]));
    expect(byModel["preset:pirate@1"].text).toBe("Arr, the sky be blue.");
    // The run page names it by the preset's name and version, not its id.
    expect(byModel["preset:pirate@1"].displayName).toBe("Pirate v1");
    // So do the run's names (its model beside it) and History's row, the winner included.
    expect(run.run.names?.["preset:pirate@1"]).toEqual({ displayName: "Pirate v1", modelId: "openai:pw-base" });
    const listed = (await ok(client.runs.$get({ query: { limit: "100" } }))).items.find((r) => r.id === id)!;
    expect(listed.names["preset:pirate@1"]).toEqual({ displayName: "Pirate v1", modelId: "openai:pw-base" });
    expect(listed.names["openai:pw-other"]).toEqual({ displayName: "pw-other", modelId: null });
    if (listed.winner?.modelId === "preset:pirate@1") expect(listed.winner.displayName).toBe("Pirate v1");

    const [answerCall] = await answerCalls("pw-base");
    expect(systemOf(answerCall)).toBe("You are a pirate.");
    expect(answerCall.body.temperature).toBe(0.3);
    expect(answerCall.body.max_completion_tokens ?? answerCall.body.max_tokens).toBe(77);
    expect(systemOf((await answerCalls("pw-other"))[0])).toBeNull();
    // As a reviewer it stays itself: its prompt comes before the review's instructions.
    const review = (await callsFor(stub, "pw-base")).find((c) => c.kind === "review")!;
    expect(systemOf(review)?.startsWith("You are a pirate.\n\n")).toBe(true);

    // Battles name the preset, so its leaderboard row is the preset's, with its model beside it.
    const battles = await env.DB.prepare("SELECT model_a, model_b FROM battles WHERE run_id = ?").bind(id).all<{
      model_a: string;
      model_b: string;
    }>();
    expect(battles.results.length).toBeGreaterThan(0);
    expect(battles.results.flatMap((b) => [b.model_a, b.model_b]).sort()).toContain("preset:pirate@1");
    const row = (await leaderboard({ source: "judge" })).rows.find((r) => r.modelId === "preset:pirate@1")!;
    expect(row).toMatchObject({ displayName: "Pirate v1", baseModel: "openai:pw-base" });
  });

  it("a council run with a judge-only preset reviewer: it reviews with its prompt and temperature, and is named by the preset", async () => {
    await scriptModel(stub, "pw-r-one", [{ text: "One." }]);
    await scriptModel(stub, "pw-r-two", [{ text: "Two." }]);
    await scriptModel(stub, "pw-r-judge", [
      {
        review: {
          reviews: ["A", "B"].map((label) => ({
            label,
            critique: `critique of ${label}`,
            scores: { correctness: 7, completeness: 7, clarity: 7, helpfulness: 7, safety: 7, overall: 7 },
          })),
          ranking: ["A", "B"],
          confidence: 0.6,
        },
      },
    ]);
    await create({
      name: "Run reviewer",
      modelId: "openai:pw-r-judge",
      systemPrompt: "Review kindly.",
      temperature: 0.4,
    });
    const id = await createRun({
      question: "Which is it?",
      models: [{ id: "openai:pw-r-one" }, { id: "openai:pw-r-two" }],
      settings: { reviewers: ["preset:run-reviewer@1"] },
    });
    const run = await finished(id);
    expect(run.run.status).toBe("done");
    const [review] = (await callsFor(stub, "pw-r-judge")).filter((c) => c.kind === "review");
    expect(systemOf(review)?.startsWith("Review kindly.\n\n")).toBe(true);
    expect(review.body.temperature).toBe(0.4);
    expect(run.reviewers.map((r) => r.reviewerModelId)).toEqual(["preset:run-reviewer@1"]);
    // The run page names the reviewer from the run's names, not its id.
    expect(run.run.names?.["preset:run-reviewer@1"]).toEqual({
      displayName: "Run reviewer v1",
      modelId: "openai:pw-r-judge",
    });
    const battle = await env.DB.prepare("SELECT reviewer_model_id AS judge FROM battles WHERE run_id = ?")
      .bind(id)
      .first<{ judge: string }>();
    expect(battle?.judge).toBe("preset:run-reviewer@1");
  });

  it("an arena comparison: a preset side answers with its prompt; a preset judge judges with its own", async () => {
    await scriptModel(stub, "pw-left", [{ text: "Short." }]);
    await scriptModel(stub, "pw-right", [{ text: "Long and careful." }]);
    await scriptModel(stub, "pw-judge", [
      { review: { winner: "A", scores: { A: 8, B: 5 }, reasons: "Sharper." } },
      { review: { winner: "B", scores: { A: 5, B: 8 }, reasons: "Sharper." } },
    ]);
    await create({ name: "Arena terse", modelId: "openai:pw-left", systemPrompt: "Be terse.", temperature: 0.1 });
    await create({ name: "Strict judge", modelId: "openai:pw-judge", systemPrompt: "You judge strictly." });
    const detail = await readyComparison(["preset:arena-terse@1", "openai:pw-right"], { blind: false });
    const id = detail.comparison.id;
    const [side] = await answerCalls("pw-left");
    expect(systemOf(side)).toBe("Be terse.");
    expect(side.body.temperature).toBe(0.1);
    expect(systemOf((await answerCalls("pw-right"))[0])).toBeNull();

    const judged = await client.comparisons[":id"].judge.$post({
      param: { id },
      json: { judges: ["preset:strict-judge@1"] },
    });
    expect(judged.status).toBe(202);
    const vote = await castVote(id, "left");
    expect(
      Object.values(vote.reveal)
        .map((r) => r.modelId)
        .sort(),
    ).toEqual(["openai:pw-right", "preset:arena-terse@1"]);
    expect(
      Object.values(vote.reveal)
        .map((r) => r.displayName)
        .sort(),
    ).toEqual(["Arena terse v1", "pw-right"]);
    await expect.poll(async () => (await callsFor(stub, "pw-judge")).length, { timeout: 10_000 }).toBe(2);
    for (const call of await callsFor(stub, "pw-judge"))
      expect(systemOf(call)?.startsWith("You judge strictly.\n\n")).toBe(true);
    const after = await getComparison(id);
    expect(after.judges?.map((j) => [j.judgeModelId, j.displayName])).toEqual([
      ["preset:strict-judge@1", "Strict judge v1"],
    ]);

    const row = (await leaderboard()).rows.find((r) => r.modelId === "preset:arena-terse@1")!;
    expect(row).toMatchObject({ displayName: "Arena terse v1", baseModel: "openai:pw-left", appearances: 1 });
    // History names the revealed preset by its name and version too.
    const listed = (await ok(client.comparisons.$get({ query: { limit: "100" } }))).items.find((c) => c.id === id);
    expect([listed?.reveal?.left, listed?.reveal?.right].map((r) => r?.displayName).sort()).toEqual([
      "Arena terse v1",
      "pw-right",
    ]);
  });

  it("QUORUM_ARENA_MODELS may list presets: a drawn preset answers with its prompt, unknown ones left out of the pool", async () => {
    await scriptModel(stub, "pw-pool-preset", [{ text: "Brief." }]);
    await scriptModel(stub, "pw-pool-plain", [{ text: "Plain." }]);
    await create({ name: "Pool terse", modelId: "openai:pw-pool-preset", systemPrompt: "Be brief." });
    // Of three, only the preset and the model can answer: the pair is those two, whichever side each lands on.
    const res = await withSettings(
      "/comparisons",
      { QUORUM_ARENA_MODELS: "preset:pool-terse@1,preset:no-such-preset@1,openai:pw-pool-plain" },
      { method: "POST", json: { prompt: "Say something.", blind: false } },
    );
    expect(res.status).toBe(201);
    const { id, mode } = (await res.json()) as { id: string; mode: string };
    expect(mode).toBe("sampled");
    await settled(id);
    const vote = await castVote(id, "tie");
    expect(
      Object.values(vote.reveal)
        .map((r) => r.modelId)
        .sort(),
    ).toEqual(["openai:pw-pool-plain", "preset:pool-terse@1"]);
    expect(systemOf((await answerCalls("pw-pool-preset"))[0])).toBe("Be brief.");
    // Drawn, it was claimed as a named preset is: used, so an edit now makes version 2.
    const shown = await ok(client.presets[":slug"].$get({ param: { slug: "pool-terse" } }));
    expect(shown.versions[0].usedAt).not.toBeNull();
  });

  it("a preset chairs a run's synthesis with its own prompt before the chair's instructions, and its own temperature", async () => {
    await scriptModel(stub, "pw-a", [{ text: "One answer." }]);
    await scriptModel(stub, "pw-b", [{ text: "Another answer." }]);
    await scriptModel(stub, "pw-chair", [{ text: "The final word." }]);
    await create({ name: "Chair", modelId: "openai:pw-chair", systemPrompt: "Write plainly.", temperature: 0.4 });
    const id = await createRun({
      question: "Which is better?",
      models: [{ id: "openai:pw-a" }, { id: "openai:pw-b" }],
      settings: { synthesis: { modelId: "preset:chair@1" } },
    });
    const run = await finished(id);
    expect(run.synthesis).toMatchObject({ modelId: "preset:chair@1", status: "done", text: "The final word." });
    const [call] = await answerCalls("pw-chair");
    expect(systemOf(call)?.startsWith("Write plainly.\n\nYou chair a council")).toBe(true);
    expect(call.body.temperature).toBe(0.4);
  });

  it("a preset reviews as a judge-only reviewer with its own prompt before the review's instructions", async () => {
    await scriptModel(stub, "pw-r1", [{ text: "First." }]);
    await scriptModel(stub, "pw-r2", [{ text: "Second." }]);
    await create({ name: "Reviewer", modelId: "openai:pw-reviewer", systemPrompt: "Review harshly." });
    const id = await createRun({
      question: "Which?",
      models: [{ id: "openai:pw-r1" }, { id: "openai:pw-r2" }],
      settings: { reviewers: ["preset:reviewer@1"] },
    });
    const run = await finished(id);
    expect(run.reviewers.map((r) => [r.reviewerModelId, r.status])).toEqual([["preset:reviewer@1", "done"]]);
    const [review] = await callsFor(stub, "pw-reviewer");
    expect(review.kind).toBe("review");
    expect(systemOf(review)?.startsWith("Review harshly.\n\n")).toBe(true);
  });

  it("two presets on one demo model answer a comparison differently, each as its system prompt asks", async () => {
    await create({ name: "Demo terse", modelId: "demo:thorough", systemPrompt: "Answer in one sentence." });
    await create({
      name: "Demo listed",
      modelId: "demo:thorough",
      systemPrompt: "Use bullet points and mention caveats.",
    });
    const { id } = await createComparison({
      prompt: "How should I name the branches of a git repository?",
      models: ["preset:demo-terse@1", "preset:demo-listed@1"],
      blind: false,
    });
    const detail = await settled(id);
    const [turn] = detail.turns;
    const texts = [turn.left.text, turn.right.text];
    const listed = texts.find((t) => t.includes("## Answer"))!;
    const terse = texts.find((t) => t !== listed)!;
    expect(listed).toContain("**Caveats:**");
    expect(terse.split(/\s+/).length).toBeLessThan(listed.split(/\s+/).length);
  });
});
