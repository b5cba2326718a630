import { abortAllDurableObjects, env } from "cloudflare:test";
import { describe, expect, inject, it } from "vitest";
import { client, ok } from "../helpers/client";
import { ended, evalBattles, evaluationUntil, getEvaluation, startEvaluation } from "../helpers/evaluations";
import { api } from "../helpers/runs";
import { callsFor, poll, releaseHold, ruleFor, scriptModel, waitForCalls, waitForHeld } from "../helpers/stub-client";

const stub = inject("stubUrl");

type Item = { id: string; prompt: string; goal?: string; persona?: string; marker?: string };

const goalSet = async (name: string, items: Item[]) =>
  (await ok(client["prompt-sets"].$post({ json: { name, items } }))).id;

/** Three goals: the first two a contestant can reach, the third nobody does. */
const THREE_GOALS: Item[] = [
  { id: "train", prompt: "I need a train ticket.", goal: "Book a train ticket" },
  { id: "hotel", prompt: "I need a hotel.", goal: "Find a hotel room" },
  { id: "moon", prompt: "I need a rocket.", goal: "Reach the moon" },
];

/** The D1 rows of an evaluation's goal battles, as the goal battle rooms wrote them. */
async function battleRows(evaluationId: string) {
  const { results } = await env.DB.prepare(
    "SELECT id, goal, contestant_a AS a, contestant_b AS b, state, winner, ended_reason AS endedReason FROM goal_battles WHERE substr(id, 1, length(?1)) = ?1 ORDER BY goal",
  )
    .bind(`${evaluationId}-goal-`)
    .all<{ id: string; goal: string; a: string; b: string; state: string; winner: string; endedReason: string }>();
  return results;
}

