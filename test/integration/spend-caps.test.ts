import { env } from "cloudflare:test";
import { describe, expect, inject, it } from "vitest";
import { loadRunRecord, openDb, wholeRunWrites } from "../../worker/db/queries";
import { runWrites } from "../../worker/db/statements";
import { streamReply } from "../../worker/rooms/reply";
import { judgeBattles } from "../../worker/rooms/review-phase";
import { sweepUnfinished } from "../../worker/rooms/sweep";
import { castVote, getComparison, settled } from "../helpers/arena";
import { createRun, finished, getRun, openSocket, api as request } from "../helpers/runs";
import { type Refusal, reservedSettles, spendNow, withSettings } from "../helpers/spend";
import { callsFor, releaseHold, scriptModel, waitForHeld } from "../helpers/stub-client";

const stub = inject("stubUrl");

// Catalog models no other test file calls (the stub is shared, its steps queued per model name):
// gpt-5-mini $0.25 / $2, o4-mini $1.10 / $4.40, claude-3-5-haiku-latest $0.80 / $4, gpt-4.1 $2 / $8,
// gemini-2.5-flash $0.30 / $2.50, gemini-2.5-pro $1.25 / $10, claude-haiku-4-5 $1 / $5 per million tokens.
const usd = (tokensIn: number, priceIn: number, tokensOut: number, priceOut: number) =>
  (tokensIn * priceIn + tokensOut * priceOut) / 1e6;

const used = async () => {
  const s = await spendNow();
  return s.spentUsd + s.reservedUsd;
};

describe("models without a price, under a cap", () => {
  it("refuses them with a 400 that says how to price them in QUORUM_PRICES; demo models are free; without a cap they run", async () => {
    const unpriced = Array.from({ length: 26 }, (_, i) => ({
      id: `openai:gpt-unpriced-${i}`,
      params: { maxTokens: 200_000 },
    }));
    for (const cap of [{ QUORUM_MAX_RUN_USD: "0.10" }, { QUORUM_MAX_DAY_USD: "100" }] as Record<string, string>[]) {
      const res = await withSettings("/runs", cap, { method: "POST", json: { question: "Hi", models: unpriced } });
      expect(res.status).toBe(400);
      const body = (await res.json()) as Refusal;
      expect(body.error.code).toBe("unpriced_model");
      expect(body.error.message).toContain("No known price for openai:gpt-unpriced-0, openai:gpt-unpriced-1,");
      expect(body.error.message).toContain("QUORUM_PRICES=openai:gpt-unpriced-0=0.5:1.5");
      expect(body.error.details.unpriced).toHaveLength(26);
    }
    const pair = await withSettings(
      "/comparisons",
      { QUORUM_MAX_RUN_USD: "1" },
      { method: "POST", json: { prompt: "Hi", models: ["openai:gpt-unpriced-0", "openai:gpt-5-mini"] } },
    );
    expect(pair.status).toBe(400);
    expect(((await pair.json()) as Refusal).error.details.unpriced).toEqual(["openai:gpt-unpriced-0"]);
    // A sampled pair is refused for any unpriced model of its pool, whichever two were drawn.
    const pool = {
      QUORUM_MAX_DAY_USD: "100",
      QUORUM_ARENA_MODELS: "openai:gpt-5-mini,openai:gpt-unpriced-1,google:gemini-2.5-pro",
    };
    const sampled = await withSettings("/comparisons", pool, { method: "POST", json: { prompt: "Hi" } });
    expect(sampled.status).toBe(400);
    expect(((await sampled.json()) as Refusal).error.details.unpriced).toEqual(["openai:gpt-unpriced-1"]);
    const judged = await withSettings(
      "/comparisons",
      { QUORUM_MAX_RUN_USD: "1" },
      {
        method: "POST",
        json: { prompt: "Hi", models: ["demo:concise", "demo:skeptic"], judges: ["openai:gpt-unpriced-2"] },
      },
    );
    expect(judged.status).toBe(400);
    for (const i of [0, 1, 2]) expect(await callsFor(stub, `gpt-unpriced-${i}`)).toHaveLength(0);

    const priced = await withSettings(
      "/runs",
      { QUORUM_MAX_RUN_USD: "1", QUORUM_PRICES: "openai:gpt-unpriced-3=0.5:1.5" },
      {
        method: "POST",
        json: {
          question: "Hi",
          models: [{ id: "openai:gpt-unpriced-3", params: { maxTokens: 100 } }],
          settings: { autoEvaluate: false },
        },
      },
    );
    expect(priced.status).toBe(201);
    await finished(((await priced.json()) as { id: string }).id);
    const demo = await withSettings(
      "/runs",
      { QUORUM_MAX_RUN_USD: "0" },
      { method: "POST", json: { question: "Hi", models: [{ id: "demo:concise" }, { id: "demo:skeptic" }] } },
    );
    expect(demo.status).toBe(201);
    await finished(((await demo.json()) as { id: string }).id);
    const free = await finished(
      await createRun({ question: "Hi", models: [{ id: "openai:gpt-unpriced-4" }], settings: { autoEvaluate: false } }),
    );
    expect(free.answers[0].status).toBe("done");
  });
});

