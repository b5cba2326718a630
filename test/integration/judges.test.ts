import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, inject, it } from "vitest";
import type { ComparisonRecord } from "../../worker/db/records";
import type { ComparisonRoom } from "../../worker/rooms/comparison-room";
import {
  castVote,
  createComparison,
  getComparison,
  leaderboard,
  openComparisonSocket,
  readyComparison,
  settled,
} from "../helpers/arena";
import { client, ok } from "../helpers/client";
import { api, createRun, finished } from "../helpers/runs";
import { callsFor, type RecordedCall, releaseHold, scriptModel, waitForHeld } from "../helpers/stub-client";

const stub = inject("stubUrl");

const verdict = (winner: "A" | "B" | "tie", reasons = "Because.") => ({
  review: { winner, scores: { A: winner === "A" ? 8 : 5, B: winner === "B" ? 8 : 5 }, reasons },
});

async function sidesOf(id: string) {
  return (await env.DB.prepare("SELECT model1_id AS left, model2_id AS right FROM comparisons WHERE id = ?")
    .bind(id)
    .first<{ left: string; right: string }>())!;
}

const promptOf = (call: RecordedCall) => JSON.stringify(call.body);

describe("judge panels on a comparison", () => {
  it("asks each judge twice with the sides swapped, counts a flip as a tie, and asks, shows and writes verdicts only after the vote", async () => {
    await scriptModel(stub, "jc-alpha", [{ text: "Alpha says: recursion needs a base case." }]);
    await scriptModel(stub, "jc-beta", [{ text: "Beta says: a function calling itself." }]);
    await scriptModel(stub, "judge-steady", [
      verdict("A", "The first is sharper."),
      verdict("B", "The second is sharper."),
    ]);
    await scriptModel(stub, "judge-first", [verdict("A"), verdict("A")]);
    const detail = await readyComparison(["openai:jc-alpha", "google:jc-beta"]);
    const id = detail.comparison.id;
    const sides = await sidesOf(id);
    const leftText = sides.left === "openai:jc-alpha" ? "Alpha says" : "Beta says";
    const rightText = leftText === "Alpha says" ? "Beta says" : "Alpha says";

    const socket = await openComparisonSocket(id);
    await socket.waitFor("snapshot");
    const res = await client.comparisons[":id"].judge.$post({
      param: { id },
      json: { judges: ["openai:judge-steady", "anthropic:judge-first", "openai:jc-alpha"] },
    });
    expect(res.status).toBe(202);
    expect(await res.json()).toEqual({ accepted: true });

    // Before the vote: every judge waits (one of them is a side, which nothing may tell), nothing shows, nothing is written.
    const waiting = await runInDurableObject(
      env.COMPARISON_ROOM.get(env.COMPARISON_ROOM.idFromName(id)),
      (instance: ComparisonRoom) =>
        (instance as unknown as { record: ComparisonRecord }).record.judges.map((j) => [j.judgeModelId, j.status]),
    );
    expect(waiting.sort()).toEqual([
      ["anthropic:judge-first", "pending"],
      ["openai:jc-alpha", "pending"],
      ["openai:judge-steady", "pending"],
    ]);
    expect(await callsFor(stub, "judge-steady")).toHaveLength(0);
    const hidden = await getComparison(id);
    expect([hidden.judges, hidden.panel]).toEqual([null, null]);
    expect(socket.events.some((e) => e.type === "judge.completed")).toBe(false);
    const early = await env.DB.prepare("SELECT count(*) AS n FROM battles WHERE comparison_id = ? AND source = 'judge'")
      .bind(id)
      .first<{ n: number }>();
    expect(early!.n).toBe(0);

    await castVote(id, "left");
    await socket.waitFor("judge.completed", (e) => e.judge.judgeModelId === "anthropic:judge-first");
    await socket.waitFor("judge.completed", (e) => e.judge.judgeModelId === "openai:judge-steady");
    const self = await socket.waitFor("judge.completed", (e) => e.judge.judgeModelId === "openai:jc-alpha");
    expect(self.judge).toMatchObject({ status: "failed", verdict: null });
    socket.close();

    // Each judge saw the left side as A first, then as B; no model name reached it.
    const [first, second] = await callsFor(stub, "judge-steady");
    expect(promptOf(first).indexOf(leftText)).toBeLessThan(promptOf(first).indexOf(rightText));
    expect(promptOf(second).indexOf(rightText)).toBeLessThan(promptOf(second).indexOf(leftText));
    for (const call of [first, second]) expect(promptOf(call)).not.toMatch(/jc-alpha|jc-beta|openai|google/i);
    expect(await callsFor(stub, "judge-first")).toHaveLength(2);
    expect(await callsFor(stub, "jc-alpha")).toHaveLength(1);
    const shown = await getComparison(id);
    const byJudge = Object.fromEntries(shown.judges!.map((j) => [j.judgeModelId, j]));
    expect(byJudge["openai:judge-steady"]).toMatchObject({ status: "done", verdict: "left", flipped: false });
    expect(byJudge["openai:judge-steady"].orders.map((o) => o?.reasons)).toEqual([
      "The first is sharper.",
      "The second is sharper.",
    ]);
    expect(byJudge["anthropic:judge-first"]).toMatchObject({ status: "done", verdict: "tie", flipped: true });
    expect(byJudge["openai:jc-alpha"]).toMatchObject({
      status: "failed",
      error: expect.stringMatching(/one of the two sides/),
    });
    expect(shown.panel).toBe("tie"); // one left, one tie: no majority
    // History counts the two verdicts given (the side that was asked to judge itself gave none)
    const listed = await ok(client.comparisons.$get({ query: {} }));
    expect(listed.items.find((i) => i.id === id)).toMatchObject({ vote: { choice: "left" }, judges: 2 });

    const battles = await env.DB.prepare(
      "SELECT judge, model_a AS a, model_b AS b, winner FROM battles WHERE comparison_id = ? AND source = 'judge' ORDER BY judge",
    )
      .bind(id)
      .all();
    expect(battles.results).toEqual([
      { judge: "anthropic:judge-first", a: sides.left, b: sides.right, winner: "tie" },
      { judge: "openai:judge-steady", a: sides.left, b: sides.right, winner: "model_a" },
    ]);
    const judged = (await leaderboard({ source: "judge" })).rows.find((r) => r.modelId === sides.left)!;
    expect(judged.battles).toBeGreaterThanOrEqual(2);
  });

  it("asks the comparison's own judges once the first vote is in", async () => {
    await scriptModel(stub, "auto-judge", [verdict("B"), verdict("A")]);
    const { id } = await createComparison({
      prompt: "Hi",
      models: ["openai:auto-l", "google:auto-r"],
      judges: ["anthropic:auto-judge"],
    });
    await settled(id);
    expect(await callsFor(stub, "auto-judge")).toHaveLength(0);
    const socket = await openComparisonSocket(id);
    await socket.waitFor("snapshot");
    await castVote(id, "right");
    const done = await socket.waitFor("judge.completed");
    socket.close();
    expect(done.judge).toMatchObject({ judgeModelId: "anthropic:auto-judge", verdict: "right", flipped: false });
    expect(done.panel).toBe("right");
  });

  it("refuses judging before both sides answered, and unknown judges", async () => {
    await scriptModel(stub, "judge-slow-side", [{ holdKey: "judge-slow-side" }]);
    const { id } = await createComparison({
      prompt: "Hi",
      models: ["openai:judge-slow-side", "google:judge-quick-side"],
    });
    await waitForHeld(stub, "judge-slow-side");
    const early = await client.comparisons[":id"].judge.$post({
      param: { id },
      json: { judges: ["openai:any-judge"] },
    });
    expect(early.status).toBe(409);
    const bad = await api(`/comparisons/${id}/judge`, { method: "POST", json: { judges: ["nobody:judge"] } });
    expect(bad.status).toBe(400);
    await releaseHold(stub, "judge-slow-side");
    expect((await settled(id)).comparison.status).toBe("ready");
  });
});

