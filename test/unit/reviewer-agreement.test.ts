import { describe, expect, it } from "vitest";
import { MIN_AGREEMENT_COMPARISONS } from "../../worker/shared/constants";
import { reviewerAgreement } from "../../worker/shared/reviewer-agreement";

describe("agreement between a council's reviewers (worker/shared/reviewer-agreement.ts)", () => {
  it("rests on nothing when no two reviewers ranked the same two answers (three answers, self-review excluded)", () => {
    // Each reviewer leaves its own answer out: A's author ranks B and C, B's ranks A and C, C's ranks A and B.
    expect(
      reviewerAgreement([
        ["B", "C"],
        ["A", "C"],
        ["A", "B"],
      ]),
    ).toEqual({ comparisons: 0, agreeing: 0, percent: null });
  });

  it("counts, per two reviewers, each pair of answers both ranked, and states no percentage below the bar", () => {
    // Two reviewers over the same three answers: three shared pairs; they differ only on B against C.
    expect(
      reviewerAgreement([
        ["A", "B", "C"],
        ["A", "C", "B"],
      ]),
    ).toEqual({ comparisons: 3, agreeing: 2, percent: null });
    expect(MIN_AGREEMENT_COMPARISONS).toBeGreaterThan(3);
  });

  it("gives the share agreeing once the calls reach the bar, as a hand count gives it", () => {
    // Four answers, self-review excluded: reviewers A, B, C, D each rank the other three; two reviewers share
    // the two answers neither wrote, so six pairs of reviewers make six calls.
    const ballots = [
      ["B", "C", "D"], // A's author
      ["A", "C", "D"], // B's
      ["A", "B", "D"], // C's
      ["B", "A", "C"], // D's
    ];
    // Shared pairs: (A,B)→C,D: C–D → C>D, C>D agree. (A,C)→B,D: B,D → B>D, B>D agree. (A,D)→B,C: B>C, B>C agree.
    // (B,C)→A,D: A>D, A>D agree. (B,D)→A,C: A>C, A>C agree. (C,D)→A,B: A>B against B>A disagree.
    expect(reviewerAgreement(ballots)).toEqual({ comparisons: 6, agreeing: 5, percent: (5 / 6) * 100 });
  });
});