describe("the day's cap holds for work under way", () => {
  it("sends a call without maxTokens, under a cap, with the 4,096 tokens its request was reserved for (a provider's default may be far more)", async () => {
    const rules = (settings: Record<string, string>) => ({
      env: { ...env, ...settings },
      cancel: new AbortController().signal,
      policy: { maxAttempts: 1, baseMs: 5, maxDelayMs: 5 },
      timeoutMs: 5_000,
    });
    const request = { modelId: "openai:gpt-unpriced-9", messages: [{ role: "user" as const, content: "Hi" }] };
    const hooks = { onAttempt: () => {}, onDelta: () => {} };
    expect((await streamReply(rules({ QUORUM_MAX_DAY_USD: "5" }), request, hooks)).ok).toBe(true);
    expect((await streamReply(rules({}), request, hooks)).ok).toBe(true);
    expect((await streamReply(rules({ QUORUM_MAX_RUN_USD: "5" }), { ...request, maxTokens: 50 }, hooks)).ok).toBe(true);
    const [capped, uncapped, own] = await callsFor(stub, "gpt-unpriced-9");
    expect(capped.body).toMatchObject({ max_completion_tokens: 4096 });
    expect(uncapped.body).not.toHaveProperty("max_completion_tokens");
    expect(own.body).toMatchObject({ max_completion_tokens: 50 });
  });

  // "Hi" is one token in; each run may write 1,000 tokens at $2 per million
  const EACH = usd(1, 0.25, 1000, 2);
  const body = {
    question: "Hi",
    models: [{ id: "openai:gpt-5-mini", params: { maxTokens: 1000 } }],
    settings: { autoEvaluate: false, blind: false },
  };

  /** Sends 40 runs (with `send`) while the day has room for ten: the runs accepted stay under way until released. */
  async function fortyNearTheCap(key: string, send: (post: () => Promise<Response>) => Promise<Response[]>) {
    const base = await spendNow();
    const cap = base.spentUsd + base.reservedUsd + 10.5 * EACH;
    await scriptModel(
      stub,
      "gpt-5-mini",
      Array.from({ length: 10 }, () => ({ holdKey: key, tokensIn: 1, tokensOut: 1000 })),
    );
    const responses = await send(() =>
      withSettings("/runs", { QUORUM_MAX_DAY_USD: String(cap) }, { method: "POST", json: body }),
    );
    const accepted = responses.filter((r) => r.status === 201);
    const refused = responses.filter((r) => r.status === 429);
    expect(accepted).toHaveLength(10);
    expect(refused).toHaveLength(30);
    for (const res of refused) expect(((await res.json()) as Refusal).error.code).toBe("day_cap");

    const during = await spendNow();
    expect(during.reservedUsd - base.reservedUsd).toBeCloseTo(10 * EACH, 12);
    expect(during.spentUsd + during.reservedUsd).toBeLessThanOrEqual(cap);
    await waitForHeld(stub, key, 10);
    expect(await releaseHold(stub, key)).toBe(10);
    for (const res of accepted) await finished(((await res.json()) as { id: string }).id);
    // Settled: each run's hold gives way to what it cost (here its whole allowance).
    const after = await reservedSettles(base.reservedUsd);
    expect(after.spentUsd - base.spentUsd).toBeCloseTo(10 * EACH, 12);
    expect(after.spentUsd + after.reservedUsd).toBeLessThanOrEqual(cap);
  }

  it("accepts 10 of 40 runs sent one after another with room for 10, and the work accepted never passes the cap", async () => {
    await fortyNearTheCap("spend-caps-sequential", async (post) => {
      const out: Response[] = [];
      for (let i = 0; i < 40; i++) out.push(await post());
      return out;
    });
  });

  it("accepts 10 of 40 runs sent all at once with room for 10: the check and the reservation are one D1 statement", async () => {
    await fortyNearTheCap("spend-caps-concurrent", (post) => Promise.all(Array.from({ length: 40 }, post)));
  });
});