describe("a goal evaluation", () => {
  it("3 items × 2 contestants with a scripted user: the one that writes the marker early wins, counted by hand", async () => {
    const good = "openai:eg1-good";
    const plain = "anthropic:eg1-plain";
    // On the train and hotel items the good contestant is done on turn 2; nobody reaches the moon.
    await ruleFor(stub, "eg1-good", "(train|hotel)[^]*Next step", { text: "All booked. GOAL_REACHED" });
    await ruleFor(stub, "eg1-good", "", { text: "Working on it (good)." });
    await ruleFor(stub, "eg1-plain", "", { text: "Working on it (plain)." });
    const setId = await goalSet("eg1 goals", THREE_GOALS);
    const started = await startEvaluation({
      promptSetId: setId,
      contestants: [good, plain],
      baseline: plain,
      method: "goal",
      settings: { goal: { user: { mode: "script", script: ["Next step?", "Anything else?"] } } },
    });
    expect(started.estimate).toMatchObject({ answerCalls: 0, judgeCalls: 0, goalBattles: 3 });
    const done = await ended(started.id);
    expect(done).toMatchObject({ status: "completed", error: null, method: "goal" });
    expect(done.progress.judgments).toMatchObject({ done: 3, failed: 0, total: 3 });
    expect(done.progress.contestants.find((c) => c.contestant === good)).toMatchObject({ judged: 3, judgedTotal: 3 });

    // Sides alternate item by item: the pair is (baseline, other), so plain is side A on the first and third items.
    const rows = await battleRows(started.id);
    expect(rows.map((r) => [r.goal, r.a, r.b, r.winner, r.endedReason])).toEqual([
      ["Book a train ticket", plain, good, "B", "goal"],
      ["Find a hotel room", good, plain, "A", "goal"],
      ["Reach the moon", plain, good, "tie", "limit"],
    ]);
    // The battles' turns: 2, 2 and the whole script (the item's prompt, then its two lines).
    expect(await callsFor(stub, "eg1-good")).toHaveLength(7);
    expect(await callsFor(stub, "eg1-plain")).toHaveLength(7);

    // By hand: good won two battles and tied one; each battle is one `eval` battle, none of source `goal`.
    const battles = await evalBattles(started.id);
    expect(battles).toHaveLength(3);
    const won = battles.filter(
      (b) => (b.a === good && b.winner === "model_a") || (b.b === good && b.winner === "model_b"),
    );
    expect(won.map((b) => b.item).sort()).toEqual(["hotel", "train"]);
    expect(battles.filter((b) => b.winner === "tie").map((b) => b.item)).toEqual(["moon"]);
    const { results: goalSource } = await env.DB.prepare(
      "SELECT count(*) AS n FROM battles WHERE source = 'goal' AND substr(question_id, 1, length(?1)) = ?1",
    )
      .bind(`${started.id}-goal-`)
      .all<{ n: number }>();
    expect(goalSource[0].n).toBe(0);

    const report = await ok(client.evaluations[":id"].report.$get({ param: { id: started.id } }));
    const row = report.rows.find((r) => r.contestant === good)!;
    expect(row.games).toBe(3);
    expect(row.observedWinRate).toBeCloseTo(2.5 / 3, 10);
    // Two contestants: the rating's predicted win rate is the observed share.
    expect(row.winRate).toBeCloseTo(2.5 / 3, 4);
    expect(row.answers).toBe(3);
    expect(report.totals).toMatchObject({ items: 3, judgments: 3 });
    expect(report.methods.counting).toMatch(/^each goal battle is one game/);
    expect(report.judgeSummaries).toEqual([
      { judge: "goal rule", judgments: 3, failures: 0, pairs: 0, flips: 0, flipRate: null, costUsd: 0 },
    ]);

    // The matrix: each cell the battle's outcome and reason, with the battle to open.
    const matrix = await ok(
      client.evaluations[":id"].matrix.$get({ param: { id: started.id }, query: { filter: "all" } }),
    );
    const hotel = matrix.rows.find((r) => r.itemId === "hotel")!;
    const goodCell = hotel.cells.find((c) => c.contestant === good)!;
    expect(goodCell).toMatchObject({ outcome: "win", score: 1, games: 1 });
    expect(goodCell.battles).toEqual([
      {
        battleId: rows[1].id,
        sample: 0,
        opponent: plain,
        side: "A",
        result: "win",
        endedReason: "goal",
        reason: "Side A reached the goal first, on turn 2.",
      },
    ]);
    const moon = matrix.rows.find((r) => r.itemId === "moon")!;
    expect(moon.cells.find((c) => c.contestant === good)).toMatchObject({ outcome: "tie", score: 0.5 });
    // …whose transcript is a goal battle's, named once over.
    const battle = await ok(client["goal-battles"][":jobId"].$get({ param: { jobId: rows[1].id } }));
    expect(battle).toMatchObject({ state: "done", winner: "A", currentTurn: 2, goal: "Find a hotel room" });
    expect(battle.sides.A.contestant).toBe(good);
    // The Battles list keeps to battles launched on their own; the evaluation's are listed under its id.
    const own = await ok(client["goal-battles"].$get({ query: {} }));
    expect(own.battles.map((b) => b.jobId)).toEqual([]);
    const played = await ok(client["goal-battles"].$get({ query: { evaluation: started.id } }));
    expect(played.battles.map((b) => b.jobId).sort()).toEqual(rows.map((r) => r.id).sort());
    const item = await ok(
      client.evaluations[":id"].items[":itemId"].$get({ param: { id: started.id, itemId: "moon" } }),
    );
    expect(item.battles).toEqual([
      expect.objectContaining({ battleId: rows[2].id, first: plain, second: good, winner: "tie", turns: 3 }),
    ]);

    // The exports and before/after read it as they read the other methods.
    const csv = await (await api(`/evaluations/${started.id}/export?format=csv`)).text();
    expect(csv.split("\n")[1]).toBe("train,,win,1,baseline,,0");
    const markdown = await (await api(`/evaluations/${started.id}/export?format=md`)).text();
    expect(markdown).toContain(": 3 items, judged by goal rule.");
    const lines = (await (await api(`/evaluations/${started.id}/export?format=battles`)).text()).trim().split("\n");
    expect(lines).toHaveLength(3);
    const again = await startEvaluation({
      promptSetId: setId,
      contestants: [good, plain],
      baseline: plain,
      method: "goal",
      settings: { goal: { user: { mode: "script", script: ["Next step?", "Anything else?"] } } },
    });
    await ended(again.id);
    const compared = await ok(client.evaluations.compare.$get({ query: { a: started.id, b: again.id } }));
    expect(compared.contestants.find((c) => c.after === good)).toMatchObject({
      winRateBefore: row.winRate,
      winRateAfter: row.winRate,
      winRateChange: 0,
    });
    // A revision reads answers and judges' reasons, which battles don't have.
    const revision = await api(`/evaluations/${started.id}/revisions`, {
      method: "POST",
      json: { contestant: good, model: "demo:concise" },
    });
    expect(revision.status).toBe(409);
    expect(((await revision.json()) as { error: { code: string } }).error.code).toBe("not_for_goal");
  });

  it("refuses a set with an item without a goal, naming the first such item", async () => {
    const setId = await goalSet("eg2 goals", [
      { id: "a", prompt: "Hi.", goal: "Say hello" },
      { id: "b", prompt: "Plain question?" },
      { id: "c", prompt: "Another?" },
    ]);
    const body = {
      promptSetId: setId,
      contestants: ["openai:eg2-x", "anthropic:eg2-y"],
      method: "goal" as const,
    };
    for (const res of [
      await api("/evaluations", { method: "POST", json: body }),
      await api("/evaluations/estimate", { method: "POST", json: body }),
    ]) {
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({
        error: {
          code: "item_without_goal",
          message:
            'Item "b" (number 2 of the set) has no goal: a goal evaluation needs a goal on every item (add a goal field, or pick another set).',
        },
      });
    }
    const { results } = await env.DB.prepare("SELECT count(*) AS n FROM evaluations WHERE prompt_set_id = ?")
      .bind(setId)
      .all<{ n: number }>();
    expect(results[0].n).toBe(0);
  });

  it("reads goal, persona and marker from JSON Lines and CSV uploads, checks them line by line, and exports them", async () => {
    const jsonl = [
      JSON.stringify({ id: "a", prompt: "Hi.", goal: "Book a table", persona: "A hungry diner", marker: "BOOKED" }),
      JSON.stringify({ id: "b", prompt: "Hi again.", goal: 5 }),
    ].join("\n");
    const bad = await api("/prompt-sets/upload?name=eg4", { method: "POST", body: jsonl });
    expect(bad.status).toBe(422);
    const { error } = await bad.json<{ error: { details: { errors: { line: number; message: string }[] } } }>();
    expect(error.details.errors).toEqual([{ line: 2, message: "goal must be text" }]);

    const csv =
      'prompt,id,goal,persona,marker\nHi.,a,Book a table,"A hungry diner, late",BOOKED\nHi again.,b,Find a cab,,\n';
    const res = await api("/prompt-sets/upload?name=eg4+csv", {
      method: "POST",
      body: csv,
      headers: { "content-type": "text/csv" },
    });
    expect(res.status).toBe(201);
    const { id } = await res.json<{ id: string }>();
    const detail = await ok(client["prompt-sets"][":id"].$get({ param: { id }, query: {} }));
    expect(detail.items.map((i) => [i.id, i.goal, i.persona, i.marker])).toEqual([
      ["a", "Book a table", "A hungry diner, late", "BOOKED"],
      ["b", "Find a cab", null, null],
    ]);
    const exported = await (await api(`/prompt-sets/${id}/export?format=jsonl`)).text();
    expect(exported.split("\n")[0]).toBe(
      JSON.stringify({
        id: "a",
        prompt: "Hi.",
        goal: "Book a table",
        persona: "A hungry diner, late",
        marker: "BOOKED",
      }),
    );
  });
});

