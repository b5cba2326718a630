import { abortAllDurableObjects, env, evictDurableObject } from "cloudflare:test";
import { describe, expect, inject, it } from "vitest";
import { client, ok } from "../helpers/client";
import {
  ended,
  evalBattles,
  evaluationUntil,
  getEvaluation,
  promptSet,
  rowsOf,
  startEvaluation,
} from "../helpers/evaluations";
import { ANSWER_TEXT, callCount, type Panel, panelModel, scriptContestants } from "../helpers/evaluation-panel";
import { api } from "../helpers/runs";
import { openEventSocket } from "../helpers/sockets";
import { sweepUnfinished } from "../../worker/rooms/sweep";
import { evaluationEvent } from "../../worker/shared/events";
import {
  callsFor,
  peakOpen,
  releaseHold,
  ruleFor,
  scriptModel,
  waitForCalls,
  waitForHeld,
} from "../helpers/stub-client";
import { fireAlarm, passDeadline } from "../helpers/watchdog";

const stub = inject("stubUrl");
const PROMPTS = ["First question?", "Second question?", "Third question?", "Fourth question?", "Fifth question?"];

/**
 * Three contestants and two judges over the stub, with verdicts a person can count by hand: judge 1 finds GOOD much
 * better than BASE in either order, and always prefers whichever answer it is shown first between BASE and FLIP
 * (a flip); judge 2 calls every pair a tie.
 */
async function scriptPanel(tag: string): Promise<Panel> {
  const panel = await scriptContestants(stub, tag);
  const j1 = panelModel(tag, "j1");
  const verdict = (v: string) => ({ review: { reasons: `said ${v}`, verdict: v } });
  await ruleFor(stub, j1, "Answer A[^#]*GOOD", verdict("A>>B"));
  await ruleFor(stub, j1, "Answer B[^#]*GOOD", verdict("B>>A"));
  await ruleFor(stub, j1, "Answer A[^#]*FLIP", verdict("A>B"));
  await ruleFor(stub, j1, "Answer B[^#]*FLIP", verdict("A>B"));
  await ruleFor(stub, panelModel(tag, "j2"), "", verdict("A=B"));
  return panel;
}

const kindCount = (model: string, kind: "answer" | "review") => callCount(stub, model, kind);

/** Battles per item, counted by hand (see scriptPanel): GOOD 3+3 over BASE; BASE and FLIP one each; four ties. */
function expectHandCount(battles: Awaited<ReturnType<typeof evalBattles>>, p: Panel, items: number) {
  const won = (winner: string, loser: string) =>
    battles.filter(
      (b) =>
        (b.a === winner && b.b === loser && b.winner === "model_a") ||
        (b.b === winner && b.a === loser && b.winner === "model_b"),
    ).length;
  expect(battles).toHaveLength(12 * items);
  expect(won(p.good, p.base)).toBe(6 * items);
  expect(won(p.base, p.good)).toBe(0);
  expect(won(p.base, p.flip)).toBe(items);
  expect(won(p.flip, p.base)).toBe(items);
  expect(battles.filter((b) => b.winner === "tie")).toHaveLength(4 * items);
  expect(battles.filter((b) => b.winner === "tie").every((b) => b.judge === p.j2)).toBe(true);
}

