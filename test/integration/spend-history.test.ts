import { env } from "cloudflare:test";
import type { InferResponseType } from "hono/client";
import { describe, expect, inject, it } from "vitest";
import { castVote, createComparison, settled } from "../helpers/arena";
import { client, ok } from "../helpers/client";
import { api, createRun, finished } from "../helpers/runs";
import { reservedSettles } from "../helpers/spend";
import { scriptModel } from "../helpers/stub-client";

const stub = inject("stubUrl");

type History = InferResponseType<typeof client.spend.history.$get, 200>;
const history = (days?: number): Promise<History> =>
  ok(client.spend.history.$get({ query: days === undefined ? {} : { days: String(days) } }));

const usdOf = <T extends { usd: number }>(rows: T[], match: (r: T) => boolean) =>
  rows.filter(match).reduce((sum, r) => sum + r.usd, 0);
const unknownOf = <T extends { unknownCostCalls: number }>(rows: T[], match: (r: T) => boolean) =>
  rows.filter(match).reduce((sum, r) => sum + r.unknownCostCalls, 0);

// Models no other test file scripts: the stub is shared, and its steps are queued per model name.
describe("GET /api/spend/history", () => {
  it("sums a priced run and a priced comparison per day, provider, model and feature, to the calls' own costs", async () => {
    const before = await history();
    expect(before.byDay).toHaveLength(30);
    expect(before.byDay.at(-1)!.day).toBe(new Date().toISOString().slice(0, 10));
    expect(before.from).toBe(before.byDay[0]!.day);

    // gpt-4o-mini and claude-haiku-4-5 have catalog prices; spendpage-unpriced has none
    await scriptModel(stub, "gpt-4o-mini", [{ tokensIn: 1200, tokensOut: 800 }]);
    await scriptModel(stub, "claude-haiku-4-5", [{ tokensIn: 900, tokensOut: 400 }]);
    await scriptModel(stub, "spendpage-unpriced", [{ tokensIn: 500, tokensOut: 500 }]);
    const runId = await createRun({
      question: "What is a spend page for?",
      models: [{ id: "openai:gpt-4o-mini" }, { id: "anthropic:claude-haiku-4-5" }, { id: "openai:spendpage-unpriced" }],
      settings: { autoEvaluate: false },
    });
    const run = await finished(runId);
    const answerCost = (id: string) => run.answers.find((a) => a.modelId === id)!.costUsd!;
    const mini = answerCost("openai:gpt-4o-mini");
    const haiku = answerCost("anthropic:claude-haiku-4-5");
    expect(mini).toBeGreaterThan(0);
    expect(haiku).toBeGreaterThan(0);
    expect(run.answers.find((a) => a.modelId === "openai:spendpage-unpriced")!.costUsd).toBeNull();

    await scriptModel(stub, "gemini-2.5-pro", [{ tokensIn: 700, tokensOut: 900 }]);
    await scriptModel(stub, "gpt-5-mini", [{ tokensIn: 600, tokensOut: 300 }]);
    const { id: comparisonId } = await createComparison({
      prompt: "A haiku about budgets.",
      models: ["google:gemini-2.5-pro", "openai:gpt-5-mini"],
    });
    expect((await settled(comparisonId)).comparison.status).toBe("ready");

    // Blind until its vote: its models' rows would tell which side is which, so nothing of it shows yet.
    const blind = await history();
    const modelUsd = (h: History, id: string) => usdOf(h.byModel, (m) => m.modelId === id);
    expect(modelUsd(blind, "google:gemini-2.5-pro")).toBeCloseTo(modelUsd(before, "google:gemini-2.5-pro"), 12);
    expect(modelUsd(blind, "openai:gpt-5-mini")).toBeCloseTo(modelUsd(before, "openai:gpt-5-mini"), 12);
    expect(blind.byFeature.find((f) => f.feature === "arena")?.usd ?? 0).toBeCloseTo(
      before.byFeature.find((f) => f.feature === "arena")?.usd ?? 0,
      12,
    );

    await castVote(comparisonId, "left");
    await reservedSettles(0);
    // each side's own cost, as its room recorded it
    const { results: sides } = await env.DB.prepare(
      "SELECT CASE m.side WHEN 'left' THEN c.model1_id ELSE c.model2_id END AS model, m.cost_usd AS cost FROM messages m JOIN comparisons c ON c.id = m.comparison_id WHERE m.comparison_id = ? AND m.role = 'assistant'",
    )
      .bind(comparisonId)
      .all<{ model: string; cost: number }>();
    const sideCost = (model: string) => sides.find((s) => s.model === model)!.cost;
    const gemini = sideCost("google:gemini-2.5-pro");
    const gpt5 = sideCost("openai:gpt-5-mini");
    expect(gemini).toBeGreaterThan(0);
    expect(gpt5).toBeGreaterThan(0);

    const after = await history();
    const delta = <T extends { usd: number }>(rows: (h: History) => T[], match: (r: T) => boolean) =>
      usdOf(rows(after), match) - usdOf(rows(before), match);
    const runCost = mini + haiku;
    const arenaCost = gemini + gpt5;

    expect(
      delta(
        (h) => h.byDay,
        (d) => d.day === after.to,
      ),
    ).toBeCloseTo(runCost + arenaCost, 12);
    expect(
      delta(
        (h) => h.byFeature,
        (f) => f.feature === "runs",
      ),
    ).toBeCloseTo(runCost, 12);
    expect(
      delta(
        (h) => h.byFeature,
        (f) => f.feature === "arena",
      ),
    ).toBeCloseTo(arenaCost, 12);
    expect(
      delta(
        (h) => h.byProvider,
        (p) => p.provider === "openai",
      ),
    ).toBeCloseTo(mini + gpt5, 12);
    expect(
      delta(
        (h) => h.byProvider,
        (p) => p.provider === "anthropic",
      ),
    ).toBeCloseTo(haiku, 12);
    expect(
      delta(
        (h) => h.byProvider,
        (p) => p.provider === "google",
      ),
    ).toBeCloseTo(gemini, 12);
    for (const [model, cost] of [
      ["openai:gpt-4o-mini", mini],
      ["anthropic:claude-haiku-4-5", haiku],
      ["google:gemini-2.5-pro", gemini],
      ["openai:gpt-5-mini", gpt5],
    ] as const)
      expect(
        delta(
          (h) => h.byModel,
          (m) => m.modelId === model,
        ),
      ).toBeCloseTo(cost, 12);
    expect(after.total.usd - before.total.usd).toBeCloseTo(runCost + arenaCost, 12);
    expect(after.byProvider.find((p) => p.provider === "google")!.name).toBe("Google");

    // The unpriced answer is counted apart, never as $0 of spend.
    const unpriced = after.byModel.find((m) => m.modelId === "openai:spendpage-unpriced")!;
    expect(unpriced).toMatchObject({ usd: 0, unknownCostCalls: 1, calls: 1 });
    expect(
      unknownOf(after.byFeature, (f) => f.feature === "runs") -
        unknownOf(before.byFeature, (f) => f.feature === "runs"),
    ).toBe(1);
    expect(after.total.unknownCostCalls - before.total.unknownCostCalls).toBe(1);

    // today's figures are GET /api/spend's, and the caps are said
    const today = await ok(client.spend.$get());
    expect(after.today).toMatchObject({ day: today.day, capUsd: today.capUsd, reservedUsd: 0 });
    expect(after.today.spentUsd).toBeCloseTo(today.spentUsd, 12);
    expect(after.runCapUsd).toBeNull();
  });

  it("puts kept spend in its feature: a replaced review under evaluations, a judge under judges, the classifier under classifier, each on its own day", async () => {
    const before = await history();
    const yesterday = Date.now() - 86_400_000;
    // What the keep-spend triggers and the judge panel and label pass write: rows with no item of their own.
    const kept = [
      ["review", "anthropic:claude-haiku-4-5", 0.0125, yesterday],
      ["judge", "anthropic:claude-haiku-4-5", 0.25, Date.now()],
      ["classifier", "openai:gpt-4o-mini", null, Date.now()],
    ] as const;
    for (const [kind, model, cost, at] of kept)
      await env.DB.prepare(
        "INSERT INTO spend_entries (kind, model_id, tokens_in, tokens_out, cost_usd, completed_at) VALUES (?, ?, 100, 50, ?, ?)",
      )
        .bind(kind, model, cost, at)
        .run();
    const after = await history();
    const feature = (h: History, f: string) =>
      h.byFeature.find((x) => x.feature === f) ?? { usd: 0, unknownCostCalls: 0, calls: 0 };
    expect(feature(after, "evaluations").usd - feature(before, "evaluations").usd).toBeCloseTo(0.0125, 12);
    expect(feature(after, "judges").usd - feature(before, "judges").usd).toBeCloseTo(0.25, 12);
    expect(feature(after, "classifier").unknownCostCalls - feature(before, "classifier").unknownCostCalls).toBe(1);
    expect(feature(after, "classifier").usd).toBeCloseTo(feature(before, "classifier").usd, 12);
    const day = (h: History, at: number) => h.byDay.find((d) => d.day === new Date(at).toISOString().slice(0, 10))!;
    expect(day(after, yesterday).usd - day(before, yesterday).usd).toBeCloseTo(0.0125, 12);
    expect(day(after, Date.now()).usd - day(before, Date.now()).usd).toBeCloseTo(0.25, 12);
  });

  it("gives the days asked for and refuses a bad number of days with a 400", async () => {
    const week = await history(7);
    expect(week.byDay).toHaveLength(7);
    expect(week.from).toBe(new Date(Date.now() - 6 * 86_400_000).toISOString().slice(0, 10));
    for (const days of ["0", "91", "two"]) {
      const res = await api(`/spend/history?days=${days}`);
      expect(res.status).toBe(400);
      const body = (await res.json()) as { error: { code: string; message: string } };
      expect(body.error.message).toMatch(/days/);
    }
  });
});
