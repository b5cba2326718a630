import { describe, expect, it } from "vitest";
import { draftRevision } from "../../worker/providers/demo/revision";
import {
  buildRevisionRequest,
  lostItems,
  parseRevision,
  REVISION_ITEMS,
  REVISION_TEXT_CHARS,
  type RevisionJudgment,
} from "../../worker/evaluation/revision-prompt";
import { reviewGames } from "../../worker/evaluation/revision-reviews";

const P = "preset:p@1";
const game = (itemId: string, first: string, second: string, verdict: RevisionJudgment["verdict"]) => ({
  itemId,
  first,
  second,
  verdict,
  reasons: `${itemId}: ${first} vs ${second} ${verdict}`,
});

describe("lostItems", () => {
  it("sums each item's games from the preset's side, keeps those below zero worst first, with the answer that beat it", () => {
    const games = [
      // q1: lost both orders strongly to B (−2 −2), tied C: −4
      game("q1", P, "B", "B>>A"),
      game("q1", "B", P, "A>>B"),
      game("q1", P, "C", "A=B"),
      // q2: lost slightly to C (−1), won over B (+1) then lost to C again (−1): −1, C beat it most
      game("q2", "C", P, "A>B"),
      game("q2", P, "B", "A>B"),
      game("q2", P, "C", "B>A"),
      // q3: won (+2)
      game("q3", P, "B", "A>>B"),
      // q4: a game the preset isn't in
      game("q4", "B", "C", "A>>B"),
    ];
    const lost = lostItems(
      P,
      games,
      (id) => `prompt ${id}`,
      (id, who) => `${who} on ${id}`,
    );
    expect(lost.map((i) => [i.itemId, i.score, i.winner])).toEqual([
      ["q1", -4, "B"],
      ["q2", -1, "C"],
    ]);
    expect(lost[0]).toMatchObject({ prompt: "prompt q1", answer: `${P} on q1`, winnerAnswer: "B on q1" });
    expect(lost[0].reasons).toEqual([`q1: ${P} vs B B>>A`, `q1: B vs ${P} A>>B`]);
  });

  it("reads at most REVISION_ITEMS items, each text cut to REVISION_TEXT_CHARS", () => {
    const games = Array.from({ length: 9 }, (_, k) => game(`q${k}`, P, "B", "B>A"));
    const long = "x".repeat(REVISION_TEXT_CHARS + 100);
    const lost = lostItems(
      P,
      games,
      () => long,
      () => long,
    );
    expect(lost).toHaveLength(REVISION_ITEMS);
    expect(lost[0].prompt).toBe(`${"x".repeat(REVISION_TEXT_CHARS)} […]`);
  });
});

describe("the revision request and the demo's draft", () => {
  const items = (reasons: string) => [
    { itemId: "q1", prompt: "Q?", score: -2, answer: "a", winner: "B", winnerAnswer: "b", reasons: [reasons] },
  ];

  it("the demo adds the instruction the reasons point to most, unless the prompt has it", () => {
    const draft = (current: string, reasons: string) =>
      draftRevision(buildRevisionRequest(current, items(reasons)).prompt);
    expect(draft("Answer plainly.", "2 headings, 5 list items and 0 code blocks").revisedPrompt).toBe(
      "Answer plainly. Use numbered steps.",
    );
    expect(draft("Use numbered steps.", "more list items; careful about claims").revisedPrompt).toBe(
      "Use numbered steps. Add a caveat where a claim is uncertain.",
    );
    expect(draft("", "the shortest reply, 12 words").revisedPrompt).toBe("Be brief.");
  });

  it("checks the drafter's output", () => {
    expect(parseRevision('{"rationale":"why","revisedPrompt":"  new  "}')).toEqual({
      ok: true,
      value: { rationale: "why", revisedPrompt: "new" },
    });
    expect(parseRevision('{"rationale":"why","revisedPrompt":""}').ok).toBe(false);
    expect(parseRevision("not json").ok).toBe(false);
  });
});

describe("reviewGames", () => {
  it("reads a council review as one game per pair, the reviewer's critique on each game the preset lost, counted once", () => {
    const review = (itemId: string, ranking: string[]) => ({
      itemId,
      reviewer: "judge",
      ranking,
      reviews: ranking.map((c) => ({ contestant: c, critique: `${c} on ${itemId}` })),
    });
    const games = reviewGames(P, [review("q1", ["B", P, "C"]), review("q2", ["B", "C", P]), review("q3", ["B", "C"])]);
    expect(games).toEqual([
      { itemId: "q1", first: "B", second: P, verdict: "A>B", reasons: `Ranked 2 of 3: ${P} on q1` },
      { itemId: "q1", first: P, second: "C", verdict: "A>B", reasons: null },
      { itemId: "q2", first: "B", second: P, verdict: "A>B", reasons: `Ranked 3 of 3: ${P} on q2` },
      { itemId: "q2", first: "C", second: P, verdict: "A>B", reasons: `Ranked 3 of 3: ${P} on q2` },
    ]);
    const lost = lostItems(
      P,
      games,
      (id) => `prompt ${id}`,
      (id, who) => `${who} on ${id}`,
    );
    // q2 (−2) before q1 (−1 + 1 = 0, not lost); the same critique twice is one reason.
    expect(lost.map((i) => [i.itemId, i.score, i.winner, i.reasons])).toEqual([
      ["q2", -2, "B", [`Ranked 3 of 3: ${P} on q2`]],
    ]);
  });
});
