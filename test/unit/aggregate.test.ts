import { describe, expect, it } from "vitest";
import { aggregate, METHOD_VERSION, type AggregateInput, type Ballot } from "../../worker/rating/borda";
import { aggregationView, type Scores } from "../../worker/shared/run";

/** Scores where only overall and correctness matter; the other keys are a flat 5 so they cannot break ties. */
const score = (overall: number, correctness = overall): Scores => ({
  correctness,
  completeness: 5,
  clarity: 5,
  helpfulness: 5,
  safety: 5,
  overall,
});

const answers = (...labels: string[]): AggregateInput["answers"] =>
  labels.map((label) => ({ label, answerId: `ans-${label}`, modelId: `demo:m-${label}` }));

/** A ballot from the model that wrote `reviewerLabel` (null: a reviewer with no answer of its own). */
function ballot(
  reviewerLabel: string | null,
  ranking: string[],
  scores: Record<string, Scores> = {},
  weight = 1,
): Ballot {
  return { reviewSetId: `rs-${reviewerLabel ?? "x"}`, reviewerLabel, weight, ranking, scores };
}

const exclude = (input: Pick<AggregateInput, "answers" | "ballots">): AggregateInput => ({
  ...input,
  selfReview: "exclude",
  selfReviewWeight: 0.5,
});
const downweight = (input: Pick<AggregateInput, "answers" | "ballots">, selfReviewWeight = 0.5): AggregateInput => ({
  ...input,
  selfReview: "downweight",
  selfReviewWeight,
});

