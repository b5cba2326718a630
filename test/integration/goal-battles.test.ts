import { env } from "cloudflare:test";
import type { InferRequestType, InferResponseType } from "hono/client";
import { describe, expect, inject, it } from "vitest";
import { sweepUnfinished } from "../../worker/rooms/sweep";
import { goalBattleEvent } from "../../worker/shared/goal-battle";
import { client, ok } from "../helpers/client";
import { api } from "../helpers/runs";
import { openEventSocket } from "../helpers/sockets";
import { callsFor, poll, releaseHold, ruleFor, scriptModel, waitForCalls, waitForHeld } from "../helpers/stub-client";
import { fireAlarm, passDeadline } from "../helpers/watchdog";

const stub = inject("stubUrl");

type Body = InferRequestType<(typeof client)["goal-battles"]["$post"]>["json"];
type Battle = InferResponseType<(typeof client)["goal-battles"][":jobId"]["$get"], 200>;

const SCRIPT = ["First, what do I need?", "Second, how do I start?", "Third, what next?", "Fourth, anything else?"];

async function launch(body: Body): Promise<string> {
  return (await ok(client["goal-battles"].$post({ json: body }))).jobId;
}

const getBattle = (jobId: string): Promise<Battle> => ok(client["goal-battles"][":jobId"].$get({ param: { jobId } }));

const ended = (jobId: string, timeoutMs = 15_000) =>
  poll(
    () => getBattle(jobId),
    (b) => b.state !== "running" && b.state !== "queued",
    timeoutMs,
    "the battle's end",
  );

async function messagesOf(jobId: string, side?: "A" | "B") {
  const page = await ok(
    client["goal-battles"][":jobId"].messages.$get({ param: { jobId }, query: side ? { side } : {} }),
  );
  return page.messages;
}

/** The side a contestant ended up on, read once names are out. */
const sideOf = (b: Battle, contestant: string) => (b.sides.A.contestant === contestant ? "A" : "B");

async function goalBattles(jobId: string) {
  const { results } = await env.DB.prepare(
    "SELECT model_a AS a, model_b AS b, winner, judge, category FROM battles WHERE source = 'goal' AND question_id = ?",
  )
    .bind(jobId)
    .all<{ a: string; b: string; winner: string; judge: string | null; category: string | null }>();
  return results;
}