describe("judge calibration", () => {
  it("reports agreement with human votes and flip rates that match a hand count", async () => {
    // calib-fair agrees with the person twice; calib-lazy always says A, so it flips every time.
    await scriptModel(stub, "calib-fair", [verdict("A"), verdict("B"), verdict("B"), verdict("A")]);
    await scriptModel(stub, "calib-lazy", [verdict("A"), verdict("A"), verdict("A"), verdict("A")]);
    for (const choice of ["left", "right"] as const) {
      const id = (
        await readyComparison(["openai:calib-l", "google:calib-r"], {
          judges: ["anthropic:calib-fair", "openai:calib-lazy"],
        })
      ).comparison.id;
      const socket = await openComparisonSocket(id);
      await socket.waitFor("snapshot");
      await castVote(id, choice);
      await socket.waitFor("judge.completed", (e) => e.judge.judgeModelId === "anthropic:calib-fair");
      await socket.waitFor("judge.completed", (e) => e.judge.judgeModelId === "openai:calib-lazy");
      socket.close();
    }
    const { judges } = await ok(client.judges.$get());
    const fair = judges.find((j) => j.judgeModelId === "anthropic:calib-fair")!;
    const lazy = judges.find((j) => j.judgeModelId === "openai:calib-lazy")!;
    expect(fair).toMatchObject({ judged: 2, withHumans: 2, agreement: 100, flipRate: 0, kappa: 1 });
    expect(lazy).toMatchObject({ judged: 2, withHumans: 2, agreement: 0, flipRate: 100 });
  });
});