describe("Borda aggregation", () => {
  it("three reviewers that leave out their own answer crown a clear winner, and every number is shown", () => {
    // Own label removed, then N = 2 left: 1 point for first, 0 for second.
    //   rA: [A,B,C] → [B,C]  B 1, C 0      rB: [A,B,C] → [A,C]  A 1, C 0      rC: [A,B,C] → [A,B]  A 1, B 0
    //   borda A 2, B 1, C 0; first places A 2 (rB, rC), B 1 (rA)
    // Self-scores are ignored: rA's 10 for A would lift A's mean to 8.67.
    //   overall A (9+7)/2 = 8, B (8+6)/2 = 7, C (4+5)/2 = 4.5; correctness likewise from the second argument
    // Pairwise: A>B by rC, A>C by rB, B>C by rA; A beats both, so A is the Condorcet winner.
    const result = aggregate(
      exclude({
        answers: answers("A", "B", "C"),
        ballots: [
          ballot("A", ["A", "B", "C"], { A: score(10), B: score(8, 9), C: score(4, 3) }),
          ballot("B", ["A", "B", "C"], { A: score(9, 10), C: score(5, 4) }),
          ballot("C", ["A", "B", "C"], { A: score(7, 8), B: score(6, 5), C: score(10) }),
        ],
      }),
    );
    const means = (overall: number, correctness: number) => ({
      correctness,
      completeness: 5,
      clarity: 5,
      helpfulness: 5,
      safety: 5,
      overall,
    });
    expect(result).toEqual({
      finalRanking: [
        {
          rank: 1,
          label: "A",
          answerId: "ans-A",
          modelId: "demo:m-A",
          borda: 2,
          firstPlaceVotes: 2,
          meanOverall: 8,
          meanCorrectness: 9,
        },
        {
          rank: 2,
          label: "B",
          answerId: "ans-B",
          modelId: "demo:m-B",
          borda: 1,
          firstPlaceVotes: 1,
          meanOverall: 7,
          meanCorrectness: 7,
        },
        {
          rank: 3,
          label: "C",
          answerId: "ans-C",
          modelId: "demo:m-C",
          borda: 0,
          firstPlaceVotes: 0,
          meanOverall: 4.5,
          meanCorrectness: 3.5,
        },
      ],
      voteBreakdown: {
        reviewers: [
          { reviewSetId: "rs-A", reviewerLabel: "A", weight: 1, ranking: ["B", "C"], points: { B: 1, C: 0 } },
          { reviewSetId: "rs-B", reviewerLabel: "B", weight: 1, ranking: ["A", "C"], points: { A: 1, C: 0 } },
          { reviewSetId: "rs-C", reviewerLabel: "C", weight: 1, ranking: ["A", "B"], points: { A: 1, B: 0 } },
        ],
        bordaTotals: { A: 2, B: 1, C: 0 },
        firstPlaceVotes: { A: 2, B: 1, C: 0 },
        scoreMeans: { A: means(8, 9), B: means(7, 7), C: means(4.5, 3.5) },
        pairwise: { A: { B: 1, C: 1 }, B: { A: 0, C: 1 }, C: { A: 0, B: 0 } },
        tieBreaks: [],
        condorcetWinner: "A",
        positionBias: null,
      },
      methodVersion: "borda-v1",
    });
    expect(METHOD_VERSION).toBe("borda-v1");
    expect(aggregationView.parse(result)).toEqual(result);
  });

  // Four answers, own label removed, N = 3 (2, 1, 0 points):
  //   rA: [B,C,D] B2 C1     rB: [A,C,D] A2 C1     rC: [A,B,D] A2 B1     rD: [B,A,C] B2 A1
  //   borda A 5, B 5, C 2, D 0 — A and B tie.
  const tiedAB = (a: Scores, b: Scores): AggregateInput =>
    exclude({
      answers: answers("A", "B", "C", "D"),
      ballots: [
        ballot("A", ["B", "A", "C", "D"], { B: b }),
        ballot("B", ["A", "C", "B", "D"], { A: a }),
        ballot("C", ["A", "B", "C", "D"], { A: a, B: b }),
        ballot("D", ["D", "B", "A", "C"], { A: a, B: b }),
      ],
    });

  it("a Borda tie goes to the answer with the higher mean overall score, even against better correctness", () => {
    // overall A 7 < B 8 decides; A's higher correctness (9 vs 5) is never consulted.
    const result = aggregate(tiedAB(score(7, 9), score(8, 5)));
    expect(result.voteBreakdown.bordaTotals).toEqual({ A: 5, B: 5, C: 2, D: 0 });
    expect(result.finalRanking.map((e) => [e.rank, e.label, e.borda])).toEqual([
      [1, "B", 5],
      [2, "A", 5],
      [3, "C", 2],
      [4, "D", 0],
    ]);
    expect(result.voteBreakdown.tieBreaks).toEqual([{ labels: ["B", "A"], decidedBy: "meanOverall" }]);
  });

  it("a Borda tie with equal mean overall goes to the higher mean correctness", () => {
    // overall 7 = 7, correctness A 9 > B 5.
    const result = aggregate(tiedAB(score(7, 9), score(7, 5)));
    expect(result.finalRanking.map((e) => [e.rank, e.label, e.meanOverall, e.meanCorrectness])).toEqual([
      [1, "A", 7, 9],
      [2, "B", 7, 5],
      [3, "C", null, null],
      [4, "D", null, null],
    ]);
    expect(result.voteBreakdown.tieBreaks).toEqual([{ labels: ["A", "B"], decidedBy: "meanCorrectness" }]);
  });

  it("an answer nobody scored loses a Borda tie to one with any mean overall, however low", () => {
    // A has no scores (mean null, counted lowest); B's overall of 0 still wins (null is not read as 0).
    const input = tiedAB(score(5), score(0));
    input.ballots.forEach((b) => {
      delete b.scores.A;
    });
    const result = aggregate(input);
    expect(result.finalRanking.slice(0, 2).map((e) => [e.rank, e.label, e.meanOverall])).toEqual([
      [1, "B", 0],
      [2, "A", null],
    ]);
    expect(result.voteBreakdown.tieBreaks).toEqual([{ labels: ["B", "A"], decidedBy: "meanOverall" }]);
  });

  it("a tie that no mean can break is shared, and the next answer's rank skips past it (1, 2, 2, 4)", () => {
    //   rA: [B,C,D] B2 C1     rB: [A,C,D] A2 C1     rC: [A,B,D] A2 B1     rD: [A,C,B] A2 C1
    //   borda A 6, B 3, C 3, D 0; B and C both have overall 6 and correctness 4 (clarity differs, which does not count).
    const tied = { ...score(6, 4), clarity: 9 };
    const result = aggregate(
      exclude({
        answers: answers("D", "C", "B", "A"),
        ballots: [
          ballot("A", ["B", "C", "D"], { B: score(6, 4), C: tied }),
          ballot("B", ["A", "C", "D"], { C: tied }),
          ballot("C", ["A", "B", "D"], { B: score(6, 4) }),
          ballot("D", ["A", "C", "B"], { B: score(6, 4), C: score(6, 4) }),
        ],
      }),
    );
    expect(result.finalRanking.map((e) => [e.rank, e.label, e.borda])).toEqual([
      [1, "A", 6],
      [2, "B", 3],
      [2, "C", 3],
      [4, "D", 0],
    ]);
    expect(result.voteBreakdown.tieBreaks).toEqual([{ labels: ["B", "C"], decidedBy: "shared" }]);
  });

  it("when mean overall splits only part of a three-way tie, mean correctness decides the rest", () => {
    // A cycle gives every answer 1 point: rA [B,C] B1, rB [C,A] C1, rC [A,B] A1.
    // overall A 9 > B 7 = C 7, then correctness B 8 > C 6.
    const result = aggregate(
      exclude({
        answers: answers("A", "B", "C"),
        ballots: [
          ballot("A", ["B", "C"], { B: score(7, 8), C: score(7, 6) }),
          ballot("B", ["C", "A"], { A: score(9, 1) }),
          ballot("C", ["A", "B"]),
        ],
      }),
    );
    expect(result.finalRanking.map((e) => [e.rank, e.label, e.borda])).toEqual([
      [1, "A", 1],
      [2, "B", 1],
      [3, "C", 1],
    ]);
    expect(result.voteBreakdown.tieBreaks).toEqual([
      { labels: ["A", "B", "C"], decidedBy: "meanOverall" },
      { labels: ["B", "C"], decidedBy: "meanCorrectness" },
    ]);
  });

  it("a single surviving answer ranks first with 0 points, even when a ballot names a failed answer", () => {
    // Only A succeeded. rA's ranking [A, B]: B is unknown, A is its own → nothing counted.
    const result = aggregate(
      exclude({ answers: answers("A"), ballots: [ballot("A", ["A", "B"], { A: score(9), B: score(3) })] }),
    );
    expect(result.finalRanking).toEqual([
      {
        rank: 1,
        label: "A",
        answerId: "ans-A",
        modelId: "demo:m-A",
        borda: 0,
        firstPlaceVotes: 0,
        meanOverall: null,
        meanCorrectness: null,
      },
    ]);
    expect(result.voteBreakdown.reviewers).toEqual([
      { reviewSetId: "rs-A", reviewerLabel: "A", weight: 1, ranking: [], points: {} },
    ]);
    expect(result.voteBreakdown.pairwise).toEqual({ A: {} });
    expect(result.voteBreakdown.tieBreaks).toEqual([]);
    expect(result.voteBreakdown.condorcetWinner).toBeNull();
  });

  it("without any ballot every answer shares rank 1 with 0 points", () => {
    const result = aggregate(exclude({ answers: answers("C", "A", "B"), ballots: [] }));
    expect(result.finalRanking.map((e) => [e.rank, e.label, e.borda, e.firstPlaceVotes, e.meanOverall])).toEqual([
      [1, "A", 0, 0, null],
      [1, "B", 0, 0, null],
      [1, "C", 0, 0, null],
    ]);
    expect(result.voteBreakdown.tieBreaks).toEqual([{ labels: ["A", "B", "C"], decidedBy: "shared" }]);
    expect(result.voteBreakdown.condorcetWinner).toBeNull();
    expect(result.voteBreakdown.scoreMeans.A.safety).toBeNull();
  });

  it("down-weighting self-reviews at 0.5 lets a self-promoting reviewer change the winner that exclusion picks", () => {
    // rA is modest (own last), rB puts itself first, rC is modest.
    //   exclude:     rA [B,C] B1   rB [A,C] A1   rC [A,B] A1                 → A 2, B 1, C 0
    //   downweight:  rA [B,C,A] B2 C1 A0   rB [B,A,C] B 2×0.5=1, A1   rC [A,B,C] A2 B1 C 0×0.5
    //                                                                         → A 3, B 4, C 1
    // Scores overall (self in brackets): A: rA [5] rB 6 rC 7; B: rA 8 rB [10] rC 7; C: rA 6 rB 4 rC [9]
    //   exclude    A (6+7)/2 = 6.5       B (8+7)/2 = 7.5        C (6+4)/2 = 5
    //   downweight A (2.5+6+7)/2.5 = 6.2 B (8+5+7)/2.5 = 8      C (6+4+4.5)/2.5 = 5.8
    const input = {
      answers: answers("A", "B", "C"),
      ballots: [
        ballot("A", ["B", "C", "A"], { A: score(5), B: score(8), C: score(6) }),
        ballot("B", ["B", "A", "C"], { A: score(6), B: score(10), C: score(4) }),
        ballot("C", ["A", "B", "C"], { A: score(7), B: score(7), C: score(9) }),
      ],
    };
    const excluded = aggregate(exclude(input));
    const weighed = aggregate(downweight(input, 0.5));

    expect(excluded.finalRanking.map((e) => [e.rank, e.label, e.borda, e.firstPlaceVotes, e.meanOverall])).toEqual([
      [1, "A", 2, 2, 6.5],
      [2, "B", 1, 1, 7.5],
      [3, "C", 0, 0, 5],
    ]);
    // First places: B from rA (1) and its own vote at half weight (0.5); A from rC.
    expect(weighed.finalRanking.map((e) => [e.rank, e.label, e.borda, e.firstPlaceVotes, e.meanOverall])).toEqual([
      [1, "B", 4, 1.5, 8],
      [2, "A", 3, 1, 6.2],
      [3, "C", 1, 0, 5.8],
    ]);
    expect(weighed.voteBreakdown.reviewers.map((r) => [r.ranking, r.points])).toEqual([
      [["B", "C", "A"], { B: 2, C: 1, A: 0 }],
      [["B", "A", "C"], { B: 1, A: 1, C: 0 }],
      [["A", "B", "C"], { A: 2, B: 1, C: 0 }],
    ]);
    // Only a win credited to the reviewer's own answer is halved: B>A and B>C from rB count 0.5, A>C from rB counts 1.
    //   B>A: rA 1 + rB 0.5 = 1.5, A>B: rC 1; B>C: rA 1 + rB 0.5 + rC 1 = 2.5; A>C: rB 1 + rC 1 = 2, C>A: rA 1
    expect(weighed.voteBreakdown.pairwise).toEqual({ A: { B: 1, C: 2 }, B: { A: 1.5, C: 2.5 }, C: { A: 1, B: 0 } });
    expect(weighed.voteBreakdown.condorcetWinner).toBe("B");
    expect(excluded.voteBreakdown.condorcetWinner).toBe("A");
  });

  it("unknown and repeated labels in a ballot are dropped before points are counted", () => {
    // rA gives [Z, B, B, A, C, Q, C] → known, first occurrence, own A removed → [B, C]: B1 C0 (not 5 points for B).
    // rB gives [C, C, A] → [C, A]: C1 A0. Scores for the unknown Z are ignored.
    const result = aggregate(
      exclude({
        answers: answers("A", "B", "C"),
        ballots: [
          ballot("A", ["Z", "B", "B", "A", "C", "Q", "C"], { Z: score(10), B: score(6) }),
          ballot("B", ["C", "C", "A"]),
        ],
      }),
    );
    expect(result.voteBreakdown.reviewers.map((r) => [r.ranking, r.points])).toEqual([
      [["B", "C"], { B: 1, C: 0 }],
      [["C", "A"], { C: 1, A: 0 }],
    ]);
    expect(result.voteBreakdown.bordaTotals).toEqual({ A: 0, B: 1, C: 1 });
    expect(Object.keys(result.voteBreakdown.scoreMeans)).toEqual(["A", "B", "C"]);
    expect(Object.keys(result.voteBreakdown.pairwise)).toEqual(["A", "B", "C"]);
    // B and C tie on 1; B's mean overall 6 beats C's none.
    expect(result.finalRanking.map((e) => [e.rank, e.label])).toEqual([
      [1, "B"],
      [2, "C"],
      [3, "A"],
    ]);
  });

  it("a preference cycle fills the pairwise matrix but yields no Condorcet winner", () => {
    // rA [B,C]: B>C   rB [C,A]: C>A   rC [A,B]: A>B — each wins one duel and loses one.
    const result = aggregate(
      exclude({
        answers: answers("A", "B", "C"),
        ballots: [ballot("A", ["A", "B", "C"]), ballot("B", ["B", "C", "A"]), ballot("C", ["C", "A", "B"])],
      }),
    );
    expect(result.voteBreakdown.pairwise).toEqual({ A: { B: 1, C: 0 }, B: { A: 0, C: 1 }, C: { A: 1, B: 0 } });
    expect(result.voteBreakdown.condorcetWinner).toBeNull();
    expect(result.voteBreakdown.bordaTotals).toEqual({ A: 1, B: 1, C: 1 });
  });

  it("the Condorcet winner is reported even when Borda ranks another answer first", () => {
    // Three outside reviewers rank [A,B,C], two rank [B,C,A].
    //   Borda A 3×2 = 6, B 3×1 + 2×2 = 7, C 2×1 = 2 → B first.
    //   Pairwise A>B 3 vs 2, A>C 3 vs 2, B>C 5 vs 0 → A beats everyone.
    const abc = ["A", "B", "C"];
    const bca = ["B", "C", "A"];
    const result = aggregate(
      exclude({ answers: answers("A", "B", "C"), ballots: [abc, abc, abc, bca, bca].map((r) => ballot(null, r)) }),
    );
    expect(result.finalRanking.map((e) => [e.rank, e.label, e.borda])).toEqual([
      [1, "B", 7],
      [2, "A", 6],
      [3, "C", 2],
    ]);
    expect(result.voteBreakdown.pairwise).toEqual({ A: { B: 3, C: 3 }, B: { A: 2, C: 5 }, C: { A: 2, B: 0 } });
    expect(result.voteBreakdown.condorcetWinner).toBe("A");
    expect(result.voteBreakdown.firstPlaceVotes).toEqual({ A: 3, B: 2, C: 0 });
  });

  it("reviewer weights scale points, first-place votes, score means and pairwise wins", () => {
    // rA weight 2: [C,B] C 2×1 = 2   rB weight 0.5: [A,C] A 0.5   rC weight 1: [B,A] B 1
    //   unweighted this would be a three-way tie at 1; weighted: C 2, B 1, A 0.5
    // overall A (0.5×8 + 1×5)/1.5 = 6, B (2×4 + 1×7)/3 = 5, C (2×9 + 0.5×6)/2.5 = 8.4
    const result = aggregate(
      exclude({
        answers: answers("A", "B", "C"),
        ballots: [
          ballot("A", ["A", "C", "B"], { B: score(4), C: score(9) }, 2),
          ballot("B", ["A", "B", "C"], { A: score(8), C: score(6) }, 0.5),
          ballot("C", ["B", "A", "C"], { A: score(5), B: score(7) }, 1),
        ],
      }),
    );
    expect(result.finalRanking.map((e) => [e.rank, e.label, e.borda, e.firstPlaceVotes, e.meanOverall])).toEqual([
      [1, "C", 2, 2, 8.4],
      [2, "B", 1, 1, 5],
      [3, "A", 0.5, 0.5, 6],
    ]);
    expect(result.voteBreakdown.reviewers.map((r) => [r.weight, r.points])).toEqual([
      [2, { C: 2, B: 0 }],
      [0.5, { A: 0.5, C: 0 }],
      [1, { B: 1, A: 0 }],
    ]);
    // C>B 2, A>C 0.5, B>A 1: a weighted cycle.
    expect(result.voteBreakdown.pairwise).toEqual({ A: { B: 0, C: 0.5 }, B: { A: 1, C: 0 }, C: { A: 0, B: 2 } });
    expect(result.voteBreakdown.condorcetWinner).toBeNull();
  });

  it("fractional weights add up to clean totals", () => {
    // Three outside reviewers of weight 0.1 rank [A, B]: 0.1 + 0.1 + 0.1 is 0.30000000000000004 in floating point.
    const result = aggregate(
      exclude({ answers: answers("A", "B"), ballots: [0, 1, 2].map(() => ballot(null, ["A", "B"], {}, 0.1)) }),
    );
    expect(result.voteBreakdown.bordaTotals).toEqual({ A: 0.3, B: 0 });
    expect(result.voteBreakdown.firstPlaceVotes).toEqual({ A: 0.3, B: 0 });
    expect(result.voteBreakdown.pairwise).toEqual({ A: { B: 0.3 }, B: { A: 0 } });
  });
});