describe("resuming a goal evaluation", () => {
  it("after a restart half-way, awaits the battles it started and starts none twice", async () => {
    const good = "openai:eg3-good";
    const plain = "anthropic:eg3-plain";
    // The good side's second reply on the hotel item is held while the train item's battle ends.
    await ruleFor(stub, "eg3-good", "hotel[^]*Next step", { holdKey: "eg3-held", text: "Done. GOAL_REACHED" });
    await ruleFor(stub, "eg3-good", "Next step", { text: "Done. GOAL_REACHED" });
    await ruleFor(stub, "eg3-good", "", { text: "On it (good)." });
    await ruleFor(stub, "eg3-plain", "", { text: "On it (plain)." });
    const setId = await goalSet("eg3 goals", THREE_GOALS.slice(0, 2));
    const started = await startEvaluation({
      promptSetId: setId,
      contestants: [good, plain],
      method: "goal",
      settings: { goal: { user: { mode: "script", script: ["Next step?"] } } },
    });
    await waitForHeld(stub, "eg3-held", 1, 10_000);
    await evaluationUntil(started.id, (e) => e.progress.judgments.done === 1, "the train battle's end");
    await waitForCalls(stub, "eg3-plain", 4);
    const hotelBattle = () => battleRows(started.id).then((rows) => rows.find((r) => r.goal === "Find a hotel room")!);
    // The plain side's second reply on the hotel item is stored (D1 has it only after the room does).
    const { id: hotelId } = await hotelBattle();
    await poll(
      () =>
        env.DB.prepare(
          "SELECT count(*) AS n FROM goal_battle_messages WHERE battle_id = ? AND turn = 2 AND role = 'assistant'",
        )
          .bind(hotelId)
          .first<{ n: number }>(),
      (r) => r?.n === 1,
      5_000,
      "the plain side's second hotel reply",
    );
    await abortAllDurableObjects();
    // Read again, the evaluation's room wakes and awaits its battle, whose room wakes in turn. The held reply never
    // completed: the hotel battle, resumed, asks it again (and only it).
    await getEvaluation(started.id);
    await waitForCalls(stub, "eg3-good", 5, 10_000);
    await releaseHold(stub, "eg3-held");
    const done = await ended(started.id);
    expect(done.status).toBe("completed");
    expect(done.progress.judgments).toMatchObject({ done: 2, total: 2 });
    const rows = await battleRows(started.id);
    expect(rows).toHaveLength(2);
    expect(rows.find((r) => r.id === hotelId)).toMatchObject({ a: plain, b: good, winner: "B", endedReason: "goal" });
    expect(await callsFor(stub, "eg3-good")).toHaveLength(5);
    expect(await callsFor(stub, "eg3-plain")).toHaveLength(4);
    const battles = await evalBattles(started.id);
    expect(battles.map((b) => b.item).sort()).toEqual(["hotel", "train"]);
  });
});