describe("a pairwise evaluation", () => {
  it("makes items × contestants answer calls and judges × pairs × items × 2 judge calls, counted as arena-hard-auto counts", async () => {
    const p = await scriptPanel("ev1");
    const setId = await promptSet("set-ev1", PROMPTS, { category: "coding" });
    const started = await startEvaluation({
      promptSetId: setId,
      contestants: [p.base, p.good, p.flip],
      baseline: p.base,
      judges: [p.j1, p.j2],
    });
    expect(started.status).toBe("running");
    expect(started.estimate).toMatchObject({ answerCalls: 15, judgeCalls: 40, selfSkipped: 0 });
    const done = await ended(started.id);
    expect(done.status).toBe("completed");
    expect(done.error).toBeNull();
    expect(done.progress.answers).toMatchObject({ done: 15, failed: 0, total: 15 });
    expect(done.progress.judgments).toMatchObject({ done: 40, failed: 0, total: 40 });
    expect(done.progress.contestants.find((c) => c.contestant === p.good)).toMatchObject({
      answered: 5,
      answersTotal: 5,
      judged: 20,
      judgedTotal: 20,
    });
    expect(done.progress.contestants.find((c) => c.contestant === p.base)).toMatchObject({ judged: 40 });

    for (const model of ["ev1-base", "ev1-good", "ev1-flip"]) expect(await kindCount(model, "answer")).toBe(5);
    // Each judge: 2 pairs × 5 items × 2 orders.
    expect(await kindCount("ev1-j1", "review")).toBe(20);
    expect(await kindCount("ev1-j2", "review")).toBe(20);

    const rows = await rowsOf(started.id);
    expect(rows.answers).toHaveLength(15);
    expect(rows.answers.every((a) => a.status === "complete" && a.firstTokenMs !== null)).toBe(true);
    expect(rows.judgments).toHaveLength(40);
    const j1Flip = rows.judgments.filter((j) => j.judge === p.j1 && [j.first, j.second].includes(p.flip));
    expect(j1Flip.map((j) => j.verdict)).toEqual(Array(10).fill("A>B"));
    const battles = await evalBattles(started.id);
    expectHandCount(battles, p, 5);

    // The leaderboard of this evaluation alone: GOOD won 30 of its 40 battles and tied 10, FLIP won 5 of 20 and tied
    // 10, BASE won 5 of 60 and tied 20; its wins count a tie as a win for both (seed 000's rule).
    const board = await ok(
      client.leaderboard.$get({
        query: { source: "eval", evaluation: started.id, category: "coding", demo: "include" },
      }),
    );
    expect(board.totalBattles).toBe(60);
    const row = (id: string) => board.rows.find((r) => r.modelId === id)!;
    expect([row(p.good).wins, row(p.good).battles]).toEqual([40, 40]);
    expect([row(p.flip).wins, row(p.flip).battles]).toEqual([15, 20]);
    expect([row(p.base).wins, row(p.base).battles]).toEqual([25, 60]);
    expect(board.rows[0].modelId).toBe(p.good);
    const human = await api(`/leaderboard?source=human&evaluation=${started.id}`);
    expect(human.status).toBe(400);
    // The report reads the same rows: judge 1 flipped on every BASE–FLIP pair, judge 2 on none.
    const report = await ok(client.evaluations[":id"].report.$get({ param: { id: started.id } }));
    const judge = (id: string) => report.judgeSummaries.find((x) => x.judge === id)!;
    expect(judge(p.j1)).toMatchObject({ judgments: 20, failures: 0, pairs: 10, flips: 5 });
    expect(judge(p.j2)).toMatchObject({ judgments: 20, failures: 0, pairs: 10, flips: 0 });
    // Its battles mix with others only under source=all.
    const all = await ok(client.leaderboard.$get({ query: { source: "human", demo: "include" } }));
    expect(all.rows.some((r) => r.modelId === p.good)).toBe(false);
  });

  it("lists evaluations newest first, with their prompt set, contestants, status and spend", async () => {
    const p = await scriptPanel("ev10");
    const setId = await promptSet("set-ev10", PROMPTS.slice(0, 1));
    const started = await startEvaluation({
      name: "Listed one",
      promptSetId: setId,
      contestants: [p.base, p.good],
      judges: [p.j2],
    });
    await ended(started.id);
    const list = await ok(client.evaluations.$get({ query: { limit: "100" } }));
    expect(list.items.find((e) => e.id === started.id)).toEqual({
      id: started.id,
      createdAt: expect.any(Number),
      name: "Listed one",
      promptSetId: setId,
      promptSetName: `set ${setId}`,
      method: "pairwise",
      contestants: [p.base, p.good],
      baseline: null,
      status: "completed",
      estimateUsd: 0,
      spentUsd: 0,
      names: {
        [p.base]: { displayName: "ev10-base", modelId: null },
        [p.good]: { displayName: "ev10-good", modelId: null },
      },
      // One item is too few to tell them apart.
      winner: null,
      winnerReason: "not_separable",
      tiedWithBest: [p.base, p.good],
    });
  });

  it("leaves out a judge's own pairs and says how many", async () => {
    const p = await scriptPanel("ev2");
    const setId = await promptSet("set-ev2", PROMPTS.slice(0, 2));
    // j1 is also a contestant: it judges neither its own pair with the baseline nor, in both orders, any other.
    const started = await startEvaluation({
      promptSetId: setId,
      contestants: [p.base, p.good, p.j1],
      baseline: p.base,
      judges: [p.j1],
    });
    expect(started.estimate).toMatchObject({ answerCalls: 6, judgeCalls: 4, selfSkipped: 4 });
    const done = await ended(started.id);
    expect(done.progress.selfSkipped).toBe(4);
    expect(done.progress.judgments.total).toBe(4);
    expect(await kindCount("ev2-j1", "review")).toBe(4);
  });

  it("estimates before it starts: the same figures as the start, with nothing started, set aside or marked used", async () => {
    const p = await scriptPanel("ev-est");
    const setId = await promptSet("set-ev-est", PROMPTS.slice(0, 3));
    const plan = { promptSetId: setId, contestants: [p.base, p.good, p.j1], baseline: p.base, judges: [p.j1] };
    const holds = () => env.DB.prepare("SELECT count(*) AS n FROM spend_holds").first<{ n: number }>();
    const holdsBefore = await holds();
    const estimate = await ok(client.evaluations.estimate.$post({ json: plan }));
    expect(await holds()).toEqual(holdsBefore);
    expect(estimate).toMatchObject({ answerCalls: 9, judgeCalls: 6, selfSkipped: 6 });
    const set = await env.DB.prepare("SELECT used_at FROM prompt_sets WHERE id = ?")
      .bind(setId)
      .first<{ used_at: number | null }>();
    expect(set?.used_at).toBeNull();
    expect(await kindCount("ev-est-base", "answer")).toBe(0);
    const started = await startEvaluation(plan);
    expect(started.estimate).toEqual(estimate);
    const refused = await client.evaluations.estimate.$post({ json: { ...plan, promptSetId: "no-such-set" } });
    expect(refused.status).toBe(404);
  });
});

