import { env } from "cloudflare:test";
import { hc } from "hono/client";
import { describe, expect, inject, it } from "vitest";
import app, { type AppType } from "../../worker/index";
import { labelPass } from "../../worker/rooms/label-pass";
import { castVote, createComparison, leaderboard, rowsOf, settled, withdraw } from "../helpers/arena";
import { referenceElo } from "../helpers/arena-reference";
import { ok } from "../helpers/client";
import { api } from "../helpers/runs";
import { BASE } from "../helpers/sockets";
import { callsFor, scriptModel } from "../helpers/stub-client";

const stub = inject("stubUrl");

const CLASSIFIER = "demo:concise";

/** The Worker as it runs with `vars` set on top of the tests' own settings. */
function configured(vars: Record<string, string>) {
  const withVars = { ...env, ...vars };
  return {
    env: withVars,
    client: hc<AppType>(BASE, {
      fetch: (input: RequestInfo | URL, init?: RequestInit) => app.request(input, init, withVars),
    }).api,
  };
}

const withClassifier = configured({ QUORUM_CLASSIFIER: CLASSIFIER });

async function labelsOf(ref: string): Promise<Record<string, string>> {
  const { results } = await env.DB.prepare("SELECT label, source FROM prompt_labels WHERE ref = ? ORDER BY label")
    .bind(ref)
    .all<{ label: string; source: string }>();
  return Object.fromEntries(results.map((r) => [r.label, r.source]));
}

async function importLines(lines: unknown[], query: string, client = withClassifier.client) {
  const res = await client.battles.import.$post(
    { query: Object.fromEntries(new URLSearchParams(query)) },
    {
      init: {
        body: lines.map((l) => JSON.stringify(l)).join("\n"),
        headers: { "content-type": "application/x-ndjson" },
      },
    },
  );
  if (res.status !== 200) throw new Error(`import answered ${res.status}: ${await res.text()}`);
  return res.json();
}

const conversation = (...userTurns: string[]) =>
  userTurns.flatMap((content) => [
    { role: "user", content },
    { role: "assistant", content: "An answer." },
  ]);

const countOf = (labels: { label: string; prompts: number }[], label: string) =>
  labels.find((l) => l.label === label)?.prompts ?? 0;

const CODING = "Write a Python function that reverses a linked list in place and explain its complexity.";
const CHAT = "What is a good name for a friendly golden retriever puppy?";