describe("a scripted goal battle", () => {
  it("ends with `goal` when one side writes the marker on turn 3, that side winning, both sides asked the same messages", async () => {
    const good = "openai:gb1-good";
    const plain = "anthropic:gb1-plain";
    await ruleFor(stub, "gb1-good", "Third, what next", { text: "All set now. GOAL_REACHED" });
    await ruleFor(stub, "gb1-good", "", { text: "Working on it (good)." });
    await ruleFor(stub, "gb1-plain", "", { text: "Working on it (plain)." });
    const jobId = await launch({
      contestants: [good, plain],
      systemPrompt: "You are a helpful travel agent.",
      goal: "Book a train ticket",
      user: { mode: "script", script: SCRIPT },
      goalCheck: { marker: "GOAL_REACHED" },
      category: "agents",
      judgeMode: "goal",
    });
    const b = await ended(jobId);
    const winner = sideOf(b, good);
    const loser = winner === "A" ? "B" : "A";
    expect(b).toMatchObject({ state: "done", endedReason: "goal", winner, currentTurn: 3, maxTurns: 4, progress: 1 });
    expect(b.rationale).toBe(`Side ${winner} reached the goal first, on turn 3.`);
    expect(b.sides[winner]).toMatchObject({ contestant: good, goalReachedAt: 3, turns: 3, failed: false });
    expect(b.sides[loser]).toMatchObject({ contestant: plain, goalReachedAt: null, turns: 3 });
    expect(b.sides[winner].tokensIn).toBeGreaterThan(0);

    const theirs = await messagesOf(jobId, loser);
    expect(theirs.filter((m) => m.role === "user").map((m) => m.content)).toEqual(SCRIPT.slice(0, 3));
    expect(theirs.filter((m) => m.role === "assistant").map((m) => m.goalCheck)).toEqual(
      Array(3).fill({ reached: false, reason: "The reply did not write the marker GOAL_REACHED.", by: "marker" }),
    );
    const ours = await messagesOf(jobId, winner);
    expect(ours.filter((m) => m.role === "user").map((m) => m.content)).toEqual(SCRIPT.slice(0, 3));
    expect(ours.at(-1)).toMatchObject({ turn: 3, role: "assistant", content: "All set now. GOAL_REACHED" });
    expect(ours.at(-1)?.goalCheck).toMatchObject({ reached: true, by: "marker" });
    // Each side was asked its turns with the battle's framing: the goal and the marker to write.
    const asked = await callsFor(stub, "gb1-good");
    expect(asked).toHaveLength(3);
    expect(JSON.stringify(asked[0].body)).toContain("When the goal is reached, write GOAL_REACHED");

    expect(await goalBattles(jobId)).toEqual([
      {
        a: b.sides.A.contestant,
        b: b.sides.B.contestant,
        winner: winner === "A" ? "model_a" : "model_b",
        judge: null,
        category: "agents",
      },
    ]);
    // On the leaderboard as source `goal` only (and under `all`).
    const board = await ok(client.leaderboard.$get({ query: { source: "goal", category: "agents", demo: "include" } }));
    const row = (id: string) => board.rows.find((r) => r.modelId === id);
    expect(row(good)).toMatchObject({ wins: 1, battles: 1 });
    expect(row(plain)).toMatchObject({ wins: 0, battles: 1 });
    const human = await ok(client.leaderboard.$get({ query: { source: "human", demo: "include" } }));
    expect(human.rows.some((r) => r.modelId === good)).toBe(false);
    const all = await ok(client.leaderboard.$get({ query: { source: "all", category: "agents", demo: "include" } }));
    expect(all.rows.find((r) => r.modelId === good)).toMatchObject({ wins: 1 });
    // …and in the battle export of the goal source.
    const exported = await api("/battles/export?source=goal");
    expect(exported.status).toBe(200);
    expect(await exported.text()).toContain("gb1-good");
  });
});

