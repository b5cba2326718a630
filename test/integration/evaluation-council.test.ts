import { abortAllDurableObjects, env } from "cloudflare:test";
import { describe, expect, inject, it } from "vitest";
import { client, ok } from "../helpers/client";
import {
  ended,
  evalBattles,
  evaluationUntil,
  promptSet,
  startEvaluation,
  type CreateEvaluationBody,
} from "../helpers/evaluations";
import {
  ANSWER_TEXT,
  CONTESTANTS,
  type Contestant,
  callCount,
  type Panel,
  panelModel,
  scriptContestants,
} from "../helpers/evaluation-panel";
import { createRun, finished } from "../helpers/runs";
import { callsFor, releaseHold, ruleFor, scriptModel, waitForHeld } from "../helpers/stub-client";

const stub = inject("stubUrl");
const PROMPTS = ["First question?", "Second question?", "Third question?"];
const WORD = { good: "GOOD", base: "BASE", flip: "FLIP" } as const;
const LABELS = ["A", "B", "C"];

/** Every way of dealing labels A, B, C to the three answers. */
function deals(): Record<string, Contestant>[] {
  const out: Record<string, Contestant>[] = [];
  for (const a of CONTESTANTS)
    for (const b of CONTESTANTS.filter((k) => k !== a)) {
      const c = CONTESTANTS.find((k) => k !== a && k !== b)!;
      out.push({ A: a, B: b, C: c });
    }
  return out;
}

/**
 * A reviewer that ranks by what an answer says, whatever its label: for every way the labels may be dealt, a rule
 * that matches a packet whose answers (the ones shown: a contestant's own is left out) read so, and ranks them in
 * `taste`'s order. The parser drops the labels the reviewer wasn't asked about, as a council's does.
 */
async function reviewerRanking(model: string, taste: Contestant[]) {
  for (const deal of deals()) {
    const each = LABELS.map(
      (l) => `(?:(?=[\\s\\S]*### Answer ${l}[^#]*${WORD[deal[l]]})|(?![\\s\\S]*### Answer ${l}))`,
    ).join("");
    const labelOf = (k: Contestant) => LABELS.find((l) => deal[l] === k)!;
    const review = {
      reviews: LABELS.map((label) => ({
        label,
        critique: `${WORD[deal[label]]} as seen by ${model}`,
        scores: { correctness: 7, completeness: 7, clarity: 7, helpfulness: 7, safety: 7, overall: 7 },
      })),
      ranking: taste.map(labelOf),
      confidence: 0.7,
    };
    // Anchored: from a later start every label would look absent.
    await ruleFor(stub, model, `^(?=[\\s\\S]*### Answer )${each}`, { review });
  }
}

/** Three contestants over three vendors' SDKs; two judges with opposite tastes. */
async function scriptCouncil(tag: string, contestantsReview = false): Promise<Panel> {
  const taste: Contestant[] = ["good", "base", "flip"];
  // Before their answers' rule, which matches any request: a review request must meet its own rule first.
  if (contestantsReview) for (const k of CONTESTANTS) await reviewerRanking(panelModel(tag, k), taste);
  const panel = await scriptContestants(stub, tag);
  await reviewerRanking(panelModel(tag, "j1"), taste);
  await reviewerRanking(panelModel(tag, "j2"), ["flip", "good", "base"]);
  return panel;
}

const kindCount = (model: string, kind: "answer" | "review") => callCount(stub, model, kind);

type Battle = { judge: string; a: string; b: string; winner: string };
const sorted = (battles: Battle[]) =>
  battles.map((b) => `${b.judge} ${b.a} ${b.b} ${b.winner}`).sort((x, y) => (x < y ? -1 : x > y ? 1 : 0));

/** The judge battles of a council run on `question` among the same contestants, with the same reviewers. */
async function equivalentRun(question: string, contestants: string[], reviewers: string[]): Promise<Battle[]> {
  const id = await createRun({
    question,
    models: contestants.map((c) => ({ id: c })),
    settings: reviewers.length ? { reviewers } : {},
  });
  const run = await finished(id);
  expect(run.run.status).toBe("done");
  const { results } = await env.DB.prepare(
    "SELECT reviewer_model_id AS judge, model_a AS a, model_b AS b, winner FROM battles WHERE run_id = ? AND source = 'judge'",
  )
    .bind(id)
    .all<Battle>();
  return results;
}