describe("a run's or comparison's own cap covers everything it ever spends", () => {
  it("counts each re-evaluation against QUORUM_MAX_RUN_USD, refuses the one that would pass it, and shows them all in the run's totals", async () => {
    // Each review reads 1,000 tokens and writes 400; the answers 1 in and 2 or 4 out.
    const reviews = Array.from({ length: 6 }, () => ({ tokensIn: 1000, tokensOut: 400 }));
    await scriptModel(stub, "o4-mini", [{ text: "Paris.", tokensIn: 1, tokensOut: 2 }, ...reviews]);
    await scriptModel(stub, "claude-3-5-haiku-latest", [
      { text: "Paris is the capital.", tokensIn: 1, tokensOut: 4 },
      ...reviews,
    ]);
    const cap = { QUORUM_MAX_RUN_USD: "0.03" };
    const created = await withSettings("/runs", cap, {
      method: "POST",
      json: {
        question: "Capital of France?",
        models: [{ id: "openai:o4-mini" }, { id: "anthropic:claude-3-5-haiku-latest" }],
        settings: { maxTokens: 50, blind: false },
      },
    });
    expect(created.status).toBe(201);
    const id = ((await created.json()) as { id: string }).id;
    expect((await finished(id)).run.status).toBe("done");

    const answers = usd(1, 1.1, 2, 4.4) + usd(1, 0.8, 4, 4);
    const evaluation = usd(1000, 1.1, 400, 4.4) + usd(1000, 0.8, 400, 4);
    let accepted = 0;
    let refusal: Refusal | null = null;
    while (!refusal && accepted < 5) {
      const socket = await openSocket(id);
      try {
        const snapshot = await socket.waitFor("snapshot");
        const res = await withSettings(`/runs/${id}/evaluate`, cap, { method: "POST" });
        if (res.status === 202) {
          await socket.until((e) => e.seq > snapshot.seq && e.type === "run.completed", "the re-evaluation's end");
          accepted++;
        } else {
          expect(res.status).toBe(400);
          refusal = (await res.json()) as Refusal;
        }
      } finally {
        socket.close();
      }
    }
    // $0.0053 after the run itself, $0.0053 more per evaluation, and each asks to set aside $0.0165 first
    expect(accepted).toBe(2);
    expect(refusal!.error.code).toBe("over_budget");
    expect(refusal!.error.message).toMatch(
      /This request could cost up to \$0\.\d{4}, and this run has already spent or set aside \$0\.\d{4} of its QUORUM_MAX_RUN_USD \(\$0\.03\)/,
    );
    expect(refusal!.error.details.spentUsd).toBeCloseTo(answers + 3 * evaluation, 12);

    const run = await getRun(id);
    expect(run.totals.costUsd).toBeCloseTo(answers + 3 * evaluation, 12);
    expect(run.totals.costUsd!).toBeLessThanOrEqual(0.03);
    expect(run.earlier?.costUsd).toBeCloseTo(2 * evaluation, 12);
  });

  it("counts no call twice when a resumed room writes the run's whole state again", async () => {
    const id = await createRun({ question: "Hi", models: [{ id: "demo:concise" }, { id: "demo:skeptic" }] });
    const before = await finished(id);
    expect(before.reviewers.every((r) => (r.tokensIn ?? 0) > 0)).toBe(true);
    const kept = async () =>
      (await env.DB.prepare("SELECT count(*) AS n FROM spend_entries WHERE item_id = ?")
        .bind(id)
        .first<{ n: number }>())!.n;
    expect(await kept()).toBe(0);
    const record = (await loadRunRecord(openDb(env.DB), id))!;
    await runWrites(env.DB, wholeRunWrites(env.DB, record, judgeBattles(record)));
    // The review sets it wrote again were never deleted, so none left a copy of its cost behind.
    expect(await kept()).toBe(0);
    const after = await getRun(id);
    expect(after.totals).toEqual(before.totals);
    expect(after.earlier).toBeNull();
  });

  it("counts an arena follow-up against the comparison's cap with what its turns already cost, and shows every turn in its totals", async () => {
    // Each side reads what was estimated and writes its whole allowance of 100 tokens.
    await scriptModel(stub, "gpt-4.1", [
      { text: "One.", tokensIn: 1, tokensOut: 100 },
      { text: "Three.", tokensIn: 4, tokensOut: 100 },
    ]);
    await scriptModel(stub, "gemini-2.5-flash", [
      { text: "Two.", tokensIn: 1, tokensOut: 100 },
      { text: "Four.", tokensIn: 4, tokensOut: 100 },
    ]);
    const base = await spendNow();
    const created = await withSettings(
      "/comparisons",
      { QUORUM_MAX_RUN_USD: "0.01" },
      {
        method: "POST",
        json: {
          prompt: "Hi",
          models: ["openai:gpt-4.1", "google:gemini-2.5-flash"],
          blind: false,
          params: { maxTokens: 100 },
        },
      },
    );
    expect(created.status).toBe(201);
    const id = ((await created.json()) as { id: string }).id;
    await settled(id);
    await reservedSettles(base.reservedUsd);
    const first = usd(1, 2, 100, 8) + usd(1, 0.3, 100, 2.5);
    expect((await getComparison(id)).totals?.costUsd).toBeCloseTo(first, 12);

    const followUp = (cap: number) =>
      withSettings(
        `/comparisons/${id}/messages`,
        { QUORUM_MAX_RUN_USD: String(cap) },
        { method: "POST", json: { content: "And?" } },
      );
    const over = await followUp(0.0021);
    expect(over.status).toBe(400);
    const refusal = (await over.json()) as Refusal;
    expect(refusal.error.code).toBe("over_budget");
    expect(refusal.error.message).toContain("this comparison has already spent or set aside");
    expect(refusal.error.details.spentUsd).toBeCloseTo(first, 12);
    // On its own the follow-up fits the cap: only what the comparison already spent takes it past.
    const next = refusal.error.details.estimateUsd;
    expect(next).toBeLessThan(0.0021);
    expect(first + next).toBeGreaterThan(0.0021);

    expect((await followUp(first + next + 1e-9)).status).toBe(202);
    await settled(id);
    await reservedSettles(base.reservedUsd);
    const second = usd(4, 2, 100, 8) + usd(4, 0.3, 100, 2.5);
    expect((await getComparison(id)).totals?.costUsd).toBeCloseTo(first + second, 12);
    expect((await followUp(first + next + 1e-9)).status).toBe(400);
    // A judge asked for now would take it past the cap too.
    const judgeCalls = (await callsFor(stub, "gpt-5-mini")).length;
    const judge = await withSettings(
      `/comparisons/${id}/judge`,
      { QUORUM_MAX_RUN_USD: String(first + next + 1e-9) },
      { method: "POST", json: { judges: ["openai:gpt-5-mini"] } },
    );
    expect(judge.status).toBe(400);
    expect(((await judge.json()) as Refusal).error.code).toBe("over_budget");
    expect(await callsFor(stub, "gpt-4.1")).toHaveLength(2);
    expect(await callsFor(stub, "gpt-5-mini")).toHaveLength(judgeCalls);
  });
});