describe("prompt labels", () => {
  it("label a voted arena comparison in the label pass, with the demo as classifier, each label with its source", async () => {
    const { id } = await createComparison({ prompt: CODING, models: ["demo:thorough", "demo:skeptic"] });
    await settled(id);
    const pending = () =>
      env.DB.prepare("SELECT hash, text, pending_since AS pendingSince FROM prompts WHERE ref = ?")
        .bind(id)
        .first<{ hash: string; text: string | null; pendingSince: number | null }>();
    expect(await pending()).toBeNull();
    const { reveal, voteId, receipt } = await castVote(id, "left");
    const [left, right] = [reveal.left.modelId, reveal.right.modelId];
    // The first vote queues the prompt; nothing is labelled on the vote's path.
    expect(await pending()).toMatchObject({ text: `${CODING}\n`, pendingSince: expect.any(Number) });
    expect(await labelsOf(id)).toEqual({});
    // Read (and cached) before the pass: the labels it adds change the data's version, so the next read sees them.
    expect((await leaderboard({ label: "coding" })).totalBattles).toBe(0);

    const pass = await labelPass(withClassifier.env);
    expect(pass).toEqual({ labelled: 1, classified: 1, failed: 0, skipped: null });
    expect(await labelsOf(id)).toEqual({ coding: CLASSIFIER, "lang:en": "rule" });
    // Off the queue, its text dropped; the hash stays for dedup.
    expect(await pending()).toMatchObject({
      text: null,
      pendingSince: null,
      hash: expect.stringMatching(/^[0-9a-f]{16}$/),
    });
    const spent = await env.DB.prepare(
      "SELECT kind, model_id AS modelId, tokens_in AS tokensIn, cost_usd AS costUsd FROM spend_entries WHERE item_id = ?",
    )
      .bind(id)
      .all();
    expect(spent.results).toEqual([
      { kind: "classifier", modelId: CLASSIFIER, tokensIn: expect.any(Number), costUsd: 0 },
    ]);
    expect(await labelPass(withClassifier.env)).toEqual({ labelled: 0, classified: 0, failed: 0, skipped: null });

    const coding = await leaderboard({ label: "coding" });
    expect(coding.label).toBe("coding");
    expect(coding.totalBattles).toBe(1);
    expect(rowsOf(coding, [left, right])).toMatchObject({
      [left]: { wins: 1, appearances: 1, battles: 1 },
      [right]: { wins: 0, appearances: 1, battles: 1 },
    });
    expect(coding.labels).toEqual(
      expect.arrayContaining([
        { label: "coding", prompts: 1 },
        { label: "lang:en", prompts: 1 },
      ]),
    );
    const math = await leaderboard({ label: "math" });
    expect([math.rows, math.totalBattles]).toEqual([[], 0]);

    // The label's counters follow the comparison's battles: a withdrawal takes its battle back, and a new vote
    // (flagged: the names were shown) counts under the label only when flagged votes are asked for.
    expect((await withdraw(voteId, receipt)).status).toBe(200);
    expect((await leaderboard({ label: "coding" })).totalBattles).toBe(0);
    await castVote(id, "right");
    const flagged = await leaderboard({ label: "coding" });
    expect([flagged.totalBattles, flagged.excludedFlagged]).toEqual([0, 1]);
    const included = await leaderboard({ label: "coding", includeFlagged: "true" });
    expect(rowsOf(included, [right])[right]).toMatchObject({ wins: 1, battles: 1 });
  });

  it("give rule labels only when no classifier is set", async () => {
    const { id } = await createComparison({
      prompt: "请解释一下量子计算的基本原理",
      models: ["demo:thorough", "demo:concise"],
    });
    await settled(id);
    await castVote(id, "tie");
    expect(await labelPass(env)).toEqual({ labelled: 1, classified: 0, failed: 0, skipped: null });
    expect(await labelsOf(id)).toEqual({ "lang:zh": "rule" });
  });

  it("label imported battles by the log's own tags, rules and the classifier, and filter the leaderboard by them", async () => {
    const [a, b] = ["lbl-coder", "lbl-chatter"];
    const t = 1_700_000_000;
    const lines = [
      // The coder wins every coding prompt, the chatter every other one.
      ...Array.from({ length: 4 }, (_, i) => ({
        model_a: a,
        model_b: b,
        winner: "model_a",
        tstamp: t + i,
        language: "English",
        conversation_a: conversation(`${CODING} Variant ${i}.`),
      })),
      ...Array.from({ length: 6 }, (_, i) => ({
        model_a: a,
        model_b: b,
        winner: "model_b",
        tstamp: t + 10 + i,
        category: "pets",
        conversation_a: conversation(`${CHAT} Number ${i}.`),
      })),
      // lmarena's newer logs carry their categories: no classifier call for this one.
      {
        model_a: b,
        model_b: a,
        winner: "model_a",
        tstamp: t + 20,
        category: "pets",
        is_code: false,
        category_tag: { "math_v0.1": { math: true } },
        conversation_a: conversation("How many legs do 3 dogs have?", "And 4 cats?"),
      },
    ];
    const before = (await leaderboard()).labels;
    const report = await importLines(lines, "importId=labels-1");
    expect(report).toMatchObject({ accepted: 11, inserted: 11 });
    const ref = (line: number) => `import:labels-1:${line}`;
    // At import: the log's language and tags (source import), the rules' multi_turn and language.
    expect(await labelsOf(ref(1))).toEqual({ "lang:en": "import" });
    expect(await labelsOf(ref(11))).toEqual({ math: "import", multi_turn: "rule", "lang:en": "rule" });

    const pass = await labelPass(withClassifier.env);
    expect(pass).toEqual({ labelled: 10, classified: 10, failed: 0, skipped: null });
    expect(await labelsOf(ref(1))).toEqual({ coding: CLASSIFIER, "lang:en": "import" });
    expect(await labelsOf(ref(5))).toEqual({ "lang:en": "rule" });
    expect(await labelsOf(ref(11))).toEqual({ math: "import", multi_turn: "rule", "lang:en": "rule" });

    const all = await leaderboard({ source: "import" });
    expect(rowsOf(all, [a, b])).toMatchObject({ [a]: { wins: 4, battles: 11 }, [b]: { wins: 7, battles: 11 } });
    const coding = await leaderboard({ source: "import", label: "coding" });
    expect(coding.totalBattles).toBe(4);
    expect(rowsOf(coding, [a, b])).toMatchObject({
      [a]: { wins: 4, battles: 4, winRate: 100 },
      [b]: { wins: 0, battles: 4 },
    });
    expect(coding.rows[0].modelId).toBe(a);
    // Online Elo over the label's battles only, in time order.
    const codingBattles = lines.slice(0, 4).map((l) => ({ ...l, winner: "model_a" as const }));
    expect(rowsOf(coding, [a])[a].elo).toBeCloseTo(referenceElo(codingBattles)[a], 9);
    // A later import's prompt labelled by the next pass lands among the battles already replayed (its tstamp is
    // older): the label's Elo takes it in order.
    const late = { model_a: b, model_b: a, winner: "model_a", tstamp: t - 1, conversation_a: conversation(CODING) };
    await importLines([late], "importId=labels-2");
    await labelPass(withClassifier.env);
    const relabelled = await leaderboard({ source: "import", label: "coding" });
    expect(relabelled.totalBattles).toBe(5);
    const replay = referenceElo([{ ...late, winner: "model_a" as const }, ...codingBattles]);
    expect(rowsOf(relabelled, [a, b])[a].elo).toBeCloseTo(replay[a], 9);
    expect(rowsOf(relabelled, [a, b])[b].elo).toBeCloseTo(replay[b], 9);
    // The label's snapshot before the pass is gone: only the current stream's is kept.
    const streams = await env.DB.prepare(
      "SELECT stream FROM elo_snapshots WHERE stream LIKE 'import|0|#coding#%'",
    ).all<{
      stream: string;
    }>();
    expect(streams.results.map((r) => r.stream)).toEqual([`import|0|#coding#${countOf(relabelled.labels, "coding")}`]);
    const petsMath = await leaderboard({ source: "import", label: "math", category: "pets" });
    expect([petsMath.totalBattles, rowsOf(petsMath, [b])[b].wins]).toEqual([1, 1]);
    expect((await leaderboard({ source: "import", label: "coding", category: "pets" })).totalBattles).toBe(0);
    const after = coding.labels;
    expect(["coding", "math", "multi_turn"].map((l) => countOf(after, l) - countOf(before, l))).toEqual([4, 1, 1]);
  });

  it("label a Kaggle-style CSV's rows from the prompt the CSV carries", async () => {
    const csv = [
      "id,model_a,model_b,prompt,response_a,response_b,winner_model_a,winner_model_b,winner_tie",
      `1,csv-lbl-a,csv-lbl-b,"[""What is the capital of France and why is it there?"",""And of Spain?""]","[""Paris"",""Madrid""]","[""Paris."",""Madrid.""]",1,0,0`,
    ].join("\n");
    const res = await withClassifier.client.battles.import.$post(
      { query: { importId: "labels-csv" } },
      { init: { body: csv, headers: { "content-type": "text/csv" } } },
    );
    expect(res.status).toBe(200);
    const ref = "import:labels-csv:1";
    expect(await labelsOf(ref)).toEqual({ multi_turn: "rule", "lang:en": "rule" });
    const queued = await env.DB.prepare("SELECT text, turns FROM prompts WHERE ref = ?").bind(ref).first();
    expect(queued).toEqual({ text: "What is the capital of France and why is it there?\nAnd of Spain?\n", turns: 2 });
    expect(await labelPass(withClassifier.env)).toMatchObject({ labelled: 1, classified: 1 });
  });

  it("keep a prompt queued past the day's spend cap with its rule labels, and leave it with them when the classifier can't answer", async () => {
    const { id } = await createComparison({
      prompt: "Solve the equation 3x + 5 = 20.",
      models: ["demo:concise", "demo:skeptic"],
    });
    await settled(id);
    await castVote(id, "left");
    const capped = configured({ QUORUM_CLASSIFIER: CLASSIFIER, QUORUM_MAX_DAY_USD: "0" });
    expect(await labelPass(capped.env)).toEqual({
      labelled: 0,
      classified: 0,
      failed: 0,
      skipped: "the day's spend cap (QUORUM_MAX_DAY_USD) is reached",
    });
    expect(await labelsOf(id)).toEqual({ "lang:en": "rule" });
    const queued = await env.DB.prepare("SELECT pending_since AS at FROM prompts WHERE ref = ?")
      .bind(id)
      .first<{ at: number | null }>();
    expect(queued?.at).not.toBeNull();

    // A model the demo doesn't have: asking again won't mend that, so the prompt keeps its rule labels and leaves the queue.
    const missing = configured({ QUORUM_CLASSIFIER: "demo:no-such-model" });
    expect(await labelPass(missing.env)).toEqual({ labelled: 1, classified: 0, failed: 1, skipped: null });
    expect(await labelsOf(id)).toEqual({ "lang:en": "rule" });
    expect(await labelPass(withClassifier.env)).toEqual({ labelled: 0, classified: 0, failed: 0, skipped: null });
  });

  it("ask a vendor's classifier through its SDK, mask an imported secret in redact mode, keep its cost, and ask again after an outage", async () => {
    // QUORUM_PRICES prices openai:priced-custom at $1 in and $2 out per million tokens (vitest.config.ts).
    const vendor = configured({ QUORUM_CLASSIFIER: "openai:priced-custom", QUORUM_REDACT: "true" });
    const secret = "sk-proj-Tq3vX9mLw2Zr8Yb4Nc6Hd1Jf5Gk7Ps0AeUiOyRtWq";
    const line = {
      model_a: "vendor-a",
      model_b: "vendor-b",
      winner: "model_a",
      tstamp: 1_700_200_000,
      conversation_a: conversation(`Why does my script fail with the key ${secret}? Fix the code.`),
    };
    await importLines([line], "importId=vendor-1", vendor.client);
    const ref = "import:vendor-1:1";
    const failing = Array.from({ length: 4 }, () => ({ status: 500 }));
    await scriptModel(stub, "priced-custom", failing);
    expect(await labelPass(vendor.env)).toMatchObject({ labelled: 0, classified: 0, failed: 1 });
    expect(await labelsOf(ref)).toEqual({ "lang:en": "rule" });

    const answer = {
      coding: true,
      math: false,
      creative_writing: false,
      instruction_following: 5,
      criteria: [1, 2, 3, 4, 5, 6, 7],
    };
    await scriptModel(stub, "priced-custom", [{ review: answer, tokensIn: 1000, tokensOut: 50 }]);
    expect(await labelPass(vendor.env)).toEqual({ labelled: 1, classified: 1, failed: 0, skipped: null });
    expect(await labelsOf(ref)).toEqual({
      coding: "openai:priced-custom",
      hard_prompt: "openai:priced-custom",
      instruction_following: "openai:priced-custom",
      "lang:en": "rule",
    });
    const calls = await callsFor(stub, "priced-custom");
    const sent = JSON.stringify(calls.at(-1)?.body);
    expect(sent).toContain("Why does my script fail with the key");
    expect(sent).not.toContain(secret);
    const spent = await env.DB.prepare("SELECT kind, cost_usd AS costUsd FROM spend_entries WHERE item_id = ?")
      .bind(ref)
      .all<{ kind: string; costUsd: number }>();
    // The failed calls used no tokens: only the answer is paid for.
    expect(spent.results).toEqual([{ kind: "classifier", costUsd: expect.closeTo((1000 * 1 + 50 * 2) / 1e6, 12) }]);
  });

  it("refuse a label that is not one of the Arena's categories or a language", async () => {
    const res = await api("/leaderboard?label=cooking");
    expect(res.status).toBe(400);
    expect(JSON.stringify(await res.json())).toContain("label must be one of coding, math");
  });
});

