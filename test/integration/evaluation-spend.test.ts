import { env } from "cloudflare:test";
import { describe, expect, inject, it } from "vitest";
import { ended, evaluationUntil, promptSet, rowsOf, startEvaluation } from "../helpers/evaluations";
import { type Refusal, spendNow, withSettings } from "../helpers/spend";
import { poll, releaseHold, scriptModel, waitForHeld } from "../helpers/stub-client";

const stub = inject("stubUrl");
/** Every model of these tests priced, as a deployment would price them. */
const PRICES = "openai:sp-a=1:2,anthropic:sp-b=1:2,openai:sp-j=3:6,openai:sp-held=1:2";

/**
 * The money an evaluation has set aside: its hold, or, spread over shard rooms, the parts each shard holds (the
 * whole hold settled at zero when it was split); settled once every part is.
 */
const holdOf = async (id: string) =>
  env.DB.prepare(
    "SELECT sum(usd) AS usd, CASE WHEN count(*) = count(settled_at) THEN max(settled_at) END AS settledAt FROM spend_holds WHERE item_id = ?",
  )
    .bind(id)
    .first<{ usd: number; settledAt: number | null }>();

describe("an evaluation's spend", () => {
  it("sets its most aside, gives it back item by item, and settles it at the end", async () => {
    await scriptModel(stub, "sp-held", [{ holdKey: "sp-held-1" }]);
    await promptSet("set-sp1", ["Same length one?", "Same length two?"]);
    const res = await withSettings(
      "/evaluations",
      { QUORUM_PRICES: PRICES },
      {
        method: "POST",
        json: {
          promptSetId: "set-sp1",
          contestants: ["openai:sp-held", "anthropic:sp-b"],
          baseline: "anthropic:sp-b",
          judges: ["openai:sp-j"],
          settings: { maxTokens: 100 },
        },
      },
    );
    expect(res.status).toBe(201);
    const started = (await res.json()) as { id: string; estimate: { usd: number; unpriced: string[] } };
    expect(started.estimate.unpriced).toEqual([]);
    expect(started.estimate.usd).toBeGreaterThan(0);
    await waitForHeld(stub, "sp-held-1", 1, 10_000);
    // The other item's calls all finish; the money set aside is the held item's most, half of it all.
    await evaluationUntil(started.id, (e) => e.progress.judgments.done === 2, "the other item's judgments");
    const during = await pollHold(started.id, (h) => h.usd < started.estimate.usd);
    expect(during.usd).toBeCloseTo(started.estimate.usd / 2, 12);
    expect(during.settledAt).toBeNull();
    await releaseHold(stub, "sp-held-1");
    expect((await ended(started.id)).status).toBe("completed");
    const after = await holdOf(started.id);
    expect(after?.usd).toBe(0);
    expect(after?.settledAt).not.toBeNull();
  });

  it("counts what its calls paid in the day's spend and in its own progress", async () => {
    await promptSet("set-sp4", ["Priced one?", "Priced two?"]);
    const before = await spendNow();
    const started = await startEvaluation({
      promptSetId: "set-sp4",
      contestants: ["openai:priced-custom", "anthropic:sp-free"],
      baseline: "anthropic:sp-free",
      judges: ["openai:sp-free-judge"],
    });
    const done = await ended(started.id);
    const rows = await rowsOf(started.id);
    const paid = rows.answers.reduce((sum, a) => sum + (a.costUsd ?? 0), 0);
    // openai:priced-custom is priced 1:2 in the tests; the stub's answer uses 42 tokens in.
    const priced = rows.answers.filter((a) => a.contestant === "openai:priced-custom");
    expect(priced.map((a) => a.costUsd)).toEqual(priced.map((a) => (42 * 1 + a.tokensOut! * 2) / 1e6));
    expect(done.progress.spentUsd).toBeCloseTo(paid, 15);
    expect(done.progress.unknownCostCalls).toBe(2 + 4);
    const after = await spendNow();
    expect(after.spentUsd - before.spentUsd).toBeCloseTo(paid, 12);
  });

  it("refuses an evaluation that could cost more than QUORUM_MAX_EVAL_USD", async () => {
    await promptSet("set-sp2", ["One?", "Two?"]);
    const res = await withSettings(
      "/evaluations",
      { QUORUM_PRICES: PRICES, QUORUM_MAX_EVAL_USD: "0.0001" },
      {
        method: "POST",
        json: { promptSetId: "set-sp2", contestants: ["openai:sp-a", "anthropic:sp-b"], judges: ["openai:sp-j"] },
      },
    );
    expect(res.status).toBe(400);
    const refusal = (await res.json()) as Refusal;
    expect(refusal.error.code).toBe("over_budget");
    expect(refusal.error.message).toContain("more than QUORUM_MAX_EVAL_USD ($0.0001)");
  });

  it("refuses unpriced contestants under a cap, naming them", async () => {
    await promptSet("set-sp3", ["One?"]);
    const res = await withSettings(
      "/evaluations",
      { QUORUM_MAX_EVAL_USD: "5" },
      {
        method: "POST",
        json: { promptSetId: "set-sp3", contestants: ["openai:sp-free", "anthropic:sp-b"], judges: ["openai:sp-j"] },
      },
    );
    expect(res.status).toBe(400);
    const refusal = (await res.json()) as Refusal;
    expect(refusal.error.code).toBe("unpriced_model");
    expect(refusal.error.message).toContain("QUORUM_MAX_EVAL_USD");
    expect(refusal.error.message).toContain("openai:sp-free");
  });
});

/** Polls the evaluation's hold until `done` holds of it (its writes queue behind the calls' own). */
const pollHold = (id: string, done: (h: { usd: number; settledAt: number | null }) => boolean) =>
  poll(
    async () => (await holdOf(id)) ?? { usd: Number.NaN, settledAt: null },
    done,
    5_000,
    "the evaluation's hold to shrink",
  );
