import { describe, expect, inject, it } from "vitest";
import { callsFor, scriptModel } from "../helpers/stub-client";
import { api, createRun, finished, openSocket } from "../helpers/runs";

const stub = inject("stubUrl");

describe("a chairman's synthesis", () => {
  it("streams one final answer after the ranking, from the ranked answers and their critiques, without names", async () => {
    await scriptModel(stub, "chair", [
      { text: "Paris is the capital of France, on the Seine.", tokensIn: 300, tokensOut: 12 },
    ]);
    const id = await createRun({
      question: "What is the capital of France?",
      models: [{ id: "openai:syn-a" }, { id: "anthropic:syn-b" }, { id: "google:syn-c" }],
      settings: { synthesis: { modelId: "anthropic:chair" } },
    });
    const socket = await openSocket(id, 0);
    await socket.waitFor("run.completed");
    socket.close();
    const types = socket.events.map((e) => e.type);
    expect(types.indexOf("aggregation.completed")).toBeLessThan(types.indexOf("synthesis.started"));
    expect(types.indexOf("synthesis.completed")).toBeLessThan(types.indexOf("run.completed"));
    expect(socket.events.some((e) => e.type === "run.status" && e.status === "synthesizing")).toBe(true);
    const deltas = socket.events.flatMap((e) => (e.type === "synthesis.delta" ? [e.text] : []));
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.join("")).toBe("Paris is the capital of France, on the Seine.");

    const run = await finished(id);
    expect(run.run.status).toBe("done");
    expect(run.synthesis).toMatchObject({
      modelId: "anthropic:chair",
      status: "done",
      text: "Paris is the capital of France, on the Seine.",
      tokensIn: 300,
      tokensOut: 12,
    });
    // it is not ranked and adds no battles
    expect(run.aggregation!.finalRanking.map((e) => e.label).sort()).toEqual(["A", "B", "C"]);

    const [call] = await callsFor(stub, "chair");
    const prompt = JSON.stringify(call.body);
    for (const label of ["A", "B", "C"]) expect(prompt).toContain(`### Answer ${label} (ranked`);
    expect(prompt).toMatch(/What the reviewers said of Answer/);
    expect(prompt).not.toMatch(/syn-a|syn-b|syn-c|openai|google/i);
    const winner = run.aggregation!.finalRanking[0].label;
    expect(prompt.indexOf(`### Answer ${winner} (ranked 1 of 3)`)).toBeGreaterThan(0);

    const md = await (await api(`/runs/${id}/export?format=md`)).text();
    expect(md.indexOf("## Synthesis by chair (anthropic:chair)")).toBeLessThan(md.indexOf("## Ranking"));
    expect(md).toContain("Paris is the capital of France, on the Seine.");
    expect(run.totals.tokensIn).toBeGreaterThanOrEqual(300);
  });

  it("works over the demo models, and a failed synthesis leaves the ranking standing", async () => {
    const demo = await finished(
      await createRun({
        question: "Why is the sky blue?",
        models: [{ id: "demo:concise" }, { id: "demo:skeptic" }],
        settings: { synthesis: { modelId: "demo:thorough" } },
      }),
    );
    expect(demo.synthesis!.status).toBe("done");
    expect(demo.synthesis!.text.length).toBeGreaterThan(50);

    await scriptModel(stub, "chair-down", [{ status: 400, errorMessage: "context too long" }]);
    const failed = await finished(
      await createRun({
        question: "Q",
        models: [{ id: "demo:concise" }, { id: "demo:skeptic" }],
        settings: { synthesis: { modelId: "openai:chair-down" } },
      }),
    );
    expect(failed.run.status).toBe("done");
    expect(failed.aggregation).not.toBeNull();
    expect(failed.synthesis).toMatchObject({ status: "failed", error: expect.stringMatching(/context too long/) });
  });

  it("refuses a synthesis model of an unconfigured or unknown provider", async () => {
    const res = await api("/runs", {
      method: "POST",
      json: { question: "Q", models: [{ id: "demo:concise" }], settings: { synthesis: { modelId: "nobody:chair" } } },
    });
    expect(res.status).toBe(400);
  });
});