describe("what the calls carry", () => {
  it("asks every sample, with a multi-turn item's earlier turns, and shows judges the reference and the rubric", async () => {
    const p = await scriptPanel("ev9");
    await env.DB.batch([
      env.DB.prepare("INSERT INTO prompt_sets (id, name, items) VALUES ('set-ev9', 'turns', 1)"),
      env.DB.prepare(
        "INSERT INTO prompt_set_items (set_id, position, item_id, prompt, reference, turns) VALUES ('set-ev9', 0, 'chat-1', 'And in Celsius?', 'About 37 °C.', ?)",
      ).bind(
        JSON.stringify([
          { role: "user", content: "What is a normal body temperature in Fahrenheit?" },
          { role: "assistant", content: "About 98.6 °F." },
        ]),
      ),
    ]);
    const started = await startEvaluation({
      promptSetId: "set-ev9",
      contestants: [p.base, p.good],
      baseline: p.base,
      judges: [p.j1],
      repeats: 2,
      rubric: "Exact numbers matter most.",
    });
    expect(started.estimate).toMatchObject({ answerCalls: 4, judgeCalls: 4 });
    const done = await ended(started.id);
    expect(done.progress.judgments).toMatchObject({ done: 4, total: 4 });

    const answers = (await callsFor(stub, "ev9-base")).filter((c) => c.kind === "answer");
    expect(answers).toHaveLength(2);
    const sent = JSON.stringify(answers[0].body);
    expect(sent).toContain("What is a normal body temperature in Fahrenheit?");
    expect(sent).toContain("About 98.6 °F.");
    expect(sent).toContain("And in Celsius?");
    const judged = (await callsFor(stub, "ev9-j1")).filter((c) => c.kind === "review");
    expect(judged).toHaveLength(4);
    for (const call of judged) {
      const body = JSON.stringify(call.body);
      expect(body).toContain("## Reference answer");
      expect(body).toContain("About 37 °C.");
      expect(body).toContain("Exact numbers matter most.");
      expect(body).toContain("## Conversation so far");
      expect(body).toContain("About 98.6 °F.");
      // Answers go to the judge unnamed.
      expect(body).not.toContain("ev9-base");
      expect(body).not.toContain("ev9-good");
    }
    const rows = await rowsOf(started.id);
    expect(rows.judgments.map((j) => j.sample).sort()).toEqual([0, 0, 1, 1]);
    expect(rows.answers.map((a) => `${a.itemId}/${a.sample}`).sort()).toEqual([
      "chat-1/0",
      "chat-1/0",
      "chat-1/1",
      "chat-1/1",
    ]);
  });
});

describe("presets", () => {
  it("a preset answers with its own system prompt and parameters, keeps its id, and is used from then on", async () => {
    const p = await scriptPanel("ev14");
    const preset = await ok(
      client.presets.$post({
        json: { name: "Terse base", modelId: p.base, systemPrompt: "Answer in one line.", temperature: 0.2 },
      }),
    );
    const setId = await promptSet("set-ev14", PROMPTS.slice(0, 1));
    const started = await startEvaluation({
      promptSetId: setId,
      contestants: [p.base, preset.id],
      baseline: p.base,
      judges: [p.j2],
    });
    const done = await ended(started.id);
    expect(done.contestants.map((c) => [c.id, c.modelId])).toEqual([
      [p.base, p.base],
      [preset.id, p.base],
    ]);
    expect(done.progress.judgments).toMatchObject({ done: 2 });
    const calls = (await callsFor(stub, "ev14-base"))
      .filter((c) => c.kind === "answer")
      .map((c) => JSON.stringify(c.body));
    expect(calls).toHaveLength(2);
    expect(calls.filter((b) => b.includes("Answer in one line."))).toHaveLength(1);
    const rows = await rowsOf(started.id);
    expect(rows.answers.map((a) => a.contestant).sort()).toEqual([p.base, preset.id].sort());
    const used = await env.DB.prepare("SELECT used_at AS usedAt FROM presets WHERE slug = ?")
      .bind(preset.slug)
      .first<{ usedAt: number | null }>();
    expect(used?.usedAt).not.toBeNull();
  });
});

