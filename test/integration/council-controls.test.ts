import { env } from "cloudflare:test";
import { describe, expect, inject, it } from "vitest";
import { estimateRunCost } from "../../worker/council/estimate";
import { MAX_REVIEWERS } from "../../worker/shared/constants";
import { createRunInput } from "../../worker/shared/requests";
import { SCORE_KEYS } from "../../worker/shared/run";
import { api, createRun, finished, openSocket } from "../helpers/runs";
import { type Refusal, withSettings } from "../helpers/spend";
import { callsFor, type JsonBody, type RecordedCall, scriptModel } from "../helpers/stub-client";

const stub = inject("stubUrl");

const reviewCalls = async (model: string) => (await callsFor(stub, model)).filter((c) => c.kind === "review");
const answerCalls = async (model: string) => (await callsFor(stub, model)).filter((c) => c.kind === "answer");

/** The review schema a call carried, whichever SDK sent it. */
function sentSchema(call: RecordedCall): JsonBody {
  if (call.protocol === "anthropic") return call.body.tools[0].input_schema;
  if (call.protocol === "google") return call.body.generationConfig.responseJsonSchema;
  return call.body.response_format.json_schema.schema;
}
const scoreKeysOf = (schema: JsonBody) => Object.keys(schema.properties.reviews.items.properties.scores.properties);
const labelsOf = (schema: JsonBody) => [...(schema.properties.ranking.items.enum as unknown as string[])];

async function judgeBattles(runId: string) {
  const { results } = await env.DB.prepare(
    "SELECT id, model_a AS a, model_b AS b, winner, reviewer_model_id AS reviewer FROM battles WHERE run_id = ? AND source = 'judge' ORDER BY id",
  )
    .bind(runId)
    .all<{ id: string; a: string; b: string; winner: string; reviewer: string }>();
  return results;
}

