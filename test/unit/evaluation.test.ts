import { describe, expect, it } from "vitest";
import {
  MAX_EVALUATION_SHARDS,
  providerCap,
  ROOM_MAX_IN_FLIGHT,
  roomProviderCap,
  shardCaps,
  shardCount,
  itemShards,
  shardWeights,
} from "../../worker/evaluation/concurrency";
import { estimateItem } from "../../worker/evaluation/estimate";
import { buildPairwiseJudgeRequest, parsePairwiseVerdict } from "../../worker/evaluation/judge-prompt";
import { callsOfItem, judgedPairs, type PairwisePlan } from "../../worker/evaluation/plan";
import { battlesOf, favouredBy, isFlip, type Judgment } from "../../worker/evaluation/verdicts";
import { readPacket } from "../../worker/providers/demo";
import { judgeFivePoint } from "../../worker/providers/demo/review";

const j = (first: string, second: string, verdict: Judgment["verdict"]): Judgment => ({ first, second, verdict });

describe("arena-hard-auto's count of a five-point verdict", () => {
  it("gives three battles to a strong winner, one to a plain winner, one tie for a tie", () => {
    expect(battlesOf(j("x", "y", "A>>B"))).toEqual(Array(3).fill({ modelA: "x", modelB: "y", winner: "model_a" }));
    expect(battlesOf(j("x", "y", "A>B"))).toEqual([{ modelA: "x", modelB: "y", winner: "model_a" }]);
    expect(battlesOf(j("x", "y", "A=B"))).toEqual([{ modelA: "x", modelB: "y", winner: "tie" }]);
    expect(battlesOf(j("x", "y", "B>A"))).toEqual([{ modelA: "x", modelB: "y", winner: "model_b" }]);
    expect(battlesOf(j("x", "y", "B>>A"))).toEqual(Array(3).fill({ modelA: "x", modelB: "y", winner: "model_b" }));
  });

  it("counts a pair's two orders as two games: y strongly better both ways is six battles for y", () => {
    const games = [...battlesOf(j("x", "y", "B>>A")), ...battlesOf(j("y", "x", "A>>B"))];
    const winners = games.map((g) => (g.winner === "model_a" ? g.modelA : g.modelB));
    expect(winners).toEqual(Array(6).fill("y"));
  });

  it("finds a flip when the two orders favour opposite contestants, and only then", () => {
    // A judge that always prefers the answer shown first.
    expect(isFlip(j("x", "y", "A>B"), j("y", "x", "A>>B"))).toBe(true);
    expect(isFlip(j("x", "y", "A>B"), j("y", "x", "B>A"))).toBe(false);
    expect(isFlip(j("x", "y", "A>B"), j("y", "x", "A=B"))).toBe(false);
    expect(isFlip(j("x", "y", "A=B"), j("y", "x", "A=B"))).toBe(false);
    expect([favouredBy(j("x", "y", "B>A")), favouredBy(j("x", "y", "A=B"))]).toEqual(["y", null]);
  });
});

const plan = (over: Partial<PairwisePlan> = {}): PairwisePlan => ({
  contestants: [
    { id: "openai:base", modelId: "openai:base" },
    { id: "anthropic:good", modelId: "anthropic:good" },
    { id: "google:other", modelId: "google:other" },
  ],
  baseline: "openai:base",
  judges: ["openai:judge"],
  repeats: 1,
  ...over,
});