describe("a preset as a judge", () => {
  it("judges with its model, its system prompt before the judge's instructions; skips pairs its model answered", async () => {
    const p = await scriptPanel("ev15");
    const judge = await ok(
      client.presets.$post({ json: { name: "Strict ev15", modelId: p.j2, systemPrompt: "You judge strictly." } }),
    );
    // A preset on the same model as a contestant judges no pair that contestant is in.
    const self = await ok(client.presets.$post({ json: { name: "Self ev15", modelId: p.good } }));
    const setId = await promptSet("set-ev15", PROMPTS.slice(0, 1));
    const started = await startEvaluation({
      promptSetId: setId,
      contestants: [p.base, p.good, p.flip],
      baseline: p.base,
      judges: [judge.id, self.id],
    });
    // 2 pairs × 2 orders for the strict judge; the self judge only base–flip, in both orders; its base–good skipped.
    expect(started.estimate).toMatchObject({ judgeCalls: 6, selfSkipped: 2 });
    const done = await ended(started.id);
    expect(done.progress.judgments).toMatchObject({ done: 6, failed: 0 });
    const judged = (await callsFor(stub, "ev15-j2")).filter((c) => c.kind === "review");
    expect(judged).toHaveLength(4);
    for (const call of judged) expect(JSON.stringify(call.body)).toContain("You judge strictly.\\n\\n");
    const rows = await rowsOf(started.id);
    expect([...new Set(rows.judgments.map((j) => j.judge))].sort()).toEqual([judge.id, self.id].sort());
    const used = await env.DB.prepare("SELECT count(*) AS n FROM presets WHERE slug IN (?, ?) AND used_at IS NOT NULL")
      .bind(judge.slug, self.slug)
      .first<{ n: number }>();
    expect(used?.n).toBe(2);
  });
});