describe("judge-only reviewers (settings.reviewers)", () => {
  it("review every answer through the SDKs without answering, and their rankings are judge battles", async () => {
    await scriptModel(stub, "jo-gpt", [{ text: "Water boils at 100 °C at sea level." }]);
    await scriptModel(stub, "jo-claude", [{ text: "At sea level, 100 degrees Celsius." }]);
    const id = await createRun({
      question: "At what temperature does water boil?",
      models: [{ id: "openai:jo-gpt" }, { id: "anthropic:jo-claude" }],
      settings: { reviewers: ["google:jo-judge"] },
    });
    const detail = await finished(id);
    expect(detail.run.status).toBe("done");
    expect(detail.run.settings.reviewers).toEqual(["google:jo-judge"]);

    // The judge made one call, a review; the answerers made no review call of their own.
    expect(await callsFor(stub, "jo-judge")).toHaveLength(1);
    expect(await answerCalls("jo-judge")).toEqual([]);
    expect(await reviewCalls("jo-gpt")).toEqual([]);
    expect(await reviewCalls("jo-claude")).toEqual([]);
    const [call] = await reviewCalls("jo-judge");
    expect(labelsOf(sentSchema(call))).toEqual(["A", "B"]);

    expect(detail.answers.map((a) => a.modelId).sort()).toEqual(["anthropic:jo-claude", "openai:jo-gpt"]);
    expect(detail.reviewers).toHaveLength(1);
    const [judge] = detail.reviewers;
    expect(judge).toMatchObject({
      id: `${id}-j1`,
      reviewerModelId: "google:jo-judge",
      reviewerLabel: null,
      status: "done",
    });
    expect(judge.ranking!.sort()).toEqual(["A", "B"]);
    expect(detail.reviews.map((v) => v.targetLabel).sort()).toEqual(["A", "B"]);
    expect(detail.aggregation!.voteBreakdown.reviewers).toMatchObject([{ reviewSetId: judge.id, reviewerLabel: null }]);

    // Its ranking is one battle, better-ranked first, recorded with the judge as its reviewer.
    const modelOf = (label: string) => detail.answers.find((a) => a.label === label)!.modelId;
    const [first, second] = detail.reviewers[0].ranking!;
    expect(await judgeBattles(id)).toEqual([
      {
        id: `${judge.id}-${first}${second}`,
        a: modelOf(first),
        b: modelOf(second),
        winner: "model_a",
        reviewer: "google:jo-judge",
      },
    ]);
    const md = await (await api(`/runs/${id}/export?format=md`)).text();
    expect(md).toContain("### Reviewer google:jo-judge (judge only: wrote no answer)");
  });

  it("sit beside answering reviewers, who keep the self-review rule", async () => {
    const id = await createRun({
      question: "Name a prime number.",
      models: [{ id: "openai:mix-a" }, { id: "anthropic:mix-b" }, { id: "google:mix-c" }],
      settings: { blind: false, reviewers: ["openai:mix-a", "openai:mix-judge"] },
    });
    const detail = await finished(id);
    expect(detail.run.status).toBe("done");
    const own = detail.answers.find((a) => a.modelId === "openai:mix-a")!.label;
    const others = detail.answers.map((a) => a.label).filter((l) => l !== own);
    expect(detail.reviewers.map((r) => [r.reviewerModelId, r.reviewerLabel])).toEqual([
      ["openai:mix-a", own],
      ["openai:mix-judge", null],
    ]);
    expect(labelsOf(sentSchema((await reviewCalls("mix-a"))[0]))).toEqual(others.sort());
    expect(labelsOf(sentSchema((await reviewCalls("mix-judge"))[0]))).toEqual(["A", "B", "C"]);
    expect(await reviewCalls("mix-b")).toEqual([]);
    expect(await answerCalls("mix-judge")).toEqual([]);
    // One battle from the answering reviewer's two, three from the judge's three.
    const battles = await judgeBattles(id);
    expect(battles.filter((b) => b.reviewer === "openai:mix-a")).toHaveLength(1);
    expect(battles.filter((b) => b.reviewer === "openai:mix-judge")).toHaveLength(3);
  });

  it("keep a blind run blind: no event names a model before the end, which names the judge too", async () => {
    const id = await createRun({
      question: "Blind with a judge?",
      models: [{ id: "demo:concise" }, { id: "demo:thorough" }],
      settings: { reviewers: ["demo:skeptic"] },
    });
    const socket = await openSocket(id, 0);
    await socket.until((e) => e.type === "run.completed", "end of the run", 15_000);
    socket.close();
    const before = socket.events.filter((e) => e.type !== "run.completed");
    expect(before.some((e) => e.type === "review.completed")).toBe(true);
    for (const e of before) {
      if ("modelId" in e) expect(e.modelId).toBeNull();
      if ("reviewerModelId" in e) expect(e.reviewerModelId).toBeNull();
    }
    const end = socket.events.find((e) => e.type === "run.completed");
    expect(end?.type === "run.completed" && end.unblinded?.reviewers.map((r) => r.reviewerModelId)).toEqual([
      "demo:skeptic",
    ]);
  });

  it("work with the demo models: a demo judge reviews the other two demos' answers", async () => {
    const id = await createRun({
      question: "Explain recursion in one paragraph.",
      models: [{ id: "demo:concise" }, { id: "demo:thorough" }],
      settings: { reviewers: ["demo:skeptic"] },
    });
    const detail = await finished(id);
    expect(detail.run.status).toBe("done");
    expect(detail.answers.map((a) => a.modelId).sort()).toEqual(["demo:concise", "demo:thorough"]);
    expect(detail.reviewers.map((r) => [r.reviewerModelId, r.reviewerLabel, r.status])).toEqual([
      ["demo:skeptic", null, "done"],
    ]);
    expect(detail.reviews).toHaveLength(2);
    expect(detail.aggregation!.finalRanking).toHaveLength(2);
    expect((await judgeBattles(id)).map((b) => b.reviewer)).toEqual(["demo:skeptic"]);
  });
});