describe("dedup of heavily repeated prompts (QUORUM_DEDUP_PROMPTS)", () => {
  /** Ten battles of one prompt, then one battle each of nine others: the prompt counts are [10, 1 × 9]. */
  async function repeated(importId: string, a: string, b: string) {
    const t = 1_700_100_000;
    const lines = [
      ...Array.from({ length: 10 }, (_, i) => ({
        model_a: a,
        model_b: b,
        winner: "model_a",
        tstamp: t + i,
        conversation_a: conversation("hi"),
      })),
      ...Array.from({ length: 9 }, (_, i) => ({
        model_a: a,
        model_b: b,
        winner: "model_b",
        tstamp: t + 20 + i,
        conversation_a: conversation(`question ${i}`),
      })),
    ];
    await importLines(
      lines.map((l) => ({ ...l, category: importId, language: "Klingon" })),
      `importId=${importId}`,
      configured({}).client,
    );
  }

  it("is off by default, caps a prompt at a fixed count, and says how many battles it removed", async () => {
    const [a, b] = ["dd-a", "dd-b"];
    await repeated("dedup-fixed", a, b);
    const plain = await leaderboard({ source: "import", category: "dedup-fixed" });
    expect([plain.dedup, rowsOf(plain, [a])[a].battles]).toEqual([null, 19]);
    const capped = await ok(
      configured({ QUORUM_DEDUP_PROMPTS: "3" }).client.leaderboard.$get({
        query: { source: "import", category: "dedup-fixed" },
      }),
    );
    expect(capped.dedup).toEqual({ cap: 3, removed: 7 });
    expect(capped.totalBattles).toBe(12);
    expect(rowsOf(capped, [a, b])).toMatchObject({ [a]: { wins: 3, battles: 12 }, [b]: { wins: 9, battles: 12 } });
    // In a label's view the prompts are counted over the label's battles: the same here, every line is Klingon.
    const labelled = await ok(
      configured({ QUORUM_DEDUP_PROMPTS: "3" }).client.leaderboard.$get({
        query: { source: "import", category: "dedup-fixed", label: "lang:klingon" },
      }),
    );
    expect([labelled.dedup, labelled.totalBattles]).toEqual([{ cap: 3, removed: 7 }, 12]);
  });

  it("counts a voted comparison's prompt as asked once per counted battle, through withdrawals and new votes", async () => {
    const dedup = configured({ QUORUM_DEDUP_PROMPTS: "1" }).client;
    const read = () => ok(dedup.leaderboard.$get({ query: { category: "dedup-votes" } }));
    const voted = [];
    for (let i = 0; i < 2; i++) {
      const { id } = await createComparison({
        prompt: "Tell me a joke about penguins.",
        models: ["demo:concise", "demo:thorough"],
        category: "dedup-votes",
      });
      await settled(id);
      voted.push(await castVote(id, "left"));
    }
    expect([(await read()).dedup, (await read()).totalBattles]).toEqual([{ cap: 1, removed: 1 }, 1]);
    const [first] = voted;
    expect((await withdraw(first.voteId, first.receipt)).status).toBe(200);
    expect([(await read()).dedup, (await read()).totalBattles]).toEqual([{ cap: 1, removed: 0 }, 1]);
    const repeats = await env.DB.prepare(
      "SELECT sum(battles) AS n FROM prompt_repeats WHERE source = 'human' AND category = 'dedup-votes' AND flagged = 0",
    ).first<{ n: number }>();
    expect(repeats?.n).toBe(1);
  });

  it("caps prompts past the 99.9th percentile of the prompts' counts the Arena's way", async () => {
    const [a, b] = ["dd-c", "dd-d"];
    await repeated("dedup-arena", a, b);
    const arena = await ok(
      configured({ QUORUM_DEDUP_PROMPTS: "arena" }).client.leaderboard.$get({
        query: { source: "import", category: "dedup-arena" },
      }),
    );
    // Ten prompts' counts sorted are [1 × 9, 10]: the percentile lies at 0.999 × 9 = 8.991, between 1 and 10, at 9.919.
    expect(arena.dedup).toEqual({ cap: 9, removed: 1 });
    expect(rowsOf(arena, [a])[a]).toMatchObject({ wins: 9, battles: 18 });
  });
});
