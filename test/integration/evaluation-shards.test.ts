import { abortAllDurableObjects, env } from "cloudflare:test";
import { describe, expect, inject, it } from "vitest";
import { client, ok } from "../helpers/client";
import {
  type CreateEvaluationBody,
  ended,
  evalBattles,
  evaluationUntil,
  getEvaluation,
  promptSet,
  rowsOf,
} from "../helpers/evaluations";
import { reservedSettles, spendNow, withSettings } from "../helpers/spend";
import {
  callsFor,
  peakBy,
  peakOpen,
  type RecordedCall,
  releaseHold,
  ruleFor,
  scriptModel,
  waitForHeld,
} from "../helpers/stub-client";
import { itemShards } from "../../worker/evaluation/concurrency";
import { shardRoomName } from "../../worker/rooms/evaluation/shard-reports";

const stub = inject("stubUrl");

// This file's project sets QUORUM_PROVIDER_CONCURRENCY=openai=12 (vitest.config.ts), for the route and the rooms
// alike: an evaluation calling OpenAI alone runs in two rooms of six.

const questions = (n: number) => Array.from({ length: n }, (_, i) => `Question number ${i + 1}?`);

/** Starts an evaluation, the route reading `settings` on top of the project's (the caps are fixed when it starts). */
async function startWith(settings: Record<string, string>, body: CreateEvaluationBody) {
  const res = await withSettings("/evaluations", settings, { method: "POST", json: body });
  expect(res.status).toBe(201);
  return (await res.json()) as { id: string; status: string; estimate: { usd: number } };
}

/** The index in its prompt set of the item a call was about (every call's request carries the item's prompt). */
const itemOf = (call: RecordedCall) => Number(/Question number (\d+)\?/.exec(JSON.stringify(call.body))?.[1]) - 1;

const callsOf = async (...models: string[]) => (await Promise.all(models.map((m) => callsFor(stub, m)))).flat();

const shardRoom = (id: string, index: number) =>
  env.EVALUATION_ROOM.get(env.EVALUATION_ROOM.idFromName(shardRoomName(id, index)));

const shardStatuses = async (id: string, shards: number) =>
  Promise.all(Array.from({ length: shards }, async (_, k) => (await shardRoom(id, k).detail())?.status));