describe("an evaluation's calls", () => {
  it("pairs each contestant with the baseline, or every pair without one", () => {
    expect(judgedPairs(plan())).toEqual([
      ["openai:base", "anthropic:good"],
      ["openai:base", "google:other"],
    ]);
    expect(judgedPairs(plan({ baseline: null }))).toHaveLength(3);
  });

  it("names every call by what it is, each pair in both orders, per sample", () => {
    const calls = callsOfItem(plan({ repeats: 2 }), "q7");
    expect(calls.answers.map((a) => a.id)).toEqual([
      "answer:q7:openai:base:0",
      "answer:q7:anthropic:good:0",
      "answer:q7:google:other:0",
      "answer:q7:openai:base:1",
      "answer:q7:anthropic:good:1",
      "answer:q7:google:other:1",
    ]);
    expect(calls.judges).toHaveLength(2 * 2 * 2);
    expect(calls.judges[0]).toEqual({
      id: "judge:q7:0:openai:judge:openai:base:anthropic:good",
      judge: "openai:judge",
      sample: 0,
      first: "openai:base",
      second: "anthropic:good",
      answers: ["answer:q7:openai:base:0", "answer:q7:anthropic:good:0"],
    });
    expect(calls.judges[1].id).toBe("judge:q7:0:openai:judge:anthropic:good:openai:base");
  });

  it("leaves out a judge's pairs with its own answer, a preset on its model included", () => {
    const withPreset = plan({
      contestants: [
        { id: "openai:base", modelId: "openai:base" },
        { id: "preset:terse@1", modelId: "openai:judge" },
        { id: "google:other", modelId: "google:other" },
      ],
    });
    const calls = callsOfItem(withPreset, "q1");
    expect(calls.selfSkipped).toBe(2);
    expect(calls.judges.map((c) => [c.first, c.second])).toEqual([
      ["openai:base", "google:other"],
      ["google:other", "openai:base"],
    ]);
  });
});

describe("the judge's prompt and verdict", () => {
  it("shows the reference and rubric when given, and the answers as A and B", () => {
    const req = buildPairwiseJudgeRequest({
      prompt: "What is 2+2?",
      turns: null,
      reference: "4",
      rubric: "Exactness first.",
      a: "four",
      b: "five",
    });
    expect(req.prompt).toContain("## Reference answer\n\n```\n4\n```");
    expect(req.prompt).toContain("## What matters most here\n\n```\nExactness first.\n```");
    expect(readPacket(req.prompt)).toEqual({
      question: "What is 2+2?",
      answers: [
        { label: "A", text: "four" },
        { label: "B", text: "five" },
      ],
    });
    expect(req.schema).toMatchObject({ required: ["reasons", "verdict"] });
  });

  it("accepts the five verdicts and refuses anything else", () => {
    expect(parsePairwiseVerdict('{"reasons":"A is exact","verdict":"A>>B"}')).toEqual({
      ok: true,
      value: { verdict: "A>>B", reasons: "A is exact" },
    });
    expect(parsePairwiseVerdict('```json\n{"reasons":"tie","verdict":"A=B"}\n```')).toMatchObject({ ok: true });
    expect(parsePairwiseVerdict('{"reasons":"x","verdict":"A>>>B"}')).toMatchObject({ ok: false });
    expect(parsePairwiseVerdict('{"verdict":"A>B"}')).toEqual({ ok: false, error: "reasons must be a string" });
    expect(parsePairwiseVerdict("A>B")).toEqual({ ok: false, error: "the judge's output is not JSON" });
  });
});

describe("the demo's five-point judge", () => {
  it("gives a strong verdict to a visibly better answer, whichever side it is on", () => {
    const good = [
      "## Tides",
      "",
      "Tides come from the Moon's gravity pulling the oceans, with the Sun adding a smaller pull.",
      "",
      "- Two high tides a day, as the Earth turns under two bulges.",
      "- Spring tides when Sun and Moon line up; neap tides at right angles.",
      "",
      "In short: the Moon leads, the Sun helps, the Earth's turn sets the rhythm.",
    ].join("\n");
    const poor = "tides.";
    const ask = (a: string, b: string) =>
      judgeFivePoint(
        "thorough",
        readPacket(
          buildPairwiseJudgeRequest({ prompt: "How do tides work?", turns: null, reference: null, rubric: null, a, b })
            .prompt,
        ),
      ).verdict;
    expect(ask(good, poor)).toBe("A>>B");
    expect(ask(poor, good)).toBe("B>>A");
    expect(ask(good, good)).toBe("A=B");
  });
});

