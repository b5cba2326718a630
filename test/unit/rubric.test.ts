import { describe, expect, it } from "vitest";
import { parseReview } from "../../worker/council/parse-review";
import { reviewRoster } from "../../worker/council/reviewers";
import { aggregate } from "../../worker/rating/borda";
import { overallOf, scoringOf, shownScoreKeys } from "../../worker/shared/rubric";
import { SCORE_KEYS } from "../../worker/shared/run";

const RUBRIC = {
  dimensions: [
    { key: "accuracy", description: "Are the facts right?", weight: 2 },
    { key: "tone", description: "Is it friendly?", weight: 1 },
  ],
  categoryWeights: { chat: { tone: 3 } },
};

describe("a run's scoring (shared/rubric.ts)", () => {
  it("is the six default keys, the reviewer's own overall and correctness as tie key, without a rubric", () => {
    const s = scoringOf({});
    expect(s).toMatchObject({ keys: [...SCORE_KEYS], descriptions: null, askedOverall: true, tieKey: "correctness" });
    expect(overallOf(s, { overall: 4, correctness: 9 })).toBe(4);
    expect(shownScoreKeys(s)).toEqual([...SCORE_KEYS]);
  });

  it("weighs a custom rubric's dimensions, the category's own weights first, and breaks ties by the heaviest", () => {
    const plain = scoringOf({ rubric: RUBRIC });
    expect(plain).toMatchObject({ keys: ["accuracy", "tone"], weights: { accuracy: 2, tone: 1 }, tieKey: "accuracy" });
    expect(overallOf(plain, { accuracy: 9, tone: 3 })).toBe(7); // (2·9 + 3) / 3
    const chat = scoringOf({ rubric: RUBRIC, category: "chat" });
    expect(chat).toMatchObject({ weights: { accuracy: 2, tone: 3 }, tieKey: "tone" });
    expect(overallOf(chat, { accuracy: 9, tone: 3 })).toBe(5.4); // (2·9 + 3·3) / 5
    expect(scoringOf({ rubric: RUBRIC, category: "math" }).weights).toEqual({ accuracy: 2, tone: 1 });
    expect(shownScoreKeys(plain)).toEqual(["accuracy", "tone", "overall"]);
  });
});

describe("reviews by a custom rubric", () => {
  const scoring = scoringOf({ rubric: RUBRIC });
  const raw = (scores: Record<string, unknown>[], ranking = ["A", "B"]) =>
    JSON.stringify({
      reviews: scores.map((s, i) => ({ label: "ABC"[i], critique: "…", scores: s })),
      ranking,
      confidence: 0.5,
    });

  it("parse the rubric's keys only, and refuse a review missing one", () => {
    const out = parseReview(
      raw([
        { accuracy: 8, tone: "6", extra: 1 },
        { accuracy: 5, tone: 5 },
      ]),
      ["A", "B"],
      scoring,
    );
    expect(out.ok && out.review.reviews.map((r) => r.scores)).toEqual([
      { accuracy: 8, tone: 6 },
      { accuracy: 5, tone: 5 },
    ]);
    expect(parseReview(raw([{ accuracy: 8 }, { accuracy: 5, tone: 5 }]), ["A", "B"], scoring)).toEqual({
      ok: false,
      error: "reviews[0].scores.tone is missing",
    });
  });

  it("append unranked answers by the weighted overall", () => {
    // A: (2·7 + 1) / 3 = 5, B: (2·3 + 8) / 3 = 4.67; unweighted B would lead, 5.5 to 4.
    const reviews = [
      { accuracy: 7, tone: 1 },
      { accuracy: 3, tone: 8 },
      { accuracy: 10, tone: 10 },
    ];
    const out = parseReview(raw(reviews, ["C"]), ["A", "B", "C"], scoring);
    expect(out.ok && out.review.ranking).toEqual(["C", "A", "B"]);
  });

  it("count into means per key and a weighted overall, tie-broken by the heaviest key", () => {
    const ballot = (id: string, ranking: string[], a: number[], b: number[]) => ({
      reviewSetId: id,
      reviewerLabel: null,
      weight: 1,
      ranking,
      scores: { A: { accuracy: a[0], tone: a[1] }, B: { accuracy: b[0], tone: b[1] } },
    });
    const result = aggregate({
      answers: [
        { label: "A", answerId: "a", modelId: "m:a" },
        { label: "B", answerId: "b", modelId: "m:b" },
      ],
      // Borda ties 1–1; overall ties at 6 each ((2·6 + 6) / 3 and (2·5 + 8) / 3); accuracy 6 to 5 decides.
      ballots: [ballot("j1", ["A", "B"], [6, 6], [5, 8]), ballot("j2", ["B", "A"], [6, 6], [5, 8])],
      selfReview: "exclude",
      selfReviewWeight: 0.5,
      scoring,
    });
    expect(result.voteBreakdown.scoreMeans).toEqual({
      A: { accuracy: 6, tone: 6, overall: 6 },
      B: { accuracy: 5, tone: 8, overall: 6 },
    });
    expect(result.voteBreakdown.tieBreaks).toEqual([{ labels: ["A", "B"], decidedBy: "meanDimension" }]);
    expect(result.voteBreakdown.tieKey).toBe("accuracy");
    expect(result.finalRanking.map((e) => [e.label, e.meanCorrectness])).toEqual([
      ["A", null],
      ["B", null],
    ]);
  });
});

describe("the review roster (council/reviewers.ts)", () => {
  const answers = [
    { id: "r-a", label: "B", modelId: "m:one", status: "done" },
    { id: "r-b", label: "A", modelId: "m:two", status: "done" },
    { id: "r-c", label: "C", modelId: "m:three", status: "failed" },
  ];

  it("is every model that answered, as before, when the run lists no reviewers", () => {
    expect(reviewRoster("r", answers, { selfReview: "exclude" })).toEqual([
      { id: "r-rB", modelId: "m:one", answerId: "r-a", judged: ["A"] },
      { id: "r-rA", modelId: "m:two", answerId: "r-b", judged: ["B"] },
    ]);
    expect(reviewRoster("r", answers.slice(0, 1), { selfReview: "exclude" })).toEqual([]);
  });

  it("is the listed models: answerers by label keep the self-review rule, judge-only ones judge every answer", () => {
    const roster = reviewRoster("r", answers, { selfReview: "exclude", reviewers: ["m:judge", "m:three", "m:one"] });
    expect(roster).toEqual([
      { id: "r-rB", modelId: "m:one", answerId: "r-a", judged: ["A"] },
      // Its own answer failed, so it has none to skip.
      { id: "r-rC", modelId: "m:three", answerId: "r-c", judged: ["B", "A"] },
      { id: "r-j1", modelId: "m:judge", answerId: null, judged: ["B", "A"] },
    ]);
    expect(reviewRoster("r", answers.slice(0, 1), { selfReview: "exclude", reviewers: ["m:one", "m:judge"] })).toEqual([
      { id: "r-j2", modelId: "m:judge", answerId: null, judged: ["B"] },
    ]);
  });
});