describe("an evaluation spread over shard rooms", () => {
  it("reaches a provider cap of twelve with two rooms of six: twelve calls in flight, six a room, each call made once", async () => {
    // The first three items of each room (two answers each) are held until all twelve are in flight.
    await scriptModel(stub, "sh1-a", Array(6).fill({ holdKey: "sh1-wave" }));
    await scriptModel(stub, "sh1-b", Array(6).fill({ holdKey: "sh1-wave" }));
    await ruleFor(stub, "sh1-j", "", { review: { reasons: "same", verdict: "A=B" } });
    const setId = await promptSet("set-sh1", questions(24));
    const started = await startWith(
      {},
      {
        promptSetId: setId,
        contestants: ["openai:sh1-a", "openai:sh1-b"],
        baseline: "openai:sh1-a",
        judges: ["openai:sh1-j"],
      },
    );
    await waitForHeld(stub, "sh1-wave", 12, 10_000);
    expect(await shardStatuses(started.id, 2)).toEqual(["running", "running"]);
    await releaseHold(stub, "sh1-wave");
    const done = await ended(started.id);
    expect(done.status).toBe("completed");
    expect(done.error).toBeNull();
    expect(done.progress.answers).toMatchObject({ done: 48, failed: 0, total: 48 });
    expect(done.progress.judgments).toMatchObject({ done: 48, failed: 0, total: 48 });
    expect(done.progress.contestants.map((c) => [c.answered, c.judged])).toEqual([
      [24, 48],
      [24, 48],
    ]);

    const calls = await callsOf("sh1-a", "sh1-b", "sh1-j");
    // Each call once: 24 items × 2 answers, and 24 items × 1 pair × 2 orders.
    expect(calls.filter((c) => c.kind === "answer")).toHaveLength(48);
    expect(calls.filter((c) => c.kind === "review")).toHaveLength(48);
    const perItem = new Map<number, number>();
    for (const c of calls) perItem.set(itemOf(c), (perItem.get(itemOf(c)) ?? 0) + 1);
    expect([...perItem.keys()].sort((a, b) => a - b)).toEqual([...Array(24).keys()]);
    expect([...perItem.values()].every((n) => n === 4)).toBe(true);
    // The rooms, told apart by the deterministic split of the items (equal caps: round-robin): six at most each,
    // twelve together.
    const split = itemShards(24, [1, 1]);
    expect(split.slice(0, 4)).toEqual([0, 1, 0, 1]);
    const peaks = peakBy(calls, (c) => `shard ${split[itemOf(c)]}`);
    expect(Object.fromEntries(peaks)).toEqual({ "shard 0": 6, "shard 1": 6, all: 12 });
    expect(await peakOpen(stub, "sh1-")).toBe(12);

    const rows = await rowsOf(started.id);
    expect(rows.answers).toHaveLength(48);
    expect(rows.judgments).toHaveLength(48);
    expect(await evalBattles(started.id)).toHaveLength(48);
  });

  it("after a restart half-way, a shard makes no completed call again", async () => {
    // The first answer for the last item (a room of its own) is held; the rule takes that one call only.
    await ruleFor(stub, "sh2-b", "Question number 8\\?", { holdKey: "sh2-held" }, 1);
    await ruleFor(stub, "sh2-j", "", { review: { reasons: "same", verdict: "A=B" } });
    const setId = await promptSet("set-sh2", questions(8));
    const started = await startWith(
      {},
      {
        promptSetId: setId,
        contestants: ["openai:sh2-a", "openai:sh2-b"],
        baseline: "openai:sh2-a",
        judges: ["openai:sh2-j"],
      },
    );
    await waitForHeld(stub, "sh2-held", 1, 10_000);
    // Everything but the held answer and the two judge calls reading it completes first.
    await evaluationUntil(
      started.id,
      (e) => e.progress.answers.done === 15 && e.progress.judgments.done === 14,
      "every call but the held one's",
    );
    await abortAllDurableObjects();
    await releaseHold(stub, "sh2-held");
    const done = await ended(started.id);
    expect(done.status).toBe("completed");
    expect(done.progress.answers).toMatchObject({ done: 16, total: 16 });
    expect(done.progress.judgments).toMatchObject({ done: 16, total: 16 });
    const answers = async (model: string) => (await callsFor(stub, model)).filter((c) => c.kind === "answer");
    expect(await answers("sh2-a")).toHaveLength(8);
    // The held call never completed, so it alone was asked again.
    const b = await answers("sh2-b");
    expect(b).toHaveLength(9);
    expect(b.filter((c) => itemOf(c) === 7)).toHaveLength(2);
    expect((await callsFor(stub, "sh2-j")).filter((c) => c.kind === "review")).toHaveLength(16);
    expect((await rowsOf(started.id)).answers).toHaveLength(16);
  });

  it("pauses and resumes every shard: calls under way finish and are kept, none starts until resumed", async () => {
    await scriptModel(stub, "sh3-a", Array(6).fill({ holdKey: "sh3-wave" }));
    await scriptModel(stub, "sh3-b", Array(6).fill({ holdKey: "sh3-wave" }));
    await ruleFor(stub, "sh3-j", "", { review: { reasons: "same", verdict: "A=B" } });
    const setId = await promptSet("set-sh3", questions(8));
    const started = await startWith(
      {},
      {
        promptSetId: setId,
        contestants: ["openai:sh3-a", "openai:sh3-b"],
        baseline: "openai:sh3-a",
        judges: ["openai:sh3-j"],
      },
    );
    await waitForHeld(stub, "sh3-wave", 12, 10_000);
    const paused = await client.evaluations[":id"].pause.$post({ param: { id: started.id } });
    expect(await paused.json()).toEqual({ id: started.id, status: "paused" });
    expect(await shardStatuses(started.id, 2)).toEqual(["paused", "paused"]);
    await releaseHold(stub, "sh3-wave");
    const idle = await evaluationUntil(
      started.id,
      (e) => e.progress.answers.done === 12 && e.progress.answers.running + e.progress.judgments.running === 0,
      "the twelve calls under way at the pause to finish",
    );
    expect(idle.status).toBe("paused");
    const calls = await callsOf("sh3-a", "sh3-b", "sh3-j");
    expect(calls).toHaveLength(12);
    expect(idle.progress.judgments.done).toBe(0);
    expect(idle.progress.answers.pending).toBe(4);
    expect((await client.evaluations[":id"].pause.$post({ param: { id: started.id } })).status).toBe(409);

    const resumed = await client.evaluations[":id"].resume.$post({ param: { id: started.id } });
    expect(await resumed.json()).toEqual({ id: started.id, status: "running" });
    const done = await ended(started.id);
    expect(done.status).toBe("completed");
    expect(await shardStatuses(started.id, 2)).toEqual(["completed", "completed"]);
    expect((await callsFor(stub, "sh3-a")).length + (await callsFor(stub, "sh3-b")).length).toBe(16);
    expect(await callsFor(stub, "sh3-j")).toHaveLength(16);
  });

  it("cancels every shard: calls under way stop, what finished stays", async () => {
    // The items from the fifth on are held in both rooms (each has two of them); the first four finish.
    for (const m of ["sh4-a", "sh4-b"]) await ruleFor(stub, m, "Question number [5-8]\\?", { holdKey: "sh4-held" });
    await ruleFor(stub, "sh4-j", "", { review: { reasons: "same", verdict: "A=B" } });
    const setId = await promptSet("set-sh4", questions(8));
    const started = await startWith(
      {},
      {
        promptSetId: setId,
        contestants: ["openai:sh4-a", "openai:sh4-b"],
        baseline: "openai:sh4-a",
        judges: ["openai:sh4-j"],
      },
    );
    await waitForHeld(stub, "sh4-held", 8, 10_000);
    await evaluationUntil(
      started.id,
      (e) => e.progress.answers.done === 8 && e.progress.judgments.done === 8,
      "the first four items",
    );
    const res = await client.evaluations[":id"].cancel.$post({ param: { id: started.id } });
    expect(await res.json()).toEqual({ id: started.id, status: "cancelled" });
    const done = await ended(started.id);
    expect(done.status).toBe("cancelled");
    expect(done.progress.answers).toMatchObject({ done: 8, cancelled: 8, running: 0 });
    expect(done.progress.judgments).toMatchObject({ done: 8, cancelled: 8 });
    expect(await shardStatuses(started.id, 2)).toEqual(["cancelled", "cancelled"]);
    expect((await rowsOf(started.id)).answers).toHaveLength(8);
    expect((await client.evaluations[":id"].cancel.$post({ param: { id: started.id } })).status).toBe(409);
  });

  it("retries the failed calls in the shard that has them", async () => {
    await ruleFor(stub, "sh5-b", "Question number 3\\?", { status: 400, errorMessage: "bad request once" }, 1);
    await ruleFor(stub, "sh5-j", "", { review: { reasons: "same", verdict: "A=B" } });
    const setId = await promptSet("set-sh5", questions(4));
    const started = await startWith(
      {},
      {
        promptSetId: setId,
        contestants: ["openai:sh5-a", "openai:sh5-b"],
        baseline: "openai:sh5-a",
        judges: ["openai:sh5-j"],
      },
    );
    const first = await ended(started.id);
    expect(first.status).toBe("completed");
    expect(first.progress.answers).toMatchObject({ done: 7, failed: 1 });
    expect(first.progress.judgments).toMatchObject({ done: 6, blocked: 2 });
    expect(first.error).toMatch(/^3 calls failed/);
    const res = await client.evaluations[":id"].retry.$post({ param: { id: started.id } });
    expect(await res.json()).toEqual({ id: started.id, status: "running" });
    const done = await ended(started.id);
    expect(done.progress.answers).toMatchObject({ done: 8, failed: 0 });
    expect(done.progress.judgments).toMatchObject({ done: 8, blocked: 0 });
    expect((await callsFor(stub, "sh5-a")).length).toBe(4);
    expect((await callsFor(stub, "sh5-b")).length).toBe(5);
    expect((await client.evaluations[":id"].retry.$post({ param: { id: started.id } })).status).toBe(409);
  });

  it("reports what the same evaluation in one room reports", async () => {
    const verdict = (v: string) => ({ review: { reasons: `said ${v}`, verdict: v } });
    await ruleFor(stub, "sh6-base", "", { text: "BASE reply, plain." });
    await ruleFor(stub, "sh6-good", "", { text: "GOOD reply, careful and complete." });
    await ruleFor(stub, "sh6-flip", "", { text: "FLIP reply, odd." });
    await ruleFor(stub, "sh6-j", "Answer A[^#]*GOOD", verdict("A>>B"));
    await ruleFor(stub, "sh6-j", "Answer B[^#]*GOOD", verdict("B>>A"));
    await ruleFor(stub, "sh6-j", "Answer A[^#]*FLIP", verdict("A>B"));
    await ruleFor(stub, "sh6-j", "Answer B[^#]*FLIP", verdict("A>B"));
    const setId = await promptSet("set-sh6", questions(6), { category: "coding" });
    const body = {
      promptSetId: setId,
      contestants: ["openai:sh6-base", "openai:sh6-good", "openai:sh6-flip"],
      baseline: "openai:sh6-base",
      judges: ["openai:sh6-j"],
    };
    // A cap of four fits one room; twelve takes two.
    const single = await startWith({ QUORUM_PROVIDER_CONCURRENCY: "openai=4" }, body);
    const spread = await startWith({}, body);
    expect((await ended(single.id)).status).toBe("completed");
    expect((await ended(spread.id)).status).toBe("completed");
    const report = async (id: string) => {
      const {
        id: _id,
        name: _name,
        rows,
        ...rest
      } = await ok(client.evaluations[":id"].report.$get({ param: { id } }));
      // Only the time calls took may differ.
      const timeless = rows.map(
        ({ latencyP50: _a, latencyP95: _b, firstTokenP50: _c, firstTokenP95: _d, ...row }) => row,
      );
      return { ...rest, rows: timeless };
    };
    const one = await report(single.id);
    expect(await report(spread.id)).toEqual(one);
    expect(one.rows.map((r) => r.contestant)).toContain("openai:sh6-good");
    const battles = async (id: string) =>
      (await evalBattles(id)).map((b) => `${b.item} ${b.a} ${b.b} ${b.winner}`).sort();
    expect(await battles(spread.id)).toEqual(await battles(single.id));
    // Per item: GOOD over BASE strongly in both orders (3 + 3), BASE and FLIP one each.
    expect((await battles(single.id)).length).toBe(6 * 8);
  });

  it("sets its most aside once: the shards' parts add up to it, each given back item by item, all settled at the end", async () => {
    const prices = "openai:sh7-a=1:2,openai:sh7-b=1:2,openai:sh7-j=3:6";
    await ruleFor(stub, "sh7-b", "Same length 4\\?", { holdKey: "sh7-held" }, 1);
    await ruleFor(stub, "sh7-j", "", { review: { reasons: "same", verdict: "A=B" } });
    const setId = await promptSet("set-sh7", ["Same length 1?", "Same length 2?", "Same length 3?", "Same length 4?"]);
    const before = await spendNow();
    const started = await startWith(
      { QUORUM_PRICES: prices },
      {
        promptSetId: setId,
        contestants: ["openai:sh7-a", "openai:sh7-b"],
        baseline: "openai:sh7-a",
        judges: ["openai:sh7-j"],
        settings: { maxTokens: 100 },
      },
    );
    expect(started.estimate.usd).toBeGreaterThan(0);
    const holds = async () =>
      (
        await env.DB.prepare("SELECT id, usd, settled_at AS settledAt FROM spend_holds WHERE item_id = ? ORDER BY id")
          .bind(started.id)
          .all<{ id: string; usd: number; settledAt: number | null }>()
      ).results;
    // The whole hold and one part for each room.
    const split = await holds();
    expect(split).toHaveLength(3);
    const [whole, ...parts] = split;
    expect(whole).toMatchObject({ usd: 0 });
    expect(whole.settledAt).not.toBeNull();
    expect(parts.map((p) => p.id)).toEqual([`${whole.id}/0`, `${whole.id}/1`]);
    await waitForHeld(stub, "sh7-held", 1, 10_000);
    // Three items done, one held (the fourth, in the second room): only its most stays set aside, counted once.
    await evaluationUntil(started.id, (e) => e.progress.judgments.done === 6, "the other items' judgments");
    const during = await reservedSettles(before.reservedUsd + started.estimate.usd / 4);
    expect(during.reservedUsd - before.reservedUsd).toBeCloseTo(started.estimate.usd / 4, 12);
    await releaseHold(stub, "sh7-held");
    expect((await ended(started.id)).status).toBe("completed");
    await reservedSettles(before.reservedUsd);
    const after = await holds();
    expect(after.every((h) => h.settledAt !== null && h.usd === 0)).toBe(true);
    expect((await getEvaluation(started.id)).progress.answers.done).toBe(8);
  });
});