describe("spend figures before a reveal", () => {
  // gemini-2.5-pro, claude-haiku-4-5 and gpt-4.1: blind sides are set aside at the pool's highest prices, $2 in
  // (gpt-4.1) and $10 out (gemini-2.5-pro)
  const POOL = { QUORUM_ARENA_MODELS: "google:gemini-2.5-pro,anthropic:claude-haiku-4-5,openai:gpt-4.1" };
  // "Tell me a joke." is 5 tokens in; each side may write 4,096 tokens
  const HOLD = 2 * usd(5, 2, 4096, 10);
  // a judge reads both conversations (800 + 5 + 6 + 6 tokens) in both orders, each maybe twice, and writes 400 a
  // side, at its own price
  const JUDGE = usd(2 * 2 * 817, 1, 2 * 2 * 2 * 400, 5);

  it("don't move while a blind run's labels answer one by one, and show what it cost once it ends", async () => {
    await scriptModel(stub, "gpt-4.1", [{ text: "Hello.", tokensIn: 1, tokensOut: 50 }]);
    await scriptModel(stub, "gemini-2.5-flash", [
      { text: "Hi there.", tokensIn: 1, tokensOut: 80, holdKey: "spend-caps-blind-run" },
    ]);
    const base = await spendNow();
    const id = await createRun({
      question: "Hi",
      models: [{ id: "openai:gpt-4.1" }, { id: "google:gemini-2.5-flash" }],
      settings: { autoEvaluate: false, maxTokens: 100 },
    });
    const socket = await openSocket(id, 0);
    try {
      await socket.waitFor("answer.completed");
      await waitForHeld(stub, "spend-caps-blind-run");
      // One label has answered and been paid for: the figures still show only what was set aside for the run.
      const during = await spendNow();
      expect(during).toMatchObject({ spentUsd: base.spentUsd, unknownCostCalls: base.unknownCostCalls });
      expect(during.reservedUsd - base.reservedUsd).toBeCloseTo(usd(1, 2, 100, 8) + usd(1, 0.3, 100, 2.5), 12);
      // Nor does the run's own total, in its page or in the history.
      expect((await getRun(id)).totals).toMatchObject({ costUsd: null, unknownCostModels: 0 });
      const history = (await (await request("/runs")).json()) as { items: { id: string; costUsd: number | null }[] };
      expect(history.items.find((i) => i.id === id)?.costUsd).toBeNull();
      await releaseHold(stub, "spend-caps-blind-run");
    } finally {
      socket.close();
    }
    const run = await finished(id);
    const after = await reservedSettles(base.reservedUsd);
    expect(run.totals.costUsd).toBeCloseTo(usd(1, 2, 50, 8) + usd(1, 0.3, 80, 2.5), 12);
    expect(after.spentUsd - base.spentUsd).toBeCloseTo(run.totals.costUsd!, 12);
  });

  it("move by the same price-independent amount for every blind comparison, whichever pair it drew and sides it has, and refusals read the same", async () => {
    const reply = "Same length reply.";
    await scriptModel(stub, "gemini-2.5-pro", [
      { text: reply, tokensIn: 300, tokensOut: 200 },
      { text: reply, tokensIn: 300, tokensOut: 200 },
    ]);
    await scriptModel(stub, "claude-haiku-4-5", [
      { text: reply, tokensIn: 50, tokensOut: 600 },
      { text: reply, tokensIn: 50, tokensOut: 600 },
    ]);
    await scriptModel(stub, "gpt-4.1", [
      { text: reply, tokensIn: 500, tokensOut: 100 },
      { text: reply, tokensIn: 500, tokensOut: 100 },
    ]);
    const base = await spendNow();
    const ids: string[] = [];
    for (let i = 0; i < 2; i++) {
      const res = await withSettings("/comparisons", POOL, { method: "POST", json: { prompt: "Tell me a joke." } });
      expect(res.status).toBe(201);
      const id = ((await res.json()) as { id: string }).id;
      ids.push(id);
      expect((await settled(id)).comparison.status).toBe("ready");
      // Answered, and paid for: the figures show only the hold, never what the sides cost.
      expect(await spendNow()).toMatchObject({ spentUsd: base.spentUsd, unknownCostCalls: base.unknownCostCalls });
      expect((await spendNow()).reservedUsd - base.reservedUsd).toBeCloseTo((i + 1) * HOLD, 12);
    }
    // A judge that is one of the sides is left out, and set aside all the same.
    for (const id of ids)
      expect((await postTo(id, "judge", { judges: ["anthropic:claude-haiku-4-5"] })).status).toBe(202);
    expect((await spendNow()).reservedUsd - base.reservedUsd).toBeCloseTo(2 * HOLD + 2 * JUDGE, 12);
    expect((await spendNow()).spentUsd).toBe(base.spentUsd);

    // Near the day's cap, both are refused in the same words, with no model, price or side in them.
    const cap = { QUORUM_MAX_DAY_USD: String(await used()) };
    const texts = [];
    for (const id of ids) {
      const res = await withSettings(`/comparisons/${id}/messages`, cap, {
        method: "POST",
        json: { content: "Another?" },
      });
      expect(res.status).toBe(429);
      texts.push(((await res.json()) as Refusal).error.message);
    }
    expect(texts[0]).toBe(texts[1]);
    for (const name of ["gemini", "haiku", "gpt", "google", "anthropic", "openai", "left", "right"])
      expect(texts[0].toLowerCase()).not.toContain(name);

    // The vote reveals the first: from then on it counts at what it cost, judge included.
    await castVote(ids[0], "tie");
    const revealed = await reservedSettles(base.reservedUsd + HOLD + JUDGE, 10_000);
    const totals = (await getComparison(ids[0])).totals!;
    expect(totals.costUsd).toBeGreaterThan(0);
    expect(revealed.spentUsd - base.spentUsd).toBeCloseTo(totals.costUsd, 12);
    expect((await getComparison(ids[1])).totals).toBeNull();
  });
});