describe("the spend estimate of a run with judge-only reviewers", () => {
  it("counts each reviewer's calls at its own price, and refuses an unpriced one under a cap", () => {
    const input = createRunInput.parse({
      question: "Hi",
      models: [{ id: "demo:concise" }, { id: "demo:thorough" }],
      settings: { reviewers: ["openai:gpt-4.1"] },
    });
    // The demo answerers are free. gpt-4.1 ($2 / $8 a million) reads, twice at most, the review prompt (800
    // tokens), the question (1) and two answers at the 4,096-token allowance, and writes 400 tokens per answer.
    const tokensIn = 2 * (800 + 1 + 2 * 4096);
    const tokensOut = 2 * 400 * 2;
    expect(estimateRunCost(env, input).usd).toBeCloseTo((tokensIn * 2 + tokensOut * 8) / 1e6, 12);
    expect(estimateRunCost(env, { ...input, settings: { ...input.settings, reviewers: undefined } }).usd).toBe(0);
  });

  it("refuses an unpriced judge-only reviewer under a cap before any call", async () => {
    const res = await withSettings(
      "/runs",
      { QUORUM_MAX_RUN_USD: "1" },
      {
        method: "POST",
        json: {
          question: "Hi",
          models: [{ id: "demo:concise" }, { id: "demo:thorough" }],
          settings: { reviewers: ["openai:unpriced-judge"] },
        },
      },
    );
    expect(res.status).toBe(400);
    expect(((await res.json()) as Refusal).error.details.unpriced).toEqual(["openai:unpriced-judge"]);
    expect(await callsFor(stub, "unpriced-judge")).toEqual([]);
  });
});

/** Two judges that disagree, so the Borda points tie and the rubric's weighted overall decides. */
const RUBRIC = {
  dimensions: [
    { key: "accuracy", description: "Are the facts right?", weight: 3 },
    { key: "brevity", description: "Is it short?", weight: 1 },
    { key: "tone", description: "Is it friendly?", weight: 1 },
  ],
  categoryWeights: { style: { brevity: 5 } },
};
const review = (ranking: string[], a: number[], b: number[]) => ({
  reviews: [
    { label: "A", critique: "About A.", scores: { accuracy: a[0], brevity: a[1], tone: a[2] } },
    { label: "B", critique: "About B.", scores: { accuracy: b[0], brevity: b[1], tone: b[2] } },
  ],
  ranking,
  confidence: 0.9,
});

async function rubricRun(prefix: string, category?: string) {
  await scriptModel(stub, `${prefix}-judge-1`, [{ review: review(["A", "B"], [8, 4, 6], [6, 10, 6]) }]);
  await scriptModel(stub, `${prefix}-judge-2`, [{ review: review(["B", "A"], [9, 5, 7], [5, 9, 8]) }]);
  const id = await createRun({
    question: "Say hello.",
    models: [{ id: `openai:${prefix}-a` }, { id: `google:${prefix}-b` }],
    settings: {
      reviewers: [`openai:${prefix}-judge-1`, `anthropic:${prefix}-judge-2`],
      rubric: RUBRIC,
      ...(category ? { category } : {}),
    },
  });
  return { id, detail: await finished(id) };
}