async function expectSameBattlesAsRuns(evaluationId: string, contestants: string[], reviewers: string[]) {
  const battles = await evalBattles(evaluationId);
  for (const [i, prompt] of PROMPTS.entries()) {
    const mine = battles.filter((b) => b.item === `q${i + 1}`);
    expect(sorted(mine)).toEqual(sorted(await equivalentRun(prompt, contestants, reviewers)));
  }
  return battles;
}

describe("a council evaluation", () => {
  it("makes items × contestants answers and items × reviewers reviews, and writes the same battles as the equivalent runs", async () => {
    const p = await scriptCouncil("ec1");
    const setId = await promptSet("set-ec1", PROMPTS);
    const contestants = [p.base, p.good, p.flip];
    const plan: CreateEvaluationBody = { promptSetId: setId, method: "council", contestants, judges: [p.j1, p.j2] };
    const estimate = await ok(client.evaluations.estimate.$post({ json: plan }));
    expect(estimate).toMatchObject({ answerCalls: 9, judgeCalls: 0, reviewCalls: 6, selfSkipped: 0 });
    const started = await startEvaluation(plan);
    expect(started.estimate).toEqual(estimate);
    const done = await ended(started.id);
    expect(done.status).toBe("completed");
    expect(done.method).toBe("council");
    expect(done.progress.answers).toMatchObject({ done: 9, total: 9 });
    expect(done.progress.judgments).toMatchObject({ done: 6, failed: 0, total: 6 });
    expect(done.progress.contestants.find((c) => c.contestant === p.good)).toMatchObject({
      answered: 3,
      judged: 6,
      judgedTotal: 6,
    });
    for (const k of ["base", "good", "flip"]) expect(await kindCount(`ec1-${k}`, "answer")).toBe(3);
    for (const k of ["base", "good", "flip"]) expect(await kindCount(`ec1-${k}`, "review")).toBe(0);
    expect(await kindCount("ec1-j1", "review")).toBe(3);
    expect(await kindCount("ec1-j2", "review")).toBe(3);

    // Each review ranks three answers: three battles, the better-ranked as model_a and the winner.
    const battles = await expectSameBattlesAsRuns(started.id, contestants, [p.j1, p.j2]);
    expect(battles).toHaveLength(18);
    expect(battles.every((b) => b.winner === "model_a")).toBe(true);
    const won = (judge: string, a: string, b: string) =>
      battles.filter((x) => x.judge === judge && x.a === a && x.b === b).length;
    expect(won(p.j1, p.good, p.base)).toBe(3);
    expect(won(p.j1, p.base, p.flip)).toBe(3);
    expect(won(p.j2, p.flip, p.good)).toBe(3);
  });

  it("has the contestants review each other by default, each leaving its own answer out, as a run does", async () => {
    const p = await scriptCouncil("ec2", true);
    const setId = await promptSet("set-ec2", PROMPTS);
    const contestants = [p.base, p.good, p.flip];
    const started = await startEvaluation({ promptSetId: setId, method: "council", contestants });
    expect(started.estimate).toMatchObject({ answerCalls: 9, judgeCalls: 0, reviewCalls: 9 });
    const done = await ended(started.id);
    expect(done.status).toBe("completed");
    for (const k of ["base", "good", "flip"]) {
      expect(await kindCount(`ec2-${k}`, "answer")).toBe(3);
      expect(await kindCount(`ec2-${k}`, "review")).toBe(3);
    }
    // Each contestant ranks the other two: one battle per review.
    const battles = await expectSameBattlesAsRuns(started.id, contestants, []);
    expect(battles).toHaveLength(9);
    expect(battles.filter((b) => b.judge === p.good).every((b) => b.a === p.base && b.b === p.flip)).toBe(true);
  });

  it("after a restart half-way, makes no completed call again", async () => {
    const p = await scriptCouncil("ec3");
    // The last item's FLIP answer is held while the rest completes.
    await scriptModel(
      stub,
      "ec3-flip",
      [{}, {}].map(() => ({ text: ANSWER_TEXT.flip })),
    );
    await scriptModel(stub, "ec3-flip", [{ holdKey: "ec3-held", text: ANSWER_TEXT.flip }]);
    const setId = await promptSet("set-ec3", PROMPTS);
    const contestants = [p.base, p.good, p.flip];
    const started = await startEvaluation({ promptSetId: setId, method: "council", contestants, judges: [p.j1, p.j2] });
    await waitForHeld(stub, "ec3-held", 1, 10_000);
    await evaluationUntil(
      started.id,
      (e) => e.progress.answers.done === 8 && e.progress.judgments.done === 4,
      "every call but the held one's and the reviews waiting on it",
    );
    await abortAllDurableObjects();
    await releaseHold(stub, "ec3-held");
    const done = await ended(started.id);
    expect(done.status).toBe("completed");
    expect(await kindCount("ec3-base", "answer")).toBe(3);
    expect(await kindCount("ec3-good", "answer")).toBe(3);
    // The held call never completed, so it alone was asked again.
    expect(await kindCount("ec3-flip", "answer")).toBe(4);
    expect(await kindCount("ec3-j1", "review")).toBe(3);
    expect(await kindCount("ec3-j2", "review")).toBe(3);
    expect(await evalBattles(started.id)).toHaveLength(18);
  });

  it("reports ratings and win rates from its rankings, and shows each reviewer's ranking and reasons per item", async () => {
    const p = await scriptCouncil("ec5");
    const setId = await promptSet("set-ec5", PROMPTS);
    const contestants = [p.base, p.good, p.flip];
    const started = await startEvaluation({
      promptSetId: setId,
      method: "council",
      contestants,
      baseline: p.base,
      judges: [p.j1, p.j2],
    });
    await ended(started.id);
    const id = started.id;
    const report = await ok(client.evaluations[":id"].report.$get({ param: { id } }));
    expect(report.method).toBe("council");
    expect(report.baseline).toBe(p.base);
    expect(report.methods.counting).toMatch(/council run's/);
    // j1 ranks GOOD, BASE, FLIP and j2 FLIP, GOOD, BASE on every item: GOOD beats BASE 6–0, the rest split 3–3.
    const byRating = [...report.rows].sort((x, y) => (y.bt ?? 0) - (x.bt ?? 0));
    expect(byRating.map((r) => r.contestant)).toEqual([p.good, p.flip, p.base]);
    const row = (c: string) => report.rows.find((r) => r.contestant === c)!;
    expect(row(p.base).bt).toBe(1000);
    expect(row(p.good).winRate).toBeGreaterThan(0.5);
    expect(row(p.good).ciLower).not.toBeNull();
    expect(report.totals).toMatchObject({ items: 3, answers: 9, judgments: 6 });
    // A reviewer ranks each pair once: nothing to flip.
    expect(report.judgeSummaries).toEqual([
      { judge: p.j2, judgments: 3, failures: 0, pairs: 0, flips: 0, flipRate: null, costUsd: 0 },
      { judge: p.j1, judgments: 3, failures: 0, pairs: 0, flips: 0, flipRate: null, costUsd: 0 },
    ]);

    const item = await ok(client.evaluations[":id"].items[":itemId"].$get({ param: { id, itemId: "q1" } }));
    expect(item.judgments).toEqual([]);
    expect(item.reviews?.map((r) => [r.reviewer, r.ranking])).toEqual([
      [p.j2, [p.flip, p.good, p.base]],
      [p.j1, [p.good, p.base, p.flip]],
    ]);
    expect(item.reviews?.[1].reviews.find((v) => v.contestant === p.good)?.critique).toBe("GOOD as seen by ec5-j1");

    const matrix = await ok(client.evaluations[":id"].matrix.$get({ param: { id }, query: {} }));
    expect(matrix.rows).toHaveLength(3);
    const lines = await (
      await client.evaluations[":id"].export.$get({ param: { id }, query: { format: "battles" } })
    ).text();
    expect(lines.trim().split("\n")).toHaveLength(18);
  });

  it("retries a failed answer, then the review of the contestant that waited on it", async () => {
    const p = await scriptCouncil("ec6", true);
    await scriptModel(stub, "ec6-good", [{ status: 400, errorMessage: "bad request once" }]);
    const setId = await promptSet("set-ec6", PROMPTS.slice(0, 1));
    const started = await startEvaluation({
      promptSetId: setId,
      method: "council",
      contestants: [p.base, p.good, p.flip],
    });
    const first = await ended(started.id);
    expect(first.status).toBe("completed");
    expect(first.progress.answers).toMatchObject({ done: 2, failed: 1 });
    // BASE and FLIP each rank the one other answer that came back (no pair, so no battle); GOOD, whose answer
    // failed, doesn't review (as in a run).
    expect(first.progress.judgments).toMatchObject({ done: 2, blocked: 1 });
    expect(await evalBattles(started.id)).toHaveLength(0);

    const res = await client.evaluations[":id"].retry.$post({ param: { id: started.id } });
    expect(await res.json()).toEqual({ id: started.id, status: "running" });
    const done = await ended(started.id);
    expect(done.progress.answers).toMatchObject({ done: 3, failed: 0 });
    expect(done.progress.judgments).toMatchObject({ done: 3, blocked: 0 });
    expect(await kindCount("ec6-good", "answer")).toBe(2);
    expect(await kindCount("ec6-good", "review")).toBe(1);
    expect(await kindCount("ec6-base", "review")).toBe(1);
    // GOOD's review ranks BASE over FLIP: the one battle.
    expect(await evalBattles(started.id)).toMatchObject([{ judge: p.good, a: p.base, b: p.flip, winner: "model_a" }]);
  });

  it("runs on the demo models with no keys, its reviewers answering the council's review schema", async () => {
    const setId = await promptSet("set-ec7", ["How do tides work?", "Why is the sky blue?"]);
    const started = await startEvaluation({
      promptSetId: setId,
      method: "council",
      contestants: ["demo:concise", "demo:thorough", "demo:skeptic"],
      baseline: "demo:concise",
    });
    const done = await ended(started.id);
    expect(done.progress.answers).toMatchObject({ done: 6, failed: 0 });
    expect(done.progress.judgments).toMatchObject({ done: 6, failed: 0 });
    // Each contestant ranks the other two on each item: one battle per review.
    expect(await evalBattles(started.id)).toHaveLength(6);
    const report = await ok(client.evaluations[":id"].report.$get({ param: { id: started.id } }));
    expect(report.rows.every((r) => r.bt !== null)).toBe(true);
  });

  it("takes a preset as a reviewer: its model reviews with its system prompt and temperature, under its name", async () => {
    const p = await scriptCouncil("ec8");
    const strict = await ok(
      client.presets.$post({
        json: { name: "Strict ec8", modelId: p.j1, systemPrompt: "You review strictly.", temperature: 0.15 },
      }),
    );
    const setId = await promptSet("set-ec8", PROMPTS);
    const contestants = [p.base, p.good, p.flip];
    const started = await startEvaluation({
      promptSetId: setId,
      method: "council",
      contestants,
      judges: [strict.id, p.j2],
    });
    expect(started.estimate).toMatchObject({ answerCalls: 9, reviewCalls: 6 });
    const done = await ended(started.id);
    expect(done.status).toBe("completed");
    expect(done.progress.judgments).toMatchObject({ done: 6, failed: 0 });
    const reviews = (await callsFor(stub, "ec8-j1")).filter((c) => c.kind === "review");
    expect(reviews).toHaveLength(3);
    for (const call of reviews) {
      const messages = call.body.messages as unknown as { role: string; content: string }[];
      expect(messages.find((m) => m.role === "system")?.content.startsWith("You review strictly.\n\n")).toBe(true);
      expect(call.body.temperature).toBe(0.15);
    }
    // The preset keeps its id in the battles, which are those of council runs with the same preset as a reviewer.
    const battles = await expectSameBattlesAsRuns(started.id, contestants, [strict.id, p.j2]);
    expect(battles.filter((b) => b.judge === strict.id)).toHaveLength(9);
    // A run's judge-only preset reviewer, too, reviews with the preset's temperature.
    const all = (await callsFor(stub, "ec8-j1")).filter((c) => c.kind === "review");
    expect(all.map((c) => c.body.temperature)).toEqual(Array(6).fill(0.15));

    const id = started.id;
    const report = await ok(client.evaluations[":id"].report.$get({ param: { id } }));
    expect(report.names[strict.id]).toEqual({ displayName: "Strict ec8 v1", modelId: p.j1 });
    expect(report.judgeSummaries.map((j) => j.judge).sort()).toEqual([p.j2, strict.id].sort());
    const item = await ok(client.evaluations[":id"].items[":itemId"].$get({ param: { id, itemId: "q1" } }));
    expect(item.reviews?.find((r) => r.reviewer === strict.id)?.ranking).toEqual([p.good, p.base, p.flip]);
    const used = await env.DB.prepare("SELECT used_at AS usedAt FROM presets WHERE slug = ?")
      .bind(strict.slug)
      .first<{ usedAt: number | null }>();
    expect(used?.usedAt).not.toBeNull();
  });

  it("gives reviewers a multi-turn item's earlier turns before its last prompt, as pairwise judges get them", async () => {
    const p = await scriptCouncil("ec9");
    await env.DB.batch([
      env.DB.prepare("INSERT INTO prompt_sets (id, name, items) VALUES ('set-ec9', 'turns', 1)"),
      env.DB.prepare(
        "INSERT INTO prompt_set_items (set_id, position, item_id, prompt, turns) VALUES ('set-ec9', 0, 'chat-1', 'And in Celsius?', ?)",
      ).bind(
        JSON.stringify([
          { role: "user", content: "What is a normal body temperature in Fahrenheit?" },
          { role: "assistant", content: "About 98.6 °F." },
        ]),
      ),
    ]);
    const started = await startEvaluation({
      promptSetId: "set-ec9",
      method: "council",
      contestants: [p.base, p.good, p.flip],
      judges: [p.j1],
    });
    const done = await ended(started.id);
    expect(done.progress.judgments).toMatchObject({ done: 1, failed: 0 });
    const [review] = (await callsFor(stub, "ec9-j1")).filter((c) => c.kind === "review");
    const messages = review.body.messages as unknown as { role: string; content: string }[];
    const packet = messages.filter((m) => m.role === "user").at(-1)?.content ?? "";
    expect(packet).toContain(
      "## Conversation so far\n\n```\n[user]\nWhat is a normal body temperature in Fahrenheit?\n\n[assistant]\nAbout 98.6 °F.\n```",
    );
    expect(packet.indexOf("## Conversation so far")).toBeLessThan(
      packet.indexOf("## Question\n\n```\nAnd in Celsius?"),
    );
    // The ranking still counts: three answers ranked, three battles.
    expect(await evalBattles(started.id)).toHaveLength(3);
  });

  it("refuses a text rubric and more than six contestants", async () => {
    const setId = await promptSet("set-ec4", PROMPTS.slice(0, 1));
    const refused = async (body: Record<string, unknown>) => {
      const res = await client.evaluations.$post({ json: body as CreateEvaluationBody });
      return { status: res.status, body: (await res.json()) as { error: { code: string; message: string } } };
    };
    const text = await refused({
      promptSetId: setId,
      method: "council",
      contestants: ["demo:concise", "demo:skeptic"],
      rubric: "be kind",
    });
    expect(text.status).toBe(400);
    expect(text.body.error.message).toMatch(/council rubric/);
    const seven = ["a", "b", "c", "d", "e", "f", "g"].map((x) => `openai:${x}`);
    const many = await refused({ promptSetId: setId, method: "council", contestants: seven, baseline: "openai:a" });
    expect(many.status).toBe(400);
    expect(many.body.error.message).toMatch(/at most 6 contestants/);
  });
});