/** A POST to one of a comparison's actions, as a deployment with the tests' own settings gets it. */
function postTo(id: string, action: string, json: unknown) {
  return withSettings(`/comparisons/${id}/${action}`, {}, { method: "POST", json });
}

describe("spend holds over time", () => {
  it("are dropped by the sweep once they can count no more, except blind work still waiting for its reveal", async () => {
    const day = 86_400_000;
    const today = Math.floor(Date.now() / day) * day;
    const hold = (id: string, at: number, settled: boolean, hidden: boolean) =>
      env.DB.prepare(
        "INSERT INTO spend_holds (id, item_id, day, usd, hidden, created_at, expires_at, settled_at) VALUES (?1, ?1, ?2, 1, ?3, ?2, ?4, ?5)",
      ).bind(id, at, hidden ? 1 : 0, at + 60_000, settled ? at + 1_000 : null);
    await env.DB.batch([
      hold("prune-settled", today - 3 * day, true, false),
      hold("prune-expired", today - 3 * day, false, false),
      hold("prune-blind", today - 3 * day, true, true),
      hold("prune-yesterday", today - day, true, false),
    ]);
    await sweepUnfinished(env);
    const left = await env.DB.prepare("SELECT id FROM spend_holds WHERE id LIKE 'prune-%' ORDER BY id").all<{
      id: string;
    }>();
    expect(left.results.map((r) => r.id)).toEqual(["prune-blind", "prune-yesterday"]);
  });
});