describe("a custom rubric (settings.rubric)", () => {
  it("is the schema's keys, the stored scores and the score means, and its weighted overall breaks the tie", async () => {
    const { id, detail } = await rubricRun("rb");
    expect(detail.run.status).toBe("done");
    for (const model of ["rb-judge-1", "rb-judge-2"]) {
      const [call] = await reviewCalls(model);
      const schema = sentSchema(call);
      expect(scoreKeysOf(schema)).toEqual(["accuracy", "brevity", "tone"]);
      expect(schema.properties.reviews.items.properties.scores.properties.accuracy.description).toBe(
        "Are the facts right?: 0 (worst) to 10 (best)",
      );
    }
    const [anthropicCall] = await reviewCalls("rb-judge-2");
    expect(JSON.stringify(anthropicCall.body.system)).toContain(
      "accuracy: Are the facts right? (weight 3 in the overall)",
    );

    for (const v of detail.reviews) expect(Object.keys(v.scores)).toEqual(["accuracy", "brevity", "tone"]);
    const stored = await env.DB.prepare("SELECT scores FROM reviews WHERE run_id = ? ORDER BY id").bind(id).all<{
      scores: string;
    }>();
    expect(stored.results.map((r) => JSON.parse(r.scores))).toEqual([
      { accuracy: 8, brevity: 4, tone: 6 },
      { accuracy: 6, brevity: 10, tone: 6 },
      { accuracy: 9, brevity: 5, tone: 7 },
      { accuracy: 5, brevity: 9, tone: 8 },
    ]);

    // By hand: A's means are 8.5, 4.5, 6.5, so its overall is (3·8.5 + 4.5 + 6.5) / 5 = 7.3;
    // B's are 5.5, 9.5, 7, so (3·5.5 + 9.5 + 7) / 5 = 6.6. Unweighted, B would lead (7.33 to 6.5).
    const agg = detail.aggregation!;
    expect(agg.voteBreakdown.scoreMeans).toEqual({
      A: { accuracy: 8.5, brevity: 4.5, tone: 6.5, overall: 7.3 },
      B: { accuracy: 5.5, brevity: 9.5, tone: 7, overall: 6.6 },
    });
    expect(agg.voteBreakdown.bordaTotals).toEqual({ A: 1, B: 1 });
    expect(agg.voteBreakdown.tieBreaks).toEqual([{ labels: ["A", "B"], decidedBy: "meanOverall" }]);
    expect(agg.voteBreakdown.tieKey).toBe("accuracy");
    expect(agg.finalRanking.map((e) => [e.rank, e.label, e.meanOverall, e.meanCorrectness])).toEqual([
      [1, "A", 7.3, null],
      [2, "B", 6.6, null],
    ]);

    const md = await (await api(`/runs/${id}/export?format=md`)).text();
    expect(md).toContain("| accuracy | Are the facts right? | 3 |");
    expect(md).toContain("| Rank | Answer | Borda | First-place votes | Mean overall | Mean accuracy |");
    expect(md).toContain("- **Answer A** — overall 6.80, accuracy 8, brevity 4, tone 6");
  });

  it("takes the weights of the run's category", async () => {
    const { detail } = await rubricRun("rbcat", "style");
    // With brevity at 5: A = (3·8.5 + 5·4.5 + 6.5) / 9 = 54.5 / 9, B = (3·5.5 + 5·9.5 + 7) / 9 = 71 / 9.
    const means = detail.aggregation!.voteBreakdown.scoreMeans;
    expect(means.A.overall).toBeCloseTo(54.5 / 9, 9);
    expect(means.B.overall).toBeCloseTo(71 / 9, 9);
    expect(detail.aggregation!.finalRanking.map((e) => e.label)).toEqual(["B", "A"]);
    expect(detail.aggregation!.voteBreakdown.tieKey).toBe("brevity");
  });

  it("is what the demo reviewers score: known keys from their dimensions, the rest from their overall", async () => {
    const id = await createRun({
      question: "Explain recursion in one paragraph.",
      models: [{ id: "demo:concise" }, { id: "demo:thorough" }, { id: "demo:skeptic" }],
      settings: {
        rubric: {
          dimensions: [
            { key: "accuracy", description: "Are the facts right?", weight: 2 },
            { key: "style", description: "Does it read well?", weight: 1 },
          ],
        },
      },
    });
    const detail = await finished(id);
    expect(detail.run.status).toBe("done");
    expect(detail.reviewers.every((r) => r.status === "done")).toBe(true);
    for (const v of detail.reviews) expect(Object.keys(v.scores)).toEqual(["accuracy", "style"]);
    for (const means of Object.values(detail.aggregation!.voteBreakdown.scoreMeans))
      expect(Object.keys(means)).toEqual(["accuracy", "style", "overall"]);
  });
});