describe("a model-driven goal battle", () => {
  it("reaches the turn limit and is decided by the judge asked in both orders; each side gets its own user messages", async () => {
    const x = "openai:gb2-x";
    const y = "google:gb2-y";
    await ruleFor(stub, "gb2-x", "", { text: "XREPLY step." });
    await ruleFor(stub, "gb2-y", "", { text: "YREPLY step." });
    await ruleFor(stub, "gb2-user", "XREPLY", { text: "Tell me more, X." });
    await ruleFor(stub, "gb2-user", "YREPLY", { text: "Tell me more, Y." });
    await ruleFor(stub, "gb2-user", "", { text: "Hello, I need a plan." });
    await ruleFor(stub, "gb2-judge", '"reached"', { review: { reached: false, reason: "not yet" } });
    await ruleFor(stub, "gb2-judge", "Answer A[^#]*XREPLY", {
      review: { winner: "A", scores: { A: 8, B: 4 }, reasons: "X plans better." },
    });
    await ruleFor(stub, "gb2-judge", "Answer B[^#]*XREPLY", {
      review: { winner: "B", scores: { A: 4, B: 8 }, reasons: "X plans better." },
    });
    const jobId = await launch({
      contestants: [x, y],
      systemPrompt: "",
      goal: "Plan a week of meals",
      user: { mode: "model", modelId: "openai:gb2-user", persona: "A busy parent" },
      goalCheck: { judgeModelId: "openai:gb2-judge" },
      maxTurns: 3,
      judgeMode: "goal",
    });
    const b = await ended(jobId);
    const xSide = sideOf(b, x);
    expect(b).toMatchObject({ state: "done", endedReason: "limit", winner: xSide, currentTurn: 3, maxTurns: 3 });
    expect(b.rationale).toContain("Neither side reached the goal within 3 turns.");
    expect(b.rationale).toContain(`The judge preferred side ${xSide} in both orders: X plans better.`);

    const judgeCalls = (await callsFor(stub, "gb2-judge")).map((c) => JSON.stringify(c.body));
    // Six goal checks (two sides, three turns) and the outcome asked twice, once with each side shown as A.
    expect(judgeCalls.filter((c) => c.includes("Answer A"))).toHaveLength(2);
    expect(judgeCalls).toHaveLength(8);

    const ofX = await messagesOf(jobId, xSide);
    const ofY = await messagesOf(jobId, xSide === "A" ? "B" : "A");
    expect(ofX.filter((m) => m.role === "user").map((m) => m.content)).toEqual([
      "Hello, I need a plan.",
      "Tell me more, X.",
      "Tell me more, X.",
    ]);
    expect(ofY.filter((m) => m.role === "user").map((m) => m.content)).toEqual([
      "Hello, I need a plan.",
      "Tell me more, Y.",
      "Tell me more, Y.",
    ]);
    expect(ofX.filter((m) => m.role === "assistant").map((m) => m.goalCheck)).toEqual(
      Array(3).fill({ reached: false, reason: "not yet", by: "judge" }),
    );
    expect(await goalBattles(jobId)).toEqual([
      expect.objectContaining({ winner: xSide === "A" ? "model_a" : "model_b", judge: "openai:gb2-judge" }),
    ]);
  });

  it("runs on the demo models with no key: the better demo side reaches the goal first", async () => {
    const jobId = await launch({
      contestants: ["demo:thorough", "demo:skeptic"],
      goal: "Write a packing list for a weekend hike",
      user: { mode: "model", modelId: "demo:concise", persona: "A first-time hiker" },
      judgeMode: "goal",
    });
    const b = await ended(jobId);
    const thorough = sideOf(b, "demo:thorough");
    expect(b).toMatchObject({ state: "done", endedReason: "goal", winner: thorough, currentTurn: 2 });
    const users = (await messagesOf(jobId, thorough)).filter((m) => m.role === "user").map((m) => m.content);
    expect(users[0]).toBe("Hello — I need to write a packing list for a weekend hike. Where do we start?");
    expect(users).toHaveLength(2);
  });
});

describe("a preset as a contestant", () => {
  it("calls its model with its own system prompt before the battle's framing, and is named by its id once over", async () => {
    const preset = await ok(
      client.presets.$post({
        json: { name: "gb12 agent", modelId: "openai:gb12-base", systemPrompt: "Be a careful agent." },
      }),
    );
    await ruleFor(stub, "gb12-base", "", { text: "Done. GOAL_REACHED" });
    await ruleFor(stub, "gb12-other", "", { text: "Hmm." });
    const jobId = await launch({
      contestants: [preset.id, "anthropic:gb12-other"],
      systemPrompt: "You help with errands.",
      goal: "Buy milk",
      user: { mode: "script", script: ["Hi"] },
      judgeMode: "goal",
    });
    const b = await ended(jobId);
    expect(b).toMatchObject({ endedReason: "goal", winner: sideOf(b, preset.id) });
    expect(b.sides[sideOf(b, preset.id)].displayName).not.toBeNull();
    const [call] = await callsFor(stub, "gb12-base");
    const messages = call.body.messages as unknown as { role: string; content: string }[];
    const system = messages.find((m) => m.role === "system")?.content ?? "";
    expect(system.startsWith("Be a careful agent.\n\nYou help with errands.\n\nThe user's goal: Buy milk")).toBe(true);
    expect(await goalBattles(jobId)).toEqual([expect.objectContaining({ winner: expect.any(String) })]);
    expect([...Object.values((await goalBattles(jobId))[0])]).toContain(preset.id);
  });
});

