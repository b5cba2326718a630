import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, inject, it } from "vitest";
import type { ComparisonRoom } from "../../worker/rooms/comparison-room";
import type { ComparisonRecord } from "../../worker/db/records";
import { castVote, createComparison, settled } from "../helpers/arena";
import { api, createRun, finished } from "../helpers/runs";
import { callsFor, scriptModel } from "../helpers/stub-client";
import { reservedSettles, spendNow, withSettings, type Refusal, type Spend } from "../helpers/spend";

const stub = inject("stubUrl");

async function judgesFinished(id: string, timeoutMs = 10_000) {
  const room = env.COMPARISON_ROOM.get(env.COMPARISON_ROOM.idFromName(id));
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const judges = await runInDurableObject(
      room,
      (instance: ComparisonRoom) => (instance as unknown as { record: ComparisonRecord }).record.judges,
    );
    if (judges.length && judges.every((j) => j.status === "done" || j.status === "failed")) return judges;
    if (Date.now() > deadline) throw new Error(`judges not finished within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const verdict = (winner: "A" | "B") => ({
  review: { winner, scores: { A: 6, B: 6 }, reasons: "Close." },
  tokensIn: 100,
  tokensOut: 50,
});

// Models no other test file scripts: the stub is shared, and its steps are queued per model name.
const PRICED = ["priced-custom", "gpt-4.1-mini", "gemini-2.5-flash-lite", "claude-opus-4-1"];
const callCounts = async () => Promise.all(PRICED.map(async (m) => (await callsFor(stub, m)).length));

let comparisonId = "";

describe("the day's spend, QUORUM_MAX_DAY_USD", () => {
  it("adds up today's council answers, arena sides and judge calls, counts calls with no price apart, and keeps what a deleted run spent", async () => {
    const before = await spendNow();
    expect(before.day).toBe(new Date().toISOString().slice(0, 10));
    expect(before.capUsd).toBeNull();

    // priced-custom costs $1 / $2 per million (QUORUM_PRICES); spend-unpriced has no price at all
    await scriptModel(stub, "priced-custom", [{ tokensIn: 1000, tokensOut: 500 }]);
    await scriptModel(stub, "spend-unpriced", [{ tokensIn: 1000, tokensOut: 500 }]);
    const runId = await createRun({
      question: "Name a prime.",
      models: [{ id: "openai:priced-custom" }, { id: "openai:spend-unpriced" }],
      settings: { autoEvaluate: false },
    });
    await finished(runId);

    // gpt-4.1-mini at $0.40 / $1.60, gemini-2.5-flash-lite at $0.10 / $0.40; the judge, claude-opus-4-1, at $15 / $75
    await scriptModel(stub, "gpt-4.1-mini", [{ tokensIn: 1000, tokensOut: 500 }]);
    await scriptModel(stub, "gemini-2.5-flash-lite", [{ tokensIn: 2000, tokensOut: 1000 }]);
    await scriptModel(stub, "claude-opus-4-1", [verdict("A"), verdict("B")]);
    comparisonId = (
      await createComparison({
        prompt: "Haiku about rain.",
        models: ["openai:gpt-4.1-mini", "google:gemini-2.5-flash-lite"],
      })
    ).id;
    expect((await settled(comparisonId)).comparison.status).toBe("ready");
    expect(
      (
        await api(`/comparisons/${comparisonId}/judge`, {
          method: "POST",
          json: { judges: ["anthropic:claude-opus-4-1"] },
        })
      ).status,
    ).toBe(202);
    // Blind until its vote: only then is its judge asked, and do its sides and its judge count at what they cost.
    await castVote(comparisonId, "left");
    await judgesFinished(comparisonId);

    const answers = (1000 * 1 + 500 * 2) / 1e6;
    const sides = (1000 * 0.4 + 500 * 1.6 + 2000 * 0.1 + 1000 * 0.4) / 1e6;
    const judge = (2 * (100 * 15 + 50 * 75)) / 1e6;
    const after = await reservedSettles(before.reservedUsd);
    expect(after.spentUsd - before.spentUsd).toBeCloseTo(answers + sides + judge, 10);
    expect(after.unknownCostCalls - before.unknownCostCalls).toBe(1);

    const row = await env.DB.prepare(
      "SELECT cost_usd AS cost FROM messages WHERE comparison_id = ? AND role = 'assistant' AND side = 'left'",
    )
      .bind(comparisonId)
      .first<{ cost: number }>();
    expect(row!.cost).toBeGreaterThan(0);

    // Deleting the run takes its rows, not the money it spent.
    expect((await api(`/runs/${runId}`, { method: "DELETE" })).status).toBe(200);
    const deleted = await spendNow();
    expect(deleted.spentUsd).toBeCloseTo(after.spentUsd, 10);
    expect(deleted.unknownCostCalls).toBe(after.unknownCostCalls);

    const capped = (await (await withSettings("/spend", { QUORUM_MAX_DAY_USD: "5" })).json()) as Spend;
    expect(capped).toMatchObject({ day: after.day, capUsd: 5, unknownCostCalls: after.unknownCostCalls });
    expect(capped.spentUsd).toBeCloseTo(after.spentUsd, 10);
  });

  it("refuses every kind of new work once the day has spent its cap, before any provider call, saying what was spent and when it resets", async () => {
    const { spentUsd } = await spendNow();
    expect(spentUsd).toBeGreaterThan(0);
    const cap = { QUORUM_MAX_DAY_USD: String(spentUsd) };
    const calls = await callCounts();

    const refusals = [
      await withSettings("/runs", cap, {
        method: "POST",
        json: { question: "Hi", models: [{ id: "openai:priced-custom" }] },
      }),
      // even free demo models: the day is spent
      await withSettings("/runs", cap, { method: "POST", json: { question: "Hi", models: [{ id: "demo:concise" }] } }),
      await withSettings("/comparisons", cap, {
        method: "POST",
        json: { prompt: "Hi", models: ["openai:gpt-4.1-mini", "google:gemini-2.5-flash-lite"] },
      }),
      await withSettings(`/comparisons/${comparisonId}/messages`, cap, {
        method: "POST",
        json: { content: "And another?" },
      }),
      await withSettings(`/comparisons/${comparisonId}/retry`, cap, { method: "POST" }),
      await withSettings(`/comparisons/${comparisonId}/judge`, cap, {
        method: "POST",
        json: { judges: ["openai:priced-custom"] },
      }),
    ];
    for (const res of refusals) {
      expect(res.status).toBe(429);
      const retryAfter = Number(res.headers.get("Retry-After"));
      expect(retryAfter).toBeGreaterThan(0);
      expect(retryAfter).toBeLessThanOrEqual(86_400);
      const body = (await res.json()) as Refusal;
      expect(body.error.code).toBe("day_cap");
      expect(body.error.message).toContain("Today's spend has reached QUORUM_MAX_DAY_USD");
      expect(body.error.message).toMatch(/\$0\.\d{4} of \$0\.\d{4} spent or set aside since 00:00 UTC/);
      expect(body.error.message).toContain("resets at 00:00 UTC");
      expect(body.error.message).toContain("raise QUORUM_MAX_DAY_USD");
      expect(body.error.details.resetsAt % 86_400_000).toBe(0);
      expect(body.error.details.resetsAt - Date.now()).toBeLessThanOrEqual(86_400_000);
    }
    expect(await callCounts()).toEqual(calls);
    const spend = (await (await withSettings("/spend", cap)).json()) as Spend;
    expect(spend.capUsd).toBe(spentUsd);
  });

  it("refuses work whose most it could cost would take the day past its cap, and lets through work that fits", async () => {
    const { spentUsd } = await spendNow();
    const cap = { QUORUM_MAX_DAY_USD: String(spentUsd + 0.001) };
    const calls = await callCounts();
    // 4,096 output tokens at $2 per million is already $0.008
    const over = await withSettings("/runs", cap, {
      method: "POST",
      json: { question: "Hi", models: [{ id: "openai:priced-custom" }] },
    });
    expect(over.status).toBe(429);
    const body = (await over.json()) as Refusal;
    expect(body.error.code).toBe("day_cap");
    expect(body.error.message).toMatch(
      /This could cost up to \$0\.\d{4}, and \$0\.\d{4} of today's \$0\.\d{4} \(QUORUM_MAX_DAY_USD\) is already spent/,
    );
    expect(body.error.details.estimateUsd).toBeGreaterThan(0.008);
    const comparison = await withSettings("/comparisons", cap, {
      method: "POST",
      json: { prompt: "Hi", models: ["openai:gpt-4.1-mini", "google:gemini-2.5-flash-lite"] },
    });
    expect(comparison.status).toBe(429);
    expect(await callCounts()).toEqual(calls);

    const free = await withSettings("/runs", cap, {
      method: "POST",
      json: { question: "Hi", models: [{ id: "demo:concise" }], settings: { autoEvaluate: false } },
    });
    expect(free.status).toBe(201);
    await finished(((await free.json()) as { id: string }).id);
    const small = await withSettings(
      "/runs",
      { QUORUM_MAX_DAY_USD: String(spentUsd + 1) },
      {
        method: "POST",
        json: {
          question: "Hi",
          models: [{ id: "openai:priced-custom", params: { maxTokens: 50 } }],
          settings: { autoEvaluate: false },
        },
      },
    );
    expect(small.status).toBe(201);
    await finished(((await small.json()) as { id: string }).id);
  });

  it("applies QUORUM_MAX_RUN_USD to a new comparison too", async () => {
    const calls = await callCounts();
    const res = await withSettings(
      "/comparisons",
      { QUORUM_MAX_RUN_USD: "0.001" },
      { method: "POST", json: { prompt: "Hi", models: ["openai:gpt-4.1-mini", "google:gemini-2.5-flash-lite"] } },
    );
    expect(res.status).toBe(400);
    const body = (await res.json()) as Refusal;
    expect(body.error.code).toBe("over_budget");
    expect(body.error.message).toMatch(
      /This comparison could cost up to \$0\.\d{4}, more than QUORUM_MAX_RUN_USD \(\$0\.001\)/,
    );
    // "Hi" is one token in; each side may write 4,096 tokens. Blind, both sides are set aside at the pair's
    // highest prices ($0.40 / $1.60 of gpt-4.1-mini, not gemini's $0.10 / $0.40), so the amount says nothing of the sides.
    expect(body.error.details.estimateUsd).toBeCloseTo((2 * (1 * 0.4 + 4096 * 1.6)) / 1e6, 12);
    expect(await callCounts()).toEqual(calls);
  });
});