describe("a run without reviewers or a rubric", () => {
  it("stores its settings, reviews and aggregation as before: the six default scores, no tie key", async () => {
    const id = await createRun({ question: "Default?", models: [{ id: "demo:concise" }, { id: "demo:skeptic" }] });
    const detail = await finished(id);
    const row = await env.DB.prepare("SELECT settings FROM runs WHERE id = ?").bind(id).first<{ settings: string }>();
    const settings = JSON.parse(row!.settings) as Record<string, unknown>;
    for (const key of ["reviewers", "rubric", "category"]) expect(settings).not.toHaveProperty(key);
    for (const v of detail.reviews) expect(Object.keys(v.scores)).toEqual([...SCORE_KEYS]);
    expect(detail.aggregation!.voteBreakdown).not.toHaveProperty("tieKey");
    expect(detail.reviewers.map((r) => r.id).sort()).toEqual([`${id}-rA`, `${id}-rB`]);
  });
});

describe("reviewers and rubrics that are refused", () => {
  const refused = async (
    settings: Record<string, unknown>,
    models = [{ id: "demo:concise" }, { id: "demo:thorough" }],
  ) => {
    const res = await api("/runs", { method: "POST", json: { question: "Q?", models, settings } });
    expect(res.status).toBe(400);
    return (await res.json<{ error: { code: string; message: string } }>()).error;
  };
  const dims = (n: number) =>
    Array.from({ length: n }, (_, i) => ({ key: `d${i}`, description: `dimension ${i}`, weight: 1 }));

  it("names what is wrong with the reviewers", async () => {
    expect((await refused({ reviewers: [] })).message).toContain("name at least one reviewer");
    expect((await refused({ reviewers: ["demo:skeptic", "demo:skeptic"] })).message).toContain(
      "each reviewer may appear only once",
    );
    const many = Array.from({ length: MAX_REVIEWERS + 1 }, (_, i) => ({ id: `openai:m${i}` }));
    expect((await refused({ reviewers: many.map((m) => m.id) }, [{ id: "demo:concise" }])).message).toContain(
      `at most ${MAX_REVIEWERS} reviewers`,
    );
    expect((await refused({ reviewers: ["nope:model"] })).code).toBe("unknown_provider");
    expect((await refused({ reviewers: ["gpt-4o"] })).message).toContain("provider:model-name");
    const blind = await refused({ reviewers: ["demo:concise", "demo:skeptic"] });
    expect(blind.message).toContain("in a blind run the reviewers must include every answering model or none");
  });

  it("names what is wrong with the rubric", async () => {
    const rubric = (r: unknown) => refused({ rubric: r });
    expect((await rubric({ dimensions: [] })).message).toContain("at least one dimension");
    expect((await rubric({ dimensions: dims(11) })).message).toContain("at most 10 dimensions");
    expect((await rubric({ dimensions: [...dims(1), ...dims(1)] })).message).toContain("only once");
    expect((await rubric({ dimensions: [{ key: "Has Space", description: "x" }] })).message).toContain(
      "lowercase letters",
    );
    expect((await rubric({ dimensions: [{ key: "overall", description: "x" }] })).message).toContain(
      '"overall" is kept',
    );
    expect((await rubric({ dimensions: [{ key: "a", description: "x", weight: 0 }] })).message).toContain("above 0");
    expect((await rubric({ dimensions: [{ key: "a", description: "" }] })).message).toContain("say what");
    expect((await rubric({ dimensions: [{ key: "a", description: "x".repeat(301) }] })).message).toContain(
      "at most 300",
    );
    const stray = await rubric({ dimensions: dims(2), categoryWeights: { math: { d9: 2 } } });
    expect(stray.message).toBe(
      'settings.rubric.categoryWeights.math.d9: "d9" is not one of the rubric\'s dimensions (d0, d1)',
    );
    expect((await refused({ category: "" })).message).toContain("the category is empty");
  });
});