describe("pausing and cancelling a goal evaluation", () => {
  const oneGoal = async (tag: string) => {
    await scriptModel(stub, `${tag}-good`, [{ holdKey: `${tag}-held`, text: "On it (good)." }]);
    await ruleFor(stub, `${tag}-good`, "Next step", { text: "Done. GOAL_REACHED" });
    await ruleFor(stub, `${tag}-good`, "", { text: "On it (good)." });
    await ruleFor(stub, `${tag}-plain`, "", { text: "On it (plain)." });
    const setId = await goalSet(`${tag} goals`, THREE_GOALS.slice(0, 1));
    const started = await startEvaluation({
      promptSetId: setId,
      contestants: [`openai:${tag}-good`, `anthropic:${tag}-plain`],
      method: "goal",
      settings: { goal: { user: { mode: "script", script: ["Next step?"] } } },
    });
    await waitForHeld(stub, `${tag}-held`, 1, 10_000);
    return started.id;
  };
  const states = async (id: string) => (await battleRows(id)).map((r) => [r.state, r.endedReason, r.winner]);

  it("a pause stops the battle under way; the resumed evaluation plays it afresh", async () => {
    const id = await oneGoal("eg6");
    expect((await client.evaluations[":id"].pause.$post({ param: { id } })).status).toBe(200);
    const paused = await evaluationUntil(id, (e) => e.progress.judgments.pending === 1, "the battle given back");
    expect(paused).toMatchObject({ status: "paused", progress: { judgments: { running: 0, done: 0 } } });
    expect(await states(id)).toEqual([["stopped", "manual", "none"]]);

    expect((await client.evaluations[":id"].resume.$post({ param: { id } })).status).toBe(200);
    const done = await ended(id);
    expect(done).toMatchObject({ status: "completed", progress: { judgments: { done: 1, total: 1 } } });
    const rows = await battleRows(id);
    expect(rows.map((r) => [r.state, r.winner]).sort()).toEqual([
      ["done", "A"],
      ["stopped", "none"],
    ]);
    // The stopped battle's held reply, then the fresh battle's two.
    expect(await callsFor(stub, "eg6-good")).toHaveLength(3);
    expect(await evalBattles(id)).toEqual([expect.objectContaining({ a: "openai:eg6-good", winner: "model_a" })]);
  });

  it("a cancel stops the battle under way and counts nothing", async () => {
    const id = await oneGoal("eg7");
    expect((await client.evaluations[":id"].cancel.$post({ param: { id } })).status).toBe(200);
    await poll(
      () => states(id),
      (s) => s[0]?.[0] === "stopped",
      5_000,
      "the battle's stop",
    );
    expect(await states(id)).toEqual([["stopped", "manual", "none"]]);
    expect((await getEvaluation(id)).status).toBe("cancelled");
    expect(await evalBattles(id)).toEqual([]);
  });
});

describe("a goal evaluation on the demo models", () => {
  it("finishes with no key: the thorough demo reaches the goal first", async () => {
    const setId = await goalSet("eg5 goals", [
      { id: "hike", prompt: "Hello, I need a packing list.", goal: "Write a packing list for a weekend hike" },
    ]);
    const started = await startEvaluation({
      promptSetId: setId,
      contestants: ["demo:thorough", "demo:skeptic"],
      method: "goal",
      settings: { goal: { maxTurns: 6, user: { mode: "model", modelId: "demo:concise" } } },
    });
    const done = await ended(started.id);
    expect(done.status).toBe("completed");
    const [row] = await battleRows(started.id);
    expect(row).toMatchObject({ a: "demo:thorough", b: "demo:skeptic", winner: "A", endedReason: "goal" });
    const battles = await evalBattles(started.id);
    expect(battles).toEqual([expect.objectContaining({ a: "demo:thorough", winner: "model_a", item: "hike" })]);
  });
});