describe("goal battles side by side", () => {
  it("five launched at once keep to their own models, transcripts and outcomes", async () => {
    const tags = [0, 1, 2, 3, 4].map((i) => `gb3${i}`);
    for (const [i, tag] of tags.entries()) {
      // The turn whose script line first appears in the request: turn 1, 2 or 3.
      const goalTurn = SCRIPT[i % 3].slice(0, 5);
      await ruleFor(stub, `${tag}-w`, goalTurn, { text: `${tag} winner done GOAL_REACHED` });
      await ruleFor(stub, `${tag}-w`, "", { text: `${tag} winner working` });
      await ruleFor(stub, `${tag}-l`, "", { text: `${tag} loser working` });
    }
    const ids = await Promise.all(
      tags.map((tag) =>
        launch({
          contestants: [`openai:${tag}-w`, `anthropic:${tag}-l`],
          goal: `Goal of ${tag}`,
          user: { mode: "script", script: SCRIPT },
          goalCheck: { marker: "GOAL_REACHED" },
          judgeMode: "goal",
        }),
      ),
    );
    const battles = await Promise.all(ids.map((id) => ended(id)));
    for (const [i, b] of battles.entries()) {
      const tag = tags[i];
      const w = sideOf(b, `openai:${tag}-w`);
      expect(b).toMatchObject({
        state: "done",
        endedReason: "goal",
        winner: w,
        currentTurn: (i % 3) + 1,
        goal: `Goal of ${tag}`,
      });
      const replies = (await messagesOf(ids[i])).filter((m) => m.role === "assistant").map((m) => m.content);
      expect(replies.every((text) => text.startsWith(`${tag} `))).toBe(true);
      expect(await goalBattles(ids[i])).toHaveLength(1);
    }
  });
});

