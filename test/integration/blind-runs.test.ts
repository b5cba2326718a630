/** Until a blind council run ends, a label shows nothing that tells its model apart (issue 25, item 5). */
import { env } from "cloudflare:test";
import { describe, expect, inject, it } from "vitest";
import type { RunEvent } from "../../worker/shared/events";
import type { RunDetail } from "../../worker/shared/run";
import { client, ok } from "../helpers/client";
import { createRun, finished, getRun, openSocket } from "../helpers/runs";
import { poll, releaseHold, scriptModel, waitForHeld } from "../helpers/stub-client";

const stub = inject("stubUrl");

/** What a label may show while blind: status, text, latency, token counts, truncation, a generic error. */
function expectNothingTelling(d: RunDetail) {
  for (const a of d.answers)
    expect([a.modelId, a.displayName, a.costUsd, a.finishReason, a.droppedParams]).toEqual([
      null,
      null,
      null,
      null,
      [],
    ]);
  for (const r of d.reviewers) expect([r.reviewerModelId, r.costUsd]).toEqual([null, null]);
  expect(d.totals).toMatchObject({ costUsd: null, unknownCostModels: 0 });
}

describe("a blind council run while it reviews", () => {
  it("shows no cost, dropped parameter, finish reason or attempt count per label in its view, export, list or events, and all of it once it ends", async () => {
    await scriptModel(stub, "priced-custom", [
      { text: "Answer from a priced model.", tokensIn: 100, tokensOut: 50 },
      { holdKey: "blind-review" },
    ]);
    const id = await createRun({
      question: "Which is best?",
      models: [{ id: "openai:priced-custom" }, { id: "anthropic:blind-claude" }, { id: "google:blind-gemini" }],
      settings: { temperature: 0.5 },
    });
    await waitForHeld(stub, "blind-review");

    const live = await getRun(id);
    expect(live.run.status).toBe("reviewing");
    expect(live.answers.map((a) => a.status)).toEqual(["done", "done", "done"]);
    expectNothingTelling(live);
    const exported = (await (
      await client.runs[":id"].export.$get({ param: { id }, query: { format: "json" } })
    ).json()) as RunDetail;
    expectNothingTelling(exported);
    const md = await (await client.runs[":id"].export.$get({ param: { id }, query: { format: "md" } })).text();
    expect(md).not.toMatch(/\$\d/);
    for (const label of ["A", "B", "C"]) expect(md).toContain(`| ${label} | hidden until the run ends | — |`);
    const list = await ok(client.runs.$get({ query: { limit: "100" } }));
    expect(list.items.find((r) => r.id === id)).toMatchObject({ costUsd: null, costHidden: true });

    const socket = await openSocket(id, 0);
    await socket.waitFor("run.status", (e) => e.status === "reviewing");
    socket.close();
    const events: RunEvent[] = socket.events;
    const starts = events.filter((e) => e.type === "answer.started");
    expect(starts.map((e) => [e.label, e.attempt]).sort()).toEqual([
      ["A", 1],
      ["B", 1],
      ["C", 1],
    ]);
    for (const e of events)
      if (e.type === "answer.completed") expect([e.modelId, e.costUsd, e.finishReason]).toEqual([null, null, null]);
    const snapshot = events.find((e) => e.type === "snapshot");
    if (snapshot?.type === "snapshot")
      for (const a of snapshot.state.answers) expect([a.costUsd, a.droppedParams]).toEqual([null, []]);
    expect(JSON.stringify(events)).not.toMatch(/temperature"\]|droppedParams":\["/);

    await releaseHold(stub, "blind-review");
    const ended = await finished(id);
    const byModel = Object.fromEntries(ended.answers.map((a) => [a.modelId, a]));
    expect(byModel["anthropic:blind-claude"].droppedParams).toEqual(["temperature"]);
    expect(byModel["openai:priced-custom"].costUsd).toBeCloseTo((100 * 1 + 50 * 2) / 1_000_000, 12);
    expect(ended.totals.costUsd).not.toBeNull();
  });

  it("words a label's failure by kind while blind, and shows the provider's own message once the run ends", async () => {
    const vendor = "Model blind-err-gpt by OpenAI cannot serve this request.";
    await scriptModel(stub, "blind-err-gpt", [{ status: 400, errorMessage: vendor }]);
    await scriptModel(stub, "blind-err-b", [{ text: "One answer." }, { holdKey: "blind-err-review" }]);
    const id = await createRun({
      question: "Fail?",
      models: [{ id: "openai:blind-err-gpt" }, { id: "google:blind-err-b" }, { id: "anthropic:blind-err-c" }],
    });
    await waitForHeld(stub, "blind-err-review");

    const socket = await openSocket(id, 0);
    const failed = await socket.waitFor("answer.failed");
    socket.close();
    const live = (await getRun(id)).answers.find((a) => a.status === "failed")!;
    for (const error of [failed.error, live.error]) {
      expect(error).toMatch(/^This answer's provider refused the request\./);
      expect(error).not.toMatch(/openai|blind-err-gpt/i);
    }

    await releaseHold(stub, "blind-err-review");
    const ended = await finished(id);
    expect(ended.answers.find((a) => a.modelId === "openai:blind-err-gpt")!.error).toContain(vendor);
  });

  it("keeps calibrated ballot weights, and the vote math they could be solved from, until the run ends", async () => {
    await scriptModel(stub, "blind-cal-a", [{ text: "One." }, {}]);
    await scriptModel(stub, "blind-cal-b", [{ text: "Two." }, { holdKey: "blind-cal-review" }]);
    const id = await createRun({
      question: "Weigh?",
      models: [{ id: "openai:blind-cal-a" }, { id: "google:blind-cal-b" }, { id: "anthropic:blind-cal-c" }],
      settings: { reviewerWeights: "calibrated" },
    });
    await waitForHeld(stub, "blind-cal-review");
    const socket = await openSocket(id, 0);
    await socket.waitFor("review.completed");
    socket.close();
    for (const e of socket.events) if (e.type === "review.completed") expect(e.weight).toBeNull();
    const live = await getRun(id);
    expect(live.reviewers.map((r) => r.weight)).toEqual([null, null, null]);
    expect(live.aggregation).toBeNull();

    await releaseHold(stub, "blind-cal-review");
    const ended = await finished(id);
    for (const r of ended.reviewers) expect(typeof r.weight).toBe("number");
    expect(ended.aggregation?.voteBreakdown.calibration).toBeTruthy();
  });

  it("writes no judge battle of a blind run while its synthesis is still being written, and all of them at its end", async () => {
    await scriptModel(stub, "blind-chair", [{ holdKey: "blind-chair", text: "The synthesis." }]);
    const id = await createRun({
      question: "Synthesize?",
      models: [{ id: "openai:blind-syn-a" }, { id: "google:blind-syn-b" }, { id: "demo:concise" }],
      settings: { synthesis: { modelId: "anthropic:blind-chair" } },
    });
    await waitForHeld(stub, "blind-chair");
    expect((await getRun(id)).run.status).toBe("synthesizing");
    const count = async (table: string) =>
      (await env.DB.prepare(`SELECT count(*) AS n FROM ${table} WHERE run_id = ?`).bind(id).first<{ n: number }>())!.n;
    const battles = () => count("battles");
    // The ranking is in D1 (the batch that would have carried the battles), and no battle with it.
    await poll(
      () => count("aggregations"),
      (n) => n === 1,
      5_000,
      "the aggregation in D1",
    );
    expect(await battles()).toBe(0);

    await releaseHold(stub, "blind-chair");
    expect((await finished(id)).run.status).toBe("done");
    // Three reviewers, each ranking the two answers other than its own: one battle each.
    expect(await battles()).toBe(3);
  });
});
