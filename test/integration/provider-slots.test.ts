import { abortAllDurableObjects, env, runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { describe, expect, inject, it } from "vitest";
import { client, ok } from "../helpers/client";
import { type CreateEvaluationBody, ended, promptSet } from "../helpers/evaluations";
import { withSettings } from "../helpers/spend";
import { heldCount, peakOpen, poll, releaseHold, ruleFor, scriptModel, waitForHeld } from "../helpers/stub-client";

const stub = inject("stubUrl");
/** Every provider here is at its default cap: QUORUM_PROVIDER_CONCURRENCY is unset in the tests. */
const CAP = 4;
const PROMPTS = ["First question?", "Second question?", "Third question?"];

/** The owner of `provider`'s slots (one Durable Object per provider, shared by every room of this file). */
const slotsRoom = (provider: string) => env.PROVIDER_SLOTS.get(env.PROVIDER_SLOTS.idFromName(provider));
const evaluationHolder = (id: string) => env.EVALUATION_ROOM.idFromName(id).toString();
const goalBattleHolder = (jobId: string) => env.GOAL_BATTLE_ROOM.idFromName(jobId).toString();

/** The leases `provider`'s slots are held under, as its storage keeps them. */
const leasesOf = (provider: string) =>
  runInDurableObject(slotsRoom(provider), (_instance, state) =>
    state.storage.sql
      .exec<{ holder: string; held: number }>("SELECT holder, held FROM slot_leases ORDER BY holder")
      .toArray(),
  );

/** The holders whose asks for `provider`'s slots wait for a release now. */
const waitingHolders = (provider: string) =>
  runInDurableObject(slotsRoom(provider), (instance) => [
    ...new Set((instance as unknown as { waiters: { holder: string }[] }).waiters.map((w) => w.holder)),
  ]);

/**
 * Starts an evaluation in one room: OpenAI's 4 and the judges' Anthropic at 2 add up to six (caps adding up to more
 * would spread it over shard rooms, each a holder of its own). Anthropic's slots still hold 4 across rooms.
 */
async function startEvaluation(body: CreateEvaluationBody): Promise<{ id: string }> {
  const res = await withSettings(
    "/evaluations",
    { QUORUM_PROVIDER_CONCURRENCY: "anthropic=2" },
    { method: "POST", json: body },
  );
  expect(res.status).toBe(201);
  return (await res.json()) as { id: string };
}

/** A judge on another provider than the contestants', answering at once. */
async function judge(model: string) {
  await ruleFor(stub, model, "", { review: { reasons: "same", verdict: "A=B" } });
  return `anthropic:${model}`;
}

const battleEnded = (jobId: string) =>
  poll(
    () => ok(client["goal-battles"][":jobId"].$get({ param: { jobId } })),
    (b) => b.state !== "running" && b.state !== "queued",
    15_000,
    "the goal battle's end",
  );

/** Lets the calls held on `key` go, again and again as more arrive, until `done` says everything ended. */
async function releaseUntil(key: string, done: () => Promise<boolean>) {
  for (;;) {
    const seen = await poll(
      async () => ({ held: await heldCount(stub, key), done: await done() }),
      (s) => s.held > 0 || s.done,
      15_000,
      `a call held on "${key}", or the end`,
    );
    if (seen.done) return;
    await releaseHold(stub, key);
  }
}

describe("a provider's cap across rooms", () => {
  it("two evaluations and a goal battle on one provider never have more than its cap in flight together, and reach it", async () => {
    for (const m of ["ps1-o-a", "ps1-o-b", "ps1-o-c", "ps1-o-d", "ps1-o-f"])
      await ruleFor(stub, m, "", { holdKey: "ps1-held", text: "A held reply." });
    await ruleFor(stub, "ps1-o-e", "", { holdKey: "ps1-held", text: "Done. GOAL_REACHED" });
    const j = await judge("ps1-x-j");
    const setId = await promptSet("set-ps1", PROMPTS);
    // Each evaluation alone would keep four calls in flight (its room's cap for the provider), the battle two.
    const first = await startEvaluation({
      promptSetId: setId,
      contestants: ["openai:ps1-o-a", "openai:ps1-o-b"],
      baseline: "openai:ps1-o-a",
      judges: [j],
    });
    const second = await startEvaluation({
      promptSetId: setId,
      contestants: ["openai:ps1-o-c", "openai:ps1-o-d"],
      baseline: "openai:ps1-o-c",
      judges: [j],
    });
    const { jobId } = await ok(
      client["goal-battles"].$post({
        json: {
          contestants: ["openai:ps1-o-e", "openai:ps1-o-f"],
          systemPrompt: "You are a helpful travel agent.",
          goal: "Book a train ticket",
          user: { mode: "script", script: ["Book it, please."] },
          goalCheck: { marker: "GOAL_REACHED" },
          judgeMode: "goal",
        },
      }),
    );
    const rooms = [evaluationHolder(first.id), evaluationHolder(second.id), goalBattleHolder(jobId)];

    await waitForHeld(stub, "ps1-held", CAP, 10_000);
    // The cap is reached, and the rooms without a slot are waiting for one (not merely slow to ask).
    const waiting = await poll(
      () => waitingHolders("openai"),
      (holders) => holders.length >= 2,
      10_000,
      "two rooms waiting for OpenAI's slots",
    );
    expect(waiting.every((h) => rooms.includes(h))).toBe(true);
    const leases = await leasesOf("openai");
    expect(leases.reduce((s, l) => s + l.held, 0)).toBe(CAP);
    expect(leases.every((l) => rooms.includes(l.holder))).toBe(true);

    const allEnded = async () =>
      (await ok(client.evaluations[":id"].$get({ param: { id: first.id } }))).status === "completed" &&
      (await ok(client.evaluations[":id"].$get({ param: { id: second.id } }))).status === "completed" &&
      (await ok(client["goal-battles"][":jobId"].$get({ param: { jobId } }))).state === "done";
    await releaseUntil("ps1-held", allEnded);
    expect((await ended(first.id)).progress.answers).toMatchObject({ done: 6, failed: 0 });
    expect((await ended(second.id)).progress.answers).toMatchObject({ done: 6, failed: 0 });
    expect(await battleEnded(jobId)).toMatchObject({ state: "done", endedReason: "goal" });
    expect(await peakOpen(stub, "ps1-o-")).toBe(CAP);
    // Every slot came back.
    expect(
      await poll(
        () => leasesOf("openai"),
        (l) => l.length === 0,
        5_000,
        "every lease ended",
      ),
    ).toEqual([]);
  });

  it("a room that dies mid-call holds its slots only until its lease runs out", async () => {
    for (const m of ["ps2-o-a", "ps2-o-b"])
      await scriptModel(
        stub,
        m,
        [1, 2].map(() => ({ holdKey: "ps2-held", text: "Never sent." })),
      );
    for (const m of ["ps2-o-a", "ps2-o-b", "ps2-o-c", "ps2-o-d"]) await ruleFor(stub, m, "", { text: "A reply." });
    const j = await judge("ps2-x-j");
    const died = await startEvaluation({
      promptSetId: await promptSet("set-ps2a", PROMPTS.slice(0, 2)),
      contestants: ["openai:ps2-o-a", "openai:ps2-o-b"],
      baseline: "openai:ps2-o-a",
      judges: [j],
    });
    await waitForHeld(stub, "ps2-held", CAP, 10_000);
    const dead = evaluationHolder(died.id);
    // Every room dies at once, mid-call (an eviction would wait for the held calls), the slots' owner too: its
    // leases are in its storage. Nothing wakes the evaluation here (its alarm is set for its step's far deadline).
    await abortAllDurableObjects();
    expect(await leasesOf("openai")).toEqual([{ holder: dead, held: CAP }]);

    const next = await startEvaluation({
      promptSetId: await promptSet("set-ps2b", PROMPTS.slice(0, 1)),
      contestants: ["openai:ps2-o-c", "openai:ps2-o-d"],
      baseline: "openai:ps2-o-c",
      judges: [j],
    });
    await poll(
      () => waitingHolders("openai"),
      (holders) => holders.includes(evaluationHolder(next.id)),
      10_000,
      "the next evaluation to wait for a slot",
    );
    // The lease runs out (its end moved to now, as if LEASE_MS had passed) and the alarm at its end frees it.
    await runInDurableObject(slotsRoom("openai"), (_instance, state) => {
      state.storage.sql.exec("UPDATE slot_leases SET expires_at = ? WHERE holder = ?", Date.now() - 1, dead);
    });
    expect(await runDurableObjectAlarm(slotsRoom("openai"))).toBe(true);
    expect((await ended(next.id)).progress.answers).toMatchObject({ done: 2, failed: 0 });

    // Woken, the room that died makes its unfinished calls again, on slots of its own.
    expect((await ended(died.id)).progress.answers).toMatchObject({ done: 4, failed: 0 });
    expect(
      await poll(
        () => leasesOf("openai"),
        (l) => l.length === 0,
        5_000,
        "every lease ended",
      ),
    ).toEqual([]);
  });

  it("a room restarted mid-call takes back its own slots at once, without waiting for its old lease", async () => {
    for (const m of ["ps3-o-a", "ps3-o-b"]) {
      await scriptModel(
        stub,
        m,
        [1, 2].map(() => ({ holdKey: "ps3-held", text: "Never sent." })),
      );
      await ruleFor(stub, m, "", { text: "A reply." });
    }
    const restarted = await startEvaluation({
      promptSetId: await promptSet("set-ps3", PROMPTS.slice(0, 2)),
      contestants: ["openai:ps3-o-a", "openai:ps3-o-b"],
      baseline: "openai:ps3-o-a",
      judges: [await judge("ps3-x-j")],
    });
    await waitForHeld(stub, "ps3-held", CAP, 10_000);
    await abortAllDurableObjects();
    expect(await leasesOf("openai")).toEqual([{ holder: evaluationHolder(restarted.id), held: CAP }]);
    // Its next read wakes it; its new instance's first ask replaces the old lease, all four slots free again.
    expect((await ended(restarted.id)).progress.answers).toMatchObject({ done: 4, failed: 0 });
  });

  it("one provider's slots never hold back another's calls", async () => {
    for (const m of ["ps4-o-a", "ps4-o-b"]) await ruleFor(stub, m, "", { holdKey: "ps4-held", text: "Held." });
    for (const m of ["ps4-g-a", "ps4-g-b"]) await ruleFor(stub, m, "", { text: "A reply." });
    const j = await judge("ps4-x-j");
    const held = await startEvaluation({
      promptSetId: await promptSet("set-ps4a", PROMPTS.slice(0, 2)),
      contestants: ["openai:ps4-o-a", "openai:ps4-o-b"],
      baseline: "openai:ps4-o-a",
      judges: [j],
    });
    await waitForHeld(stub, "ps4-held", CAP, 10_000);
    const other = await startEvaluation({
      promptSetId: await promptSet("set-ps4b", PROMPTS),
      contestants: ["google:ps4-g-a", "google:ps4-g-b"],
      baseline: "google:ps4-g-a",
      judges: [j],
    });
    expect((await ended(other.id)).status).toBe("completed");
    // OpenAI's cap is still all taken meanwhile.
    expect(await heldCount(stub, "ps4-held")).toBe(CAP);
    await releaseHold(stub, "ps4-held");
    expect((await ended(held.id)).status).toBe("completed");
  });

  it("a goal evaluation's battles get the provider's slots: its goal calls, which only await them, hold none", async () => {
    await ruleFor(stub, "ps5-o-good", "", { text: "All booked. GOAL_REACHED" });
    await ruleFor(stub, "ps5-o-plain", "", { text: "Working on it." });
    const goals = ["train", "hotel", "car", "ferry", "flight"].map((id) => ({
      id,
      prompt: `I need a ${id}.`,
      goal: `Book a ${id}`,
    }));
    const setId = (await ok(client["prompt-sets"].$post({ json: { name: "ps5 goals", items: goals } }))).id;
    // Four goal calls start at once (OpenAI's cap in the room): were each holding a slot, no battle would get one.
    const started = await startEvaluation({
      promptSetId: setId,
      contestants: ["openai:ps5-o-good", "openai:ps5-o-plain"],
      baseline: "openai:ps5-o-plain",
      method: "goal",
      settings: { goal: { user: { mode: "script", script: ["Next step?"] } } },
    });
    const done = await ended(started.id);
    expect(done).toMatchObject({ status: "completed", error: null });
    expect(done.progress.judgments).toMatchObject({ done: 5, failed: 0, total: 5 });
    expect(await peakOpen(stub, "ps5-o-")).toBeLessThanOrEqual(CAP);
    expect(
      await poll(
        () => leasesOf("openai"),
        (l) => l.length === 0,
        5_000,
        "every lease ended",
      ),
    ).toEqual([]);
  });
});