describe("failures, stops and blindness", () => {
  it("a side that times out while the other replied loses (endedReason timeout); both failing is no contest", async () => {
    await ruleFor(stub, "gb4-slow", "", { hang: true });
    await ruleFor(stub, "gb4-fast", "", { text: "Here you go." });
    const jobId = await launch({
      contestants: ["openai:gb4-slow", "anthropic:gb4-fast"],
      goal: "Answer quickly",
      user: { mode: "script", script: SCRIPT },
      turnTimeoutMs: 1_500,
      judgeMode: "goal",
    });
    const b = await ended(jobId);
    const slow = sideOf(b, "openai:gb4-slow");
    const fast = slow === "A" ? "B" : "A";
    expect(b).toMatchObject({ state: "error", endedReason: "timeout", winner: fast, currentTurn: 1 });
    expect(b.rationale).toBe(`Side ${slow} timed out on turn 1 while side ${fast} replied, so side ${fast} wins.`);
    expect(b.sides[slow].failed).toBe(true);
    const failedReply = (await messagesOf(jobId, slow)).find((m) => m.role === "assistant");
    // Names are out, so the failure reads in its own words.
    expect(failedReply?.error).toContain("Timed out: no complete answer within");
    expect(await goalBattles(jobId)).toEqual([
      expect.objectContaining({ winner: fast === "A" ? "model_a" : "model_b" }),
    ]);

    await ruleFor(stub, "gb4-slow2", "", { hang: true });
    const none = await ended(
      await launch({
        contestants: ["openai:gb4-slow", "openai:gb4-slow2"],
        goal: "Answer quickly",
        user: { mode: "script", script: SCRIPT },
        turnTimeoutMs: 1_500,
        judgeMode: "goal",
      }),
    );
    expect(none).toMatchObject({ state: "error", endedReason: "timeout", winner: "none" });
    expect(await goalBattles(none.jobId)).toEqual([]);
  });

  it("stays blind while running (GET, list, socket), and a stop ends it unrated with names shown", async () => {
    await ruleFor(stub, "gb5-a", "", { holdKey: "gb5" });
    await ruleFor(stub, "gb5-b", "", { holdKey: "gb5" });
    const jobId = await launch({
      contestants: ["openai:gb5-a", "anthropic:gb5-b"],
      goal: "Say hello",
      user: { mode: "script", script: SCRIPT },
      judgeMode: "goal",
    });
    await waitForHeld(stub, "gb5", 2);
    const running = await getBattle(jobId);
    expect(running.state).toBe("running");
    for (const s of ["A", "B"] as const)
      expect(running.sides[s]).toMatchObject({ contestant: null, displayName: null, costUsd: null });
    const listed = await ok(client["goal-battles"].$get({ query: {} }));
    const mine = listed.battles.find((x) => x.jobId === jobId)!;
    expect([mine.sides.A.contestant, mine.sides.B.displayName]).toEqual([null, null]);
    const socket = await openEventSocket(`/api/goal-battles/${jobId}/ws`, goalBattleEvent);
    const snapshot = await socket.waitFor("snapshot");
    expect(snapshot.state.sides.A.contestant).toBeNull();
    expect(JSON.stringify(snapshot)).not.toContain("gb5-");

    const stopped = await ok(client["goal-battles"][":jobId"].stop.$post({ param: { jobId } }));
    expect(stopped).toMatchObject({ state: "stopped", endedReason: "manual", winner: "none" });
    expect([stopped.sides.A.contestant, stopped.sides.B.contestant].sort()).toEqual([
      "anthropic:gb5-b",
      "openai:gb5-a",
    ]);
    const updated = await socket.waitFor("battle.updated", (e) => e.battle.state === "stopped");
    expect(updated.battle.sides.A.contestant).not.toBeNull();
    socket.close();
    const again = await client["goal-battles"][":jobId"].stop.$post({ param: { jobId } });
    expect(again.status).toBe(409);
    expect(await goalBattles(jobId)).toEqual([]);
  });

  it("judged by people: blind until the vote, which decides and rates it", async () => {
    await ruleFor(stub, "gb6-a", "", { text: "A side reply." });
    await ruleFor(stub, "gb6-b", "", { text: "B side reply." });
    const jobId = await launch({
      contestants: ["openai:gb6-a", "anthropic:gb6-b"],
      goal: "Chat a little",
      user: { mode: "script", script: SCRIPT.slice(0, 2) },
      judgeMode: "human",
    });
    const over = await ended(jobId);
    expect(over).toMatchObject({ state: "done", endedReason: "limit", winner: null, vote: null });
    expect([over.sides.A.contestant, over.sides.B.displayName]).toEqual([null, null]);
    const voted = await ok(
      client["goal-battles"][":jobId"].votes.$post({ param: { jobId }, json: { choice: "right" } }),
    );
    expect(voted).toMatchObject({ winner: "B", vote: { choice: "right" } });
    expect(voted.sides.B.contestant).not.toBeNull();
    expect(await goalBattles(jobId)).toEqual([
      expect.objectContaining({ a: voted.sides.A.contestant, winner: "model_b" }),
    ]);
    const twice = await client["goal-battles"][":jobId"].votes.$post({ param: { jobId }, json: { choice: "left" } });
    expect(twice.status).toBe(409);
  });
});

