import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, inject, it } from "vitest";
import worker from "../../worker/index";
import { settings } from "../../worker/shared/config";
import { client, ok } from "../helpers/client";
import { createRun, finished } from "../helpers/runs";
import { callsFor, scriptModel } from "../helpers/stub-client";

const stub = inject("stubUrl");

describe("costs that are honest about what they don't know", () => {
  it("counts models without a price instead of adding a false $0, everywhere a total is shown", async () => {
    await scriptModel(stub, "gpt-4o", [{ tokensIn: 1000, tokensOut: 500 }]);
    await scriptModel(stub, "local-llama", [{ tokensIn: 1000, tokensOut: 500 }]);
    await scriptModel(stub, "local-qwen", [{ tokensIn: 1000, tokensOut: 500 }]);
    const id = await createRun({
      question: "Name a colour.",
      models: [
        { id: "openai:gpt-4o" },
        { id: "openai-compatible:local-llama" },
        { id: "openai-compatible:local-qwen" },
      ],
      settings: { autoEvaluate: false },
    });
    const run = await finished(id);
    const cost = Object.fromEntries(run.answers.map((a) => [a.modelId, a.costUsd]));
    // gpt-4o at $2.50 / $10 per million; local-qwen priced free by QUORUM_PRICES; local-llama has no price
    expect(cost["openai:gpt-4o"]).toBeCloseTo((1000 * 2.5 + 500 * 10) / 1e6, 12);
    expect(cost["openai-compatible:local-qwen"]).toBe(0);
    expect(cost["openai-compatible:local-llama"]).toBeNull();
    expect(run.totals.costUsd).toBeCloseTo(0.0075, 12);
    expect(run.totals.unknownCostModels).toBe(1);

    const md = await (await client.runs[":id"].export.$get({ param: { id }, query: { format: "md" } })).text();
    expect(md).toContain("estimated cost ≥ $0.0075 (cost unknown for 1 model)");
    const history = await ok(client.runs.$get({ query: {} }));
    const item = history.items.find((i) => i.id === id)!;
    expect(item.costUsd).toBeCloseTo(0.0075, 12);
    expect(item.unknownCostModels).toBe(1);
  });

  it("says the cost is unknown, never $0, when no model has a price", async () => {
    const id = await createRun({
      question: "Hi",
      models: [{ id: "openai-compatible:local-llama" }],
      settings: { autoEvaluate: false },
    });
    const run = await finished(id);
    expect(run.totals).toMatchObject({ costUsd: null, unknownCostModels: 1 });
    const md = await (await client.runs[":id"].export.$get({ param: { id }, query: { format: "md" } })).text();
    expect(md).toContain("estimated cost unknown for 1 model");
    expect(md).not.toContain("$0.0000");
  });

  it("reads QUORUM_PRICES entries, and the model list shows them", async () => {
    expect([...settings({ QUORUM_PRICES: "openai-compatible:qwen2.5:7b=0:0, openai:gpt-x=1.5:6," }).prices]).toEqual([
      ["openai-compatible:qwen2.5:7b", { priceIn: 0, priceOut: 0 }],
      ["openai:gpt-x", { priceIn: 1.5, priceOut: 6 }],
    ]);
    const { providers } = await ok(client.models.$get());
    const compat = providers.find((p) => p.id === "openai-compatible")!;
    expect(compat.models.find((m) => m.id === "openai-compatible:local-qwen")!.priceIn).toBe(0);
    expect(compat.models.find((m) => m.id === "openai-compatible:local-llama")!.priceIn).toBeNull();
  });
});

describe("the spend cap per run", () => {
  it("refuses, before any provider call, a run whose most it could cost passes QUORUM_MAX_RUN_USD, showing the estimate", async () => {
    const post = async (body: unknown) => {
      const ctx = createExecutionContext();
      const res = await worker.fetch(
        new Request("http://127.0.0.1/api/runs", {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify(body),
        }),
        { ...env, QUORUM_MAX_RUN_USD: "0.05" },
        ctx,
      );
      await waitOnExecutionContext(ctx);
      return res;
    };
    // gpt-5 at $1.25 / $10 per million, two models answering 4,096 tokens each and reviewing: well over $0.05
    const over = await post({
      question: "Write an essay.",
      models: [{ id: "openai:gpt-5" }, { id: "anthropic:claude-sonnet-4-5" }],
    });
    expect(over.status).toBe(400);
    const body = (await over.json()) as {
      error: { code: string; message: string; details: { estimateUsd: number; capUsd: number } };
    };
    expect(body.error.code).toBe("over_budget");
    expect(body.error.message).toMatch(/could cost up to \$0\.\d{4}, more than QUORUM_MAX_RUN_USD \(\$0\.05\)/);
    expect(body.error.details.estimateUsd).toBeGreaterThan(0.05);
    expect(await callsFor(stub, "gpt-5")).toHaveLength(0);
    // the same models with a small output allowance fit under the cap, and demo models cost nothing
    expect(
      (
        await post({
          question: "Hi",
          models: [{ id: "openai:gpt-5", params: { maxTokens: 100 } }],
          settings: { autoEvaluate: false },
        })
      ).status,
    ).toBe(201);
    expect((await post({ question: "Hi", models: [{ id: "demo:concise" }, { id: "demo:skeptic" }] })).status).toBe(201);
  });
});