describe("an evaluation's limits", () => {
  it("caps each provider within the room's six calls in flight, and over every room at its own cap", () => {
    const caps = new Map([
      ["openai", 8],
      ["anthropic", 2],
    ]);
    expect(ROOM_MAX_IN_FLIGHT).toBe(6);
    const room = (p: string) => roomProviderCap(caps, p);
    expect([room("openai"), room("anthropic"), room("google")]).toEqual([6, 2, 4]);
    // The provider's own cap stays as set: above six it is reached by spreading the evaluation over rooms.
    expect([providerCap(caps, "openai"), providerCap(caps, "anthropic"), providerCap(caps, "google")]).toEqual([
      8, 2, 4,
    ]);
  });

  it("spreads caps that add up to more than six over rooms of six at most, each provider's shares adding up to its cap", () => {
    const caps = new Map([
      ["openai", 12],
      ["google", 1],
    ]);
    // Within six: one room, as before.
    expect(shardCount(new Map(), ["openai"], 100)).toBe(1);
    expect(shardCount(new Map([["openai", 6]]), ["openai"], 100)).toBe(1);
    // Twelve: two rooms of six.
    expect(shardCount(caps, ["openai"], 100)).toBe(2);
    expect(shardCaps(caps, ["openai"], 2).map((m) => Object.fromEntries(m))).toEqual([{ openai: 6 }, { openai: 6 }]);
    // Twelve and anthropic's default four: sixteen, three rooms; every room gets a slot of each provider.
    const three = shardCaps(caps, ["openai", "anthropic"], shardCount(caps, ["openai", "anthropic"], 100));
    expect(three.map((m) => Object.fromEntries(m))).toEqual([
      { anthropic: 2, openai: 4 },
      { anthropic: 1, openai: 4 },
      { anthropic: 1, openai: 4 },
    ]);
    // Never more rooms than items, than the most, or than the smallest cap (each room needs a slot of every provider).
    expect(shardCount(caps, ["openai"], 1)).toBe(1);
    expect(shardCount(new Map([["openai", 100]]), ["openai"], 1000)).toBe(MAX_EVALUATION_SHARDS);
    expect(shardCount(caps, ["openai", "google"], 100)).toBe(1);
  });

  it("gives a shard a share of the items by how fast its caps let it go, round-robin when they are equal", () => {
    expect(itemShards(5, [1, 1])).toEqual([0, 1, 0, 1, 0]);
    // openai=12 and anthropic's 4 over three rooms, each item one call to each: anthropic binds, 2 : 1 : 1.
    const caps = [
      { anthropic: 2, openai: 4 },
      { anthropic: 1, openai: 4 },
      { anthropic: 1, openai: 4 },
    ].map((c) => new Map(Object.entries(c)));
    const weights = shardWeights(
      caps,
      new Map([
        ["openai", 1],
        ["anthropic", 1],
      ]),
    );
    expect(weights).toEqual([2, 1, 1]);
    const split = itemShards(400, weights);
    expect([0, 1, 2].map((k) => split.filter((s) => s === k).length)).toEqual([200, 100, 100]);
    // Every shard gets an item before any gets two, and the same input splits the same way.
    expect(split.slice(0, 3)).toEqual([0, 1, 2]);
    expect(itemShards(400, weights)).toEqual(split);
    // The room's six bind when the caps add up to more (a small provider kept the rooms few).
    expect(shardWeights([new Map([["openai", 12]])], new Map([["openai", 3]]))).toEqual([2]);
  });

  it("deals odd caps so no room passes six", () => {
    const caps = new Map([
      ["a", 5],
      ["b", 5],
      ["c", 2],
    ]);
    const shards = shardCaps(caps, ["a", "b", "c"], shardCount(caps, ["a", "b", "c"], 10));
    const total = (m: Map<string, number>) => [...m.values()].reduce((s, n) => s + n, 0);
    expect(shards.map(total)).toEqual([6, 6]);
    for (const p of ["a", "b", "c"]) expect(shards.reduce((s, m) => s + (m.get(p) ?? 0), 0)).toBe(caps.get(p));
  });

  it("estimates an item from its prompt and every call's full allowance", () => {
    const env = { QUORUM_PRICES: "openai:base=1:2,anthropic:good=1:2,google:other=1:2,openai:judge=10:20" };
    const one = estimateItem(
      env,
      { ...plan(), params: {}, maxTokens: 100 },
      { prompt: "x".repeat(300), reference: null, turns: null },
    );
    // Answers: 3 × (100 in + 100 out); judge: 4 calls × 2 rounds × (700 + 100 + 200 in, 1500 out).
    const answers = 3 * ((100 * 1 + 100 * 2) / 1e6);
    const judges = 4 * ((2 * 1000 * 10 + 2 * 1500 * 20) / 1e6);
    expect(one.unpriced).toEqual([]);
    expect(one.usd).toBeCloseTo(answers + judges, 12);
  });
});