describe("position bias in reviews", () => {
  it("counts reviewers whose first-shown answer they ranked first, against 1/k expected by chance", () => {
    const shown = (b: Ballot, order: string[]): Ballot => ({ ...b, shownOrder: order });
    const result = aggregate({
      answers: ["A", "B", "C", "D"].map((label) => ({ label, answerId: `id-${label}`, modelId: null })),
      ballots: [
        // A's reviewer saw B first and ranked B first; its own A is left out of what it ranks
        shown(ballot("A", ["B", "C", "D"]), ["B", "D", "C"]),
        // B's reviewer saw C first but ranked A first
        shown(ballot("B", ["A", "C", "D"]), ["C", "A", "D"]),
        // C's reviewer: no recorded order, so it is not counted
        ballot("C", ["A", "B", "D"]),
      ],
      selfReview: "exclude",
      selfReviewWeight: 0.5,
    });
    expect(result.voteBreakdown.positionBias).toMatchObject({ reviewers: 2, firstShownRankedFirst: 1 });
    expect(result.voteBreakdown.positionBias!.expected).toBeCloseTo(2 / 3, 9);
    expect(result.voteBreakdown.reviewers.map((r) => r.shownOrder ?? null)).toEqual([
      ["B", "D", "C"],
      ["C", "A", "D"],
      null,
    ]);
  });
});