describe("a goal battle's spend", () => {
  it("is set aside blind, kept per call as the goal feature, and shown once the battle is over", async () => {
    await ruleFor(stub, "gb-priced", "", { text: "Done. GOAL_REACHED", tokensIn: 1000, tokensOut: 500 });
    await ruleFor(stub, "gb10-b", "", { holdKey: "gb10", text: "Still going." });
    // Drawn from a pool of two: both take part, on sides drawn at random.
    const jobId = await launch({
      pool: ["openai:gb-priced", "anthropic:gb10-b"],
      goal: "Finish",
      user: { mode: "script", script: ["Hi"] },
      judgeMode: "goal",
    });
    await waitForHeld(stub, "gb10", 1);
    const holds = () =>
      env.DB.prepare(
        "SELECT usd, hidden, settled_at AS settled, revealed_at AS revealed FROM spend_holds WHERE item_id = ?",
      )
        .bind(jobId)
        .all<{ usd: number; hidden: number; settled: number | null; revealed: number | null }>();
    const held = (await holds()).results;
    expect(held).toHaveLength(1);
    expect(held[0]).toMatchObject({ hidden: 1, settled: null, revealed: null });
    expect(held[0].usd).toBeGreaterThan(0);
    const history = () => ok(client.spend.history.$get({ query: {} }));
    // The priced side's reply is in D1 already, but no figure shows it while the battle is blind.
    await poll(
      () =>
        env.DB.prepare("SELECT count(*) AS n FROM spend_entries WHERE item_id = ?").bind(jobId).first<{ n: number }>(),
      (row) => (row?.n ?? 0) >= 1,
      10_000,
      "the priced side's spend entry",
    );
    expect((await history()).byModel.some((m) => m.modelId === "openai:gb-priced")).toBe(false);
    await releaseHold(stub, "gb10");
    const b = await ended(jobId);
    const priced = sideOf(b, "openai:gb-priced");
    expect(b).toMatchObject({ endedReason: "goal", winner: priced });
    // 1,000 tokens in at $1 and 500 out at $2 per million.
    expect(b.sides[priced].costUsd).toBeCloseTo(0.002, 9);
    expect((await holds()).results[0].settled).not.toBeNull();
    expect((await holds()).results[0].revealed).not.toBeNull();
    const after = await history();
    expect(after.byModel.find((m) => m.modelId === "openai:gb-priced")?.usd).toBeCloseTo(0.002, 9);
    expect(after.byFeature.find((f) => f.feature === "goal")?.usd).toBeGreaterThanOrEqual(0.002);
  });
});

describe("a goal battle resumed", () => {
  it("by the watchdog mid-turn asks only the side that had not replied again, and goes on to the end", async () => {
    await ruleFor(stub, "gb9-a", "", { text: "a reply" });
    await scriptModel(stub, "gb9-b", [{ text: "b one" }, { hang: true }]);
    await ruleFor(stub, "gb9-b", "", { text: "b later" });
    const jobId = await launch({
      contestants: ["openai:gb9-a", "anthropic:gb9-b"],
      goal: "Keep talking",
      user: { mode: "script", script: SCRIPT.slice(0, 3) },
      turnTimeoutMs: 60_000,
      judgeMode: "goal",
    });
    const room = env.GOAL_BATTLE_ROOM.get(env.GOAL_BATTLE_ROOM.idFromName(jobId));
    await waitForCalls(stub, "gb9-b", 2, 10_000);
    await waitForCalls(stub, "gb9-a", 2, 10_000);
    await poll(
      () => messagesOf(jobId),
      (ms) => ms.some((m) => m.turn === 2 && m.role === "assistant" && m.goalCheck !== null),
      10_000,
      "side gb9-a's reply on turn 2, checked",
    );
    await passDeadline(room);
    const resuming = fireAlarm(room);
    const b = await ended(jobId);
    await resuming;
    expect(b).toMatchObject({ state: "done", endedReason: "limit", winner: "tie", currentTurn: 3 });
    expect(b.rationale).toContain("No judge was named");
    // One call per turn for the side that replied; the hung call on turn 2 asked once more.
    expect(await callsFor(stub, "gb9-a")).toHaveLength(3);
    expect(await callsFor(stub, "gb9-b")).toHaveLength(4);
    const replies = (await messagesOf(jobId)).filter((m) => m.role === "assistant" && m.turn === 2);
    expect(replies.map((m) => m.content).sort()).toEqual(["a reply", "b later"]);
  });
});