describe("live progress", () => {
  it("sends a snapshot, then progress per contestant with spend, and the end", async () => {
    const p = await scriptPanel("ev7");
    const setId = await promptSet("set-ev7", PROMPTS.slice(0, 2));
    const started = await startEvaluation({
      promptSetId: setId,
      contestants: [p.base, p.good],
      baseline: p.base,
      judges: [p.j1],
    });
    const socket = await openEventSocket(`/api/evaluations/${started.id}/ws`, evaluationEvent, 0);
    const end = await socket.waitFor("evaluation.status", (e) => e.status === "completed", 15_000);
    const last = await socket.waitFor("evaluation.progress", (e) => e.seq > end.seq, 5_000);
    socket.close();
    expect(socket.events.filter((e) => e.type === "evaluation.failure")).toEqual([]);
    expect(
      last.progress.contestants.map((c) => [c.contestant, c.answered, c.answersTotal, c.judged, c.judgedTotal]),
    ).toEqual([
      [p.base, 2, 2, 4, 4],
      [p.good, 2, 2, 4, 4],
    ]);
    expect(last.progress.etaMs).toBeNull();
    // The stub's calls carry no price: tokens with no known cost are counted apart.
    expect(last.progress.spentUsd).toBe(0);
    expect(last.progress.unknownCostCalls).toBe(8);
    const snapshot = await openEventSocket(`/api/evaluations/${started.id}/ws`, evaluationEvent);
    const first = await snapshot.until(() => true, "the first message");
    snapshot.close();
    expect(first.type === "snapshot" && first.state.status).toBe("completed");
  });

  it("announces a failed call with its reason", async () => {
    const p = await scriptPanel("ev8");
    // Both orders are asked at once, each twice: four invalid outputs fail both.
    await scriptModel(stub, "ev8-j1", Array(4).fill({ review: "not json at all" }));
    const setId = await promptSet("set-ev8", PROMPTS.slice(0, 1));
    const started = await startEvaluation({
      promptSetId: setId,
      contestants: [p.base, p.good],
      baseline: p.base,
      judges: [p.j1],
    });
    const socket = await openEventSocket(`/api/evaluations/${started.id}/ws`, evaluationEvent, 0);
    const failure = await socket.waitFor("evaluation.failure", undefined, 15_000);
    await socket.waitFor("evaluation.status", (e) => e.status === "completed", 15_000);
    socket.close();
    expect(failure.failure).toMatchObject({ kind: "judge", itemId: "q1", model: p.j1 });
    expect(failure.failure.error).toMatch(/invalid twice: the judge's output is not JSON/);
    expect(socket.events.filter((e) => e.type === "evaluation.failure")).toHaveLength(2);
    const done = await getEvaluation(started.id);
    expect(done.progress.judgments).toMatchObject({ done: 0, failed: 2 });
    expect(await evalBattles(started.id)).toEqual([]);
  });
});

describe("scheduling", () => {
  it("keeps each provider within its cap, a room within six calls in flight", async () => {
    const slow = { delayMs: 150, text: "A slow reply." };
    const judge = { delayMs: 150, review: { reasons: "same", verdict: "A=B" } };
    for (const m of ["cc-o-a", "cc-o-b", "cc-o-c", "cc-a-d", "cc-g-e"]) await ruleFor(stub, m, "", slow);
    await ruleFor(stub, "cc-o-j", "", judge);
    await ruleFor(stub, "cc-a-j", "", judge);
    const setId = await promptSet("set-cc", PROMPTS.slice(0, 4));
    // One provider alone: twelve answers ready at once, four (its default cap) in flight.
    const alone = await startEvaluation({
      promptSetId: setId,
      contestants: ["openai:cc-o-a", "openai:cc-o-b", "openai:cc-o-c"],
      baseline: "openai:cc-o-a",
      judges: ["openai:cc-o-j"],
    });
    expect((await ended(alone.id)).status).toBe("completed");
    expect(await peakOpen(stub, "cc-o-")).toBe(4);
    // Three providers with four slots each: twelve in all, more than one room's six, so the evaluation is spread over
    // two rooms of six (evaluation-shards.test.ts counts each room's calls); each provider stays within its four.
    const mixed = await startEvaluation({
      promptSetId: setId,
      contestants: ["openai:cc-o-b", "anthropic:cc-a-d", "google:cc-g-e"],
      baseline: "openai:cc-o-b",
      judges: ["anthropic:cc-a-j"],
    });
    expect((await ended(mixed.id)).status).toBe("completed");
    expect(await peakOpen(stub, "cc-")).toBeLessThanOrEqual(12);
    expect(await peakOpen(stub, "cc-a-")).toBeLessThanOrEqual(4);
    expect(await peakOpen(stub, "cc-g-")).toBeLessThanOrEqual(4);
  });

  it("holds back every call to a provider that answered 429 for as long as it asked", async () => {
    await scriptModel(stub, "bo-o-a", [
      { status: 429, retryAfter: 3, errorMessage: "slow down" },
      { holdKey: "bo-held", text: "Answered." },
    ]);
    await scriptModel(stub, "bo-o-b", [
      { holdKey: "bo-held", text: "Answered." },
      { holdKey: "bo-held", text: "Answered." },
    ]);
    await ruleFor(stub, "bo-a-j", "", { review: { reasons: "same", verdict: "A=B" } });
    const setId = await promptSet("set-bo", PROMPTS);
    const started = await startEvaluation({
      promptSetId: setId,
      contestants: ["openai:bo-o-a", "openai:bo-o-b"],
      baseline: "openai:bo-o-a",
      judges: ["anthropic:bo-a-j"],
    });
    const openaiCalls = async () => (await kindCount("bo-o-a", "answer")) + (await kindCount("bo-o-b", "answer"));
    // Four calls to OpenAI start at once: one meets the 429, three are held, then let go.
    await waitForHeld(stub, "bo-held", 3, 10_000);
    await releaseHold(stub, "bo-held");
    await evaluationUntil(started.id, (e) => e.progress.answers.done >= 3, "the three answers under way at the 429");
    // Three slots came free, but OpenAI asked for three seconds: no new call to it starts before then.
    expect(await openaiCalls()).toBe(4);
    const done = await ended(started.id);
    expect(done.progress.answers).toMatchObject({ done: 10, failed: 0 });
    // The call that met the 429 was asked again once, after the wait.
    expect(await openaiCalls()).toBe(11);
  });
});

describe("resuming", () => {
  it("after a restart half-way, makes no completed call again", async () => {
    const p = await scriptPanel("ev3");
    // The third FLIP answer is held while every call that doesn't need it completes.
    await scriptModel(
      stub,
      "ev3-flip",
      [{}, {}].map(() => ({ text: "FLIP reply, odd." })),
    );
    await scriptModel(stub, "ev3-flip", [{ holdKey: "ev3-held", text: "FLIP reply, odd." }]);
    const setId = await promptSet("set-ev3", PROMPTS);
    const started = await startEvaluation({
      promptSetId: setId,
      contestants: [p.base, p.good, p.flip],
      baseline: p.base,
      judges: [p.j1, p.j2],
    });
    await waitForHeld(stub, "ev3-held", 1, 10_000);
    // Everything but the held answer and the four judge calls reading it completes first.
    const midway = await evaluationUntil(
      started.id,
      (e) => e.progress.answers.done === 14 && e.progress.judgments.done === 36,
      "every call but the held one's",
    );
    // Five calls left at the pace so far: an ETA.
    expect(midway.progress.etaMs).toBeGreaterThan(0);
    await abortAllDurableObjects();
    await releaseHold(stub, "ev3-held");
    const done = await ended(started.id);
    expect(done.status).toBe("completed");
    expect(await kindCount("ev3-base", "answer")).toBe(5);
    expect(await kindCount("ev3-good", "answer")).toBe(5);
    // The held call never completed, so it alone was asked again.
    expect(await kindCount("ev3-flip", "answer")).toBe(6);
    expect(await kindCount("ev3-j1", "review")).toBe(20);
    expect(await kindCount("ev3-j2", "review")).toBe(20);
    expectHandCount(await evalBattles(started.id), p, 5);
  });
});

describe("at the issue's size", () => {
  // The issue writes 2 × 3 × 50 × 2 as 1,200; the product is 600: 2 judges × 3 pairs with the baseline × 50 items × 2 orders.
  it("50 items × 4 contestants, a baseline and 2 judges: 200 answer calls and 600 judge calls, none repeated across an eviction", async () => {
    const items = Array.from({ length: 50 }, (_, i) => `Question number ${i + 1}?`);
    const setId = await promptSet("set-big", items);
    const started = await startEvaluation({
      promptSetId: setId,
      contestants: ["openai:big-a", "anthropic:big-b", "google:big-c", "openai:big-d"],
      baseline: "openai:big-a",
      judges: ["openai:big-j1", "anthropic:big-j2"],
    });
    expect(started.estimate).toMatchObject({ answerCalls: 200, judgeCalls: 600 });
    await evaluationUntil(started.id, (e) => e.progress.judgments.done >= 100, "some judge calls", 60_000);
    // A graceful eviction lets the step under way (a slice of calls) finish first: none is lost, so none is made again.
    await evictDurableObject(env.EVALUATION_ROOM.get(env.EVALUATION_ROOM.idFromName(started.id)));
    const resumed = await getEvaluation(started.id);
    expect(resumed.progress.answers.done + resumed.progress.judgments.done).toBeLessThan(800);
    const done = await ended(started.id, 60_000);
    expect(done.progress.answers).toMatchObject({ done: 200, total: 200 });
    expect(done.progress.judgments).toMatchObject({ done: 600, total: 600 });
    for (const model of ["big-a", "big-b", "big-c", "big-d"]) expect(await kindCount(model, "answer")).toBe(50);
    expect(await kindCount("big-j1", "review")).toBe(300);
    expect(await kindCount("big-j2", "review")).toBe(300);
    // The stub's judges answer A>>B whatever they see: three battles for whoever is shown first, in every order.
    const battles = await evalBattles(started.id);
    expect(battles).toHaveLength(1800);
    expect(battles.every((b) => b.winner === "model_a")).toBe(true);
  }, 120_000);
});

describe("the watchdog", () => {
  it("resumes a slice stuck past its deadline once, asking the hung call again, then ends the evaluation failed, for a retry", async () => {
    const p = await scriptPanel("ev12");
    await scriptModel(stub, "ev12-good", [{ hang: true }, { hang: true }]);
    const setId = await promptSet("set-ev12", PROMPTS.slice(0, 1));
    const started = await startEvaluation({
      promptSetId: setId,
      contestants: [p.base, p.good],
      baseline: p.base,
      judges: [p.j2],
    });
    const room = env.EVALUATION_ROOM.get(env.EVALUATION_ROOM.idFromName(started.id));
    await waitForCalls(stub, "ev12-good", 1, 10_000);
    await evaluationUntil(started.id, (e) => e.progress.answers.done === 1, "the baseline's answer");
    await passDeadline(room);
    const resuming = fireAlarm(room);
    await waitForCalls(stub, "ev12-good", 2, 10_000);
    await passDeadline(room);
    const stopping = fireAlarm(room);
    const stopped = await ended(started.id);
    await stopping;
    await resuming;
    expect(stopped.status).toBe("failed");
    expect(stopped.error).toMatch(/^Stopped by the watchdog: no progress within .* after one resume\.$/);
    expect(stopped.progress.answers).toMatchObject({ done: 1, failed: 1 });
    expect(stopped.progress.judgments).toMatchObject({ failed: 2 });

    const retried = await client.evaluations[":id"].retry.$post({ param: { id: started.id } });
    expect(retried.status).toBe(200);
    const done = await ended(started.id);
    expect(done.status).toBe("completed");
    expect(done.progress.judgments).toMatchObject({ done: 2, failed: 0 });
    // Once, once more by the resume, once by the retry; the baseline's answer was never asked again.
    expect(await kindCount("ev12-good", "answer")).toBe(3);
    expect(await kindCount("ev12-base", "answer")).toBe(1);
  });

  it("ends an evaluation whose every answer failed as failed", async () => {
    const p = await scriptPanel("ev13");
    await scriptModel(stub, "ev13-base", [{ status: 400 }]);
    await scriptModel(stub, "ev13-good", [{ status: 400 }]);
    const setId = await promptSet("set-ev13", PROMPTS.slice(0, 1));
    const started = await startEvaluation({ promptSetId: setId, contestants: [p.base, p.good], judges: [p.j2] });
    const done = await ended(started.id);
    expect(done.status).toBe("failed");
    expect(done.error).toMatch(/^Every answer failed/);
    expect(done.progress.judgments).toMatchObject({ blocked: 2, done: 0 });
  });
});

describe("the cron sweep", () => {
  it("finds an evaluation D1 still shows running long after it started, and leaves a paused one to its person", async () => {
    const p = await scriptPanel("ev11");
    await scriptModel(stub, "ev11-good", [{ holdKey: "ev11-held" }, { holdKey: "ev11-held" }]);
    const setId = await promptSet("set-ev11", PROMPTS.slice(0, 1));
    const body = { promptSetId: setId, contestants: [p.base, p.good], judges: [p.j2] };
    const running = await startEvaluation(body);
    const paused = await startEvaluation(body);
    await waitForHeld(stub, "ev11-held", 2, 10_000);
    await client.evaluations[":id"].pause.$post({ param: { id: paused.id } });
    const old = Date.now() - 20 * 60_000;
    await env.DB.prepare("UPDATE evaluations SET created_at = ? WHERE id IN (?, ?)")
      .bind(old, running.id, paused.id)
      .run();
    const found = await sweepUnfinished(env);
    expect(found.evaluations).toContain(running.id);
    expect(found.evaluations).not.toContain(paused.id);
    await releaseHold(stub, "ev11-held");
    expect((await ended(running.id)).status).toBe("completed");
    await client.evaluations[":id"].cancel.$post({ param: { id: paused.id } });
  });
});

describe("controls", () => {
  it("pauses: the call under way finishes and is kept, no new one starts until resumed", async () => {
    const p = await scriptPanel("ev4");
    await scriptModel(stub, "ev4-base", [{ holdKey: "ev4-held", text: ANSWER_TEXT.base }]);
    const setId = await promptSet("set-ev4", PROMPTS.slice(0, 2));
    const started = await startEvaluation({
      promptSetId: setId,
      contestants: [p.base, p.good],
      baseline: p.base,
      judges: [p.j2],
    });
    await waitForHeld(stub, "ev4-held", 1, 10_000);
    const paused = await client.evaluations[":id"].pause.$post({ param: { id: started.id } });
    expect(paused.status).toBe(200);
    expect(await paused.json()).toEqual({ id: started.id, status: "paused" });
    await releaseHold(stub, "ev4-held");
    // Paused and idle: every call made has finished and been kept, and the rest wait.
    const idle = await evaluationUntil(
      started.id,
      (e) => e.progress.answers.running + e.progress.judgments.running === 0,
      "the calls under way at the pause to finish",
    );
    expect(idle.status).toBe("paused");
    const made = (await kindCount("ev4-base", "answer")) + (await kindCount("ev4-good", "answer"));
    const judged = await kindCount("ev4-j2", "review");
    expect(made).toBe(idle.progress.answers.done);
    expect(judged).toBe(idle.progress.judgments.done);
    expect(idle.progress.answers.pending + idle.progress.judgments.pending).toBeGreaterThan(0);
    expect((await client.evaluations[":id"].pause.$post({ param: { id: started.id } })).status).toBe(409);

    const resumed = await client.evaluations[":id"].resume.$post({ param: { id: started.id } });
    expect(await resumed.json()).toEqual({ id: started.id, status: "running" });
    const done = await ended(started.id);
    expect(done.status).toBe("completed");
    expect(await kindCount("ev4-base", "answer")).toBe(2);
    expect(await kindCount("ev4-good", "answer")).toBe(2);
    expect(await kindCount("ev4-j2", "review")).toBe(4);
  });

  it("cancels: calls under way stop, what finished stays", async () => {
    const p = await scriptPanel("ev5");
    await scriptModel(stub, "ev5-good", [{ holdKey: "ev5-held" }]);
    const setId = await promptSet("set-ev5", PROMPTS.slice(0, 2));
    const started = await startEvaluation({
      promptSetId: setId,
      contestants: [p.base, p.good],
      baseline: p.base,
      judges: [p.j2],
    });
    await waitForHeld(stub, "ev5-held", 1, 10_000);
    await evaluationUntil(
      started.id,
      (e) => e.progress.contestants.find((c) => c.contestant === p.base)?.answered === 2,
      "the baseline's answers",
    );
    const res = await client.evaluations[":id"].cancel.$post({ param: { id: started.id } });
    expect(await res.json()).toEqual({ id: started.id, status: "cancelled" });
    const done = await ended(started.id);
    expect(done.status).toBe("cancelled");
    expect(done.progress.answers.done).toBeGreaterThanOrEqual(2);
    expect(done.progress.answers.cancelled).toBeGreaterThanOrEqual(1);
    const rows = await rowsOf(started.id);
    expect(rows.answers.filter((a) => a.contestant === p.base)).toHaveLength(2);
    expect((await client.evaluations[":id"].cancel.$post({ param: { id: started.id } })).status).toBe(409);
  });

  it("retries the failed calls, and the judge calls that waited on them", async () => {
    const p = await scriptPanel("ev6");
    await scriptModel(stub, "ev6-good", [{ status: 400, errorMessage: "bad request once" }]);
    const setId = await promptSet("set-ev6", PROMPTS.slice(0, 2));
    const started = await startEvaluation({
      promptSetId: setId,
      contestants: [p.base, p.good],
      baseline: p.base,
      judges: [p.j2],
    });
    const first = await ended(started.id);
    expect(first.status).toBe("completed");
    expect(first.progress.answers).toMatchObject({ done: 3, failed: 1 });
    expect(first.progress.judgments).toMatchObject({ done: 2, blocked: 2 });
    expect(first.error).toMatch(/3 calls failed/);

    const res = await client.evaluations[":id"].retry.$post({ param: { id: started.id } });
    expect(await res.json()).toEqual({ id: started.id, status: "running" });
    const done = await ended(started.id);
    expect(done.progress.answers).toMatchObject({ done: 4, failed: 0 });
    expect(done.progress.judgments).toMatchObject({ done: 4, blocked: 0 });
    expect(await kindCount("ev6-good", "answer")).toBe(3);
    expect(await kindCount("ev6-j2", "review")).toBe(4);
    expect((await client.evaluations[":id"].retry.$post({ param: { id: started.id } })).status).toBe(409);
  });
});

describe("validation", () => {
  const body = { promptSetId: "set-val", contestants: ["demo:concise", "demo:thorough"], judges: ["demo:skeptic"] };
  const refused = async (json: unknown) => {
    const res = await api("/evaluations", { method: "POST", json });
    return { status: res.status, body: (await res.json()) as { error: { code: string; message: string } } };
  };

  it("refuses bad plans with a clear 4xx", async () => {
    await promptSet("set-val", PROMPTS.slice(0, 1));
    expect((await refused({ ...body, contestants: ["demo:concise"] })).status).toBe(400);
    const seven = ["a", "b", "c", "d", "e", "f", "g"].map((x) => `openai:${x}`);
    const many = await refused({ ...body, contestants: seven });
    expect(many.status).toBe(400);
    expect(many.body.error.message).toMatch(/name a baseline/);
    expect((await refused({ ...body, baseline: "demo:skeptic" })).body.error.message).toMatch(/baseline must be one/);
    expect((await refused({ ...body, judges: [] })).body.error.message).toMatch(/at least one judge/);
    expect((await refused({ ...body, repeats: 6 })).status).toBe(400);
    expect((await refused({ ...body, method: "council", rubric: "be kind" })).body.error.message).toMatch(
      /council rubric/,
    );
    expect((await refused({ ...body, contestants: ["preset:nobody@1", "demo:concise"] })).body.error.code).toBe(
      "unknown_preset",
    );
    const presetJudge = await refused({ ...body, judges: ["preset:nobody@1"] });
    expect(presetJudge.body.error.code).toBe("unknown_preset");
    const missing = await refused({ ...body, promptSetId: "no-such-set" });
    expect(missing.status).toBe(404);
  });

  it("runs on the demo models with no keys over a prompt set made through the API, its judges answering the five-point schema", async () => {
    const set = await ok(
      client["prompt-sets"].$post({
        json: { name: "Demo set", items: [{ prompt: "How do tides work?" }, { prompt: "Why is the sky blue?" }] },
      }),
    );
    const started = await startEvaluation({
      promptSetId: set.id,
      contestants: ["demo:concise", "demo:thorough"],
      baseline: "demo:concise",
      judges: ["demo:skeptic"],
    });
    const done = await ended(started.id);
    expect(done.progress.judgments).toMatchObject({ done: 4, failed: 0 });
    const rows = await rowsOf(started.id);
    expect(rows.answers.map((a) => a.itemId).sort()).toEqual(["item-1", "item-1", "item-2", "item-2"]);
    for (const j of rows.judgments) expect(["A>>B", "A>B", "A=B", "B>A", "B>>A"]).toContain(j.verdict);
    // The set is used now: an edit of it would be its next version.
    const used = await env.DB.prepare("SELECT used_at AS usedAt FROM prompt_sets WHERE id = ?")
      .bind(set.id)
      .first<{ usedAt: number | null }>();
    expect(used?.usedAt).not.toBeNull();
  });

  it("answers 404 for an evaluation it never made", async () => {
    expect((await api("/evaluations/not-a-real-id")).status).toBe(404);
  });
});