describe("calibrated reviewer weights in council runs", () => {
  it("weigh each reviewer by its agreement with human votes as a judge, and the unknown at the average", async () => {
    // cal-rev always says left wins; cal-two agrees with every vote. People vote left four times, then right.
    await scriptModel(stub, "cal-rev", Array.from({ length: 5 }, () => [verdict("A"), verdict("B")]).flat());
    await scriptModel(stub, "cal-two", [
      ...Array.from({ length: 4 }, () => [verdict("A"), verdict("B")]).flat(),
      verdict("B"),
      verdict("A"),
    ]);
    for (const choice of ["left", "left", "left", "left", "right"] as const) {
      const id = (
        await readyComparison(["openai:cal-side-l", "google:cal-side-r"], {
          judges: ["openai:cal-rev", "anthropic:cal-two"],
        })
      ).comparison.id;
      const socket = await openComparisonSocket(id);
      await socket.waitFor("snapshot");
      await castVote(id, choice);
      await socket.waitFor("judge.completed", (e) => e.judge.judgeModelId === "openai:cal-rev");
      await socket.waitFor("judge.completed", (e) => e.judge.judgeModelId === "anthropic:cal-two");
      socket.close();
    }
    const models = ["openai:cal-rev", "anthropic:cal-two", "google:cal-new"];
    const id = await createRun({
      question: "Pick a prime.",
      models: models.map((id) => ({ id })),
      settings: { reviewerWeights: "calibrated" },
    });
    const run = await finished(id);
    expect(run.run.status).toBe("done");
    const weightOf = Object.fromEntries(run.reviewers.map((r) => [r.reviewerModelId, r.weight]));
    expect(weightOf["openai:cal-rev"]).toBeCloseTo(0.8, 12);
    expect(weightOf["anthropic:cal-two"]).toBeCloseTo(1, 12);
    expect(weightOf["google:cal-new"]).toBeCloseTo(0.9, 12);
    const basis = run.aggregation!.voteBreakdown.calibration!;
    const setOf = Object.fromEntries(run.reviewers.map((r) => [r.reviewerModelId, r.id]));
    expect(basis[setOf["openai:cal-rev"]]).toEqual({ agreement: 80, comparisons: 5 });
    expect(basis[setOf["google:cal-new"]]).toBeNull();
    // the Borda points each reviewer gave are scaled by its weight
    for (const r of run.aggregation!.voteBreakdown.reviewers) {
      const top = r.ranking[0];
      expect(r.points[top]).toBeCloseTo(
        (r.ranking.length - 1) * weightOf[run.reviewers.find((x) => x.id === r.reviewSetId)!.reviewerModelId!],
        9,
      );
    }
  });
});