describe("the cron sweep", () => {
  it("nudges a goal battle D1 still shows running long after it started", async () => {
    await ruleFor(stub, "gb11-a", "", { holdKey: "gb11" });
    await ruleFor(stub, "gb11-b", "", { holdKey: "gb11" });
    const jobId = await launch({
      contestants: ["openai:gb11-a", "anthropic:gb11-b"],
      goal: "Wait",
      user: { mode: "script", script: ["Hi"] },
      judgeMode: "goal",
    });
    await waitForHeld(stub, "gb11", 2);
    await env.DB.prepare("UPDATE goal_battles SET created_at = created_at - 11 * 60000 WHERE id = ?").bind(jobId).run();
    expect((await sweepUnfinished(env)).goalBattles).toContain(jobId);
    await ok(client["goal-battles"][":jobId"].stop.$post({ param: { jobId } }));
    expect((await sweepUnfinished(env)).goalBattles).not.toContain(jobId);
  });
});

describe("bad goal battle requests", () => {
  const valid = {
    contestants: ["openai:gb7-a", "anthropic:gb7-b"],
    goal: "Do it",
    user: { mode: "script", script: ["Hi"] },
  };
  const cases: [string, unknown, number, string][] = [
    ["no goal", { ...valid, goal: undefined }, 400, "invalid_request"],
    ["the same contestant twice", { ...valid, contestants: ["openai:x", "openai:x"] }, 400, "invalid_request"],
    ["contestants and a pool", { ...valid, pool: ["openai:x", "openai:y"] }, 400, "invalid_request"],
    ["a model user without a model", { ...valid, user: { mode: "model" } }, 400, "invalid_request"],
    ["a script user without a script", { ...valid, user: { mode: "script" } }, 400, "invalid_request"],
    ["too many turns", { ...valid, maxTurns: 51 }, 400, "invalid_request"],
    ["an llm judge without a judge", { ...valid, judgeMode: "llm" }, 400, "invalid_request"],
    ["an unknown preset", { ...valid, contestants: ["preset:nope@1", "openai:x"] }, 400, "unknown_preset"],
    ["an unknown field", { ...valid, extra: 1 }, 400, "invalid_request"],
    [
      "a judge that is a contestant",
      { ...valid, goalCheck: { judgeModelId: "openai:gb7-a" } },
      400,
      "judge_is_contestant",
    ],
  ];
  for (const [what, body, status, code] of cases)
    it(`refuses ${what} with a clear ${status}`, async () => {
      const res = await api("/goal-battles", { method: "POST", json: body });
      expect(res.status).toBe(status);
      const error = ((await res.json()) as { error: { code: string; message: string } }).error;
      expect(error.code).toBe(code);
      expect(error.message.length).toBeGreaterThan(10);
    });

  it("answers 404 for a battle it never made, and 400 for a bad cursor or a vote outside human judging", async () => {
    expect((await api("/goal-battles/not-a-battle")).status).toBe(404);
    expect((await api("/goal-battles/not-a-battle/stop", { method: "POST" })).status).toBe(404);
    await ruleFor(stub, "gb8-a", "", { text: "ok GOAL_REACHED" });
    await ruleFor(stub, "gb8-b", "", { text: "ok" });
    const jobId = await launch({
      contestants: ["openai:gb8-a", "anthropic:gb8-b"],
      goal: "Finish",
      user: { mode: "script", script: ["Hi"] },
      judgeMode: "goal",
    });
    await ended(jobId);
    expect((await api(`/goal-battles/${jobId}/messages?cursor=abc`)).status).toBe(400);
    expect((await api(`/goal-battles/${jobId}/messages?side=C`)).status).toBe(400);
    const vote = await api(`/goal-battles/${jobId}/votes`, { method: "POST", json: { choice: "left" } });
    expect(vote.status).toBe(409);
    expect(((await vote.json()) as { error: { code: string } }).error.code).toBe("conflict");
  });
});
