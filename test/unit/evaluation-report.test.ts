import { describe, expect, it } from "vitest";
import { compareReports, lineageOf } from "../../worker/evaluation/compare";
import { type FivePointVerdict, gamesOf, isFlip } from "../../worker/evaluation/games";
import { matrixOf } from "../../worker/evaluation/matrix";
import { buildReport, type ReportAnswer, type ReportInput, type ReportJudgment } from "../../worker/evaluation/report";
import { standingsOf } from "../../worker/evaluation/standings";
import { lengthControlledWinRate } from "../../worker/rating/length-control";
import { seededRandom } from "../../worker/rating/random";

const Z = 1.959963984540054;
const sigmoid = (x: number) => 1 / (1 + Math.exp(-x));

function judgment(itemId: string, judge: string, first: string, second: string, verdict: FivePointVerdict) {
  return { itemId, sample: 0, judge, first, second, status: "complete", verdict, costUsd: 0.001 } as const;
}

function answer(itemId: string, contestant: string, tokens: number, over: Partial<ReportAnswer> = {}): ReportAnswer {
  return {
    itemId,
    contestant,
    sample: 0,
    status: "complete",
    tokensIn: 10,
    tokensOut: tokens,
    latencyMs: 1000,
    firstTokenMs: 100,
    costUsd: 0.01,
    style: { tokens, headers: 0, lists: 0, bold: 0 },
    ...over,
  };
}

describe("arena-hard-auto's counting of five-point verdicts", () => {
  it("makes a strong verdict three games, a plain one one, and ≈ one tie", () => {
    expect(gamesOf("A>>B")).toEqual({ firstWins: 3, secondWins: 0, ties: 0 });
    expect(gamesOf("A>B")).toEqual({ firstWins: 1, secondWins: 0, ties: 0 });
    expect(gamesOf("A=B")).toEqual({ firstWins: 0, secondWins: 0, ties: 1 });
    expect(gamesOf("B>A")).toEqual({ firstWins: 0, secondWins: 1, ties: 0 });
    expect(gamesOf("B>>A")).toEqual({ firstWins: 0, secondWins: 3, ties: 0 });
  });

  it("calls a pair a flip only when the two orders favour opposite contestants", () => {
    // x first says A (x) wins; y first says A (now y) wins: opposite contestants.
    expect(isFlip("A>B", "A>>B")).toBe(true);
    // x first: x wins; y first: B (x) wins — the same contestant both times.
    expect(isFlip("A>B", "B>A")).toBe(false);
    expect(isFlip("A=B", "A>B")).toBe(false);
    expect(isFlip("B>>A", "B>A")).toBe(true);
  });
});

describe("an evaluation's standings", () => {
  it("anchors the baseline at 1000 and predicts the win rate from the ratings, with the difference's interval", () => {
    const games = [
      { itemId: "1", sample: 0, judge: "j", a: "x", b: "base", outcome: 1 as const, weight: 30 },
      { itemId: "1", sample: 0, judge: "j", a: "x", b: "base", outcome: 0 as const, weight: 10 },
    ];
    const { rows } = standingsOf(["x", "base"], games, { baseline: "base" });
    const [x, base] = rows;
    // 30 of 40: Rx − Rbase = 400·log10(3).
    expect(base.bt).toBe(1000);
    expect(x.bt).toBeCloseTo(1000 + 400 * Math.log10(3), 3);
    expect(x.winRate).toBeCloseTo(0.75, 6);
    expect(x.observedWinRate).toBe(0.75);
    // Sandwich in logits: H = 40·¾·¼ = 7.5, G = 30·¼² + 10·¾² = 7.5, Var = G/H² = 2/15.
    const se = Math.sqrt(2 / 15);
    expect(x.winRateLower).toBeCloseTo(sigmoid(Math.log(3) - Z * se), 3);
    expect(x.winRateUpper).toBeCloseTo(sigmoid(Math.log(3) + Z * se), 3);
    expect(x.ciLower).toBeCloseTo(1000 + (400 / Math.LN10) * (Math.log(3) - Z * se), 0);
    expect(base.winRate).toBe(0.5);
  });

  it("keeps the binomial's interval when one side lost every game, where the sandwich alone collapses to a point", () => {
    const games = [{ itemId: "1", sample: 0, judge: "j", a: "x", b: "base", outcome: 0 as const, weight: 60 }];
    const [x] = standingsOf(["x", "base"], games, { baseline: "base" }).rows;
    expect(x.observedWinRate).toBe(0);
    expect(x.winRate).toBeLessThan(0.01);
    // Wilson's 95% interval for 0 of 60: 0 to z²/(n + z²) = 6.0%, not 0.0%–0.0%.
    expect(x.winRateLower).toBe(0);
    expect(x.winRateUpper).toBeCloseTo(Z ** 2 / (60 + Z ** 2), 6);
  });

  it("says plainly when the leader can't be told from its rival, and roughly how many items would", () => {
    const games = [
      { itemId: "1", sample: 0, judge: "j", a: "x", b: "y", outcome: 1 as const, weight: 3 },
      { itemId: "2", sample: 0, judge: "j", a: "x", b: "y", outcome: 0 as const, weight: 2 },
    ];
    const { separation } = standingsOf(["x", "y"], games);
    expect(separation.best).toBeNull();
    expect(separation.tiedWithBest).toEqual(["x", "y"]);
    expect(separation.moreItemsNeeded).toBeGreaterThan(10);
  });

  it("names the best when its interval clears every other's", () => {
    const games = Array.from({ length: 40 }, (_, k) => ({
      itemId: String(k),
      sample: 0,
      judge: "j",
      a: "x",
      b: "y",
      outcome: (k < 36 ? 1 : 0) as 1 | 0,
      weight: 1,
    }));
    const { separation } = standingsOf(["x", "y"], games);
    expect(separation).toEqual({ best: "x", tiedWithBest: [], moreItemsNeeded: null });
  });
});

describe("the win rate's interval, simulated with a known strength", () => {
  it("covers the true 70% about 95% of the time over 400 evaluations of 100 games", () => {
    const random = seededRandom(7);
    let covered = 0;
    for (let round = 0; round < 400; round++) {
      const wins = Array.from({ length: 100 }, () => random() < 0.7).filter(Boolean).length;
      const games = [
        { itemId: "1", sample: 0, judge: "j", a: "x", b: "base", outcome: 1 as const, weight: wins },
        { itemId: "1", sample: 0, judge: "j", a: "x", b: "base", outcome: 0 as const, weight: 100 - wins },
      ];
      const [x] = standingsOf(["x", "base"], games, { baseline: "base" }).rows;
      if ((x.winRateLower ?? 1) <= 0.7 && 0.7 <= (x.winRateUpper ?? 0)) covered++;
    }
    expect(covered / 400).toBeGreaterThan(0.92);
    expect(covered / 400).toBeLessThan(0.98);
  });
});

describe("the length-controlled win rate", () => {
  it("equals the plain win rate when lengths never differ", () => {
    const games = [
      { outcome: 1, lengthDifference: 0, weight: 7 },
      { outcome: 0, lengthDifference: 0, weight: 3 },
    ];
    expect(lengthControlledWinRate(games).winRate).toBeCloseTo(0.7, 3);
  });

  it("removes what longer answers won: 90% when longer, 50% when shorter is 75% at equal length", () => {
    // Two groups, two coefficients: the fit is exact. d = ±100, s = 100, so x = ±tanh(1);
    // β₀ + β₁x = logit(0.9) and β₀ − β₁x = 0 give β₀ = logit(0.9)/2.
    const games = [
      { outcome: 1, lengthDifference: 100, weight: 900 },
      { outcome: 0, lengthDifference: 100, weight: 100 },
      { outcome: 1, lengthDifference: -100, weight: 500 },
      { outcome: 0, lengthDifference: -100, weight: 500 },
    ];
    const lc = lengthControlledWinRate(games);
    expect(lc.winRate).toBeCloseTo(sigmoid(Math.log(9) / 2), 3);
    expect(lc.winRate).toBeCloseTo(0.75, 3);
    expect(lc.lengthCoefficient).toBeCloseTo(Math.log(9) / 2 / Math.tanh(1), 2);
    expect(lc.lower).toBeLessThan(0.75);
    expect(lc.upper).toBeGreaterThan(0.75);
  });
});

/** Three items judged by two judges in both orders: hand-counted below. */
function smallEvaluation(): ReportInput {
  const judgments: ReportJudgment[] = [
    // item 1: x ≫ base, then with base first x still wins: 3 + 1 games for x.
    judgment("1", "j1", "x", "base", "A>>B"),
    judgment("1", "j1", "base", "x", "B>A"),
    // item 2: a tie, then base wins once.
    judgment("2", "j1", "x", "base", "A=B"),
    judgment("2", "j1", "base", "x", "A>B"),
    // item 3: each order favours whichever was shown first: a flip.
    judgment("3", "j1", "x", "base", "A>B"),
    judgment("3", "j1", "base", "x", "A>B"),
    // j2 agrees with j1 on item 1 and disagrees on item 2.
    judgment("1", "j2", "x", "base", "A>B"),
    judgment("1", "j2", "base", "x", "B>A"),
    judgment("2", "j2", "x", "base", "A>B"),
    judgment("2", "j2", "base", "x", "B>A"),
  ];
  return {
    contestants: ["x", "base"],
    baseline: "base",
    items: [
      { itemId: "1", category: "code" },
      { itemId: "2", category: "code" },
      { itemId: "3", category: "math" },
    ],
    answers: ["1", "2", "3"].flatMap((item) => [answer(item, "x", 200), answer(item, "base", 100)]),
    judgments,
  };
}

describe("an evaluation's report", () => {
  it("counts games, flips and the judges' agreement as worked by hand", () => {
    const report = buildReport(smallEvaluation());
    const x = report.rows.find((r) => r.contestant === "x");
    // j1: x wins 3+1 (item 1), tie + base 1 (item 2), x 1 + base 1 (item 3); j2: x 1+1, x 1+1.
    // x: 4 + 1 + 4 = 9 wins, base 2 wins, 1 tie, over 12 games.
    expect(x?.games).toBe(12);
    expect(x?.observedWinRate).toBeCloseTo((9 + 0.5) / 12, 12);
    const [j1, j2] = report.judges;
    expect(j1).toMatchObject({ judge: "j1", judgments: 6, pairs: 3, flips: 1 });
    expect(j1.flipRate).toBeCloseTo(1 / 3, 12);
    expect(j2).toMatchObject({ judge: "j2", pairs: 2, flips: 0, flipRate: 0 });
    // Both judged items 1 and 2 in both orders: agree on 1 (x), disagree on 2 (j1 leans to base, j2 to x).
    expect(report.judgeAgreement).toEqual([{ judges: ["j1", "j2"], pairs: 2, agreement: 0.5 }]);
    expect(report.categories.map((c) => [c.category, c.items])).toEqual([
      ["code", 2],
      ["math", 1],
    ]);
    expect(x?.costUsd).toBeCloseTo(0.03, 12);
    expect(report.totals.judgeCostUsd).toBeCloseTo(0.01, 12);
    expect(report.stability).toBeNull();
  });

  it("marks the rating-per-dollar frontier: a cheaper contestant stays on it only if no cheaper one rates higher", () => {
    const input = smallEvaluation();
    const report = buildReport({
      ...input,
      answers: input.answers.map((a) => (a.contestant === "base" ? { ...a, costUsd: 0.001 } : a)),
    });
    expect(report.rows.map((r) => [r.contestant, r.onCostFrontier])).toEqual([
      ["x", true],
      ["base", true],
    ]);
    const pricier = buildReport({
      ...input,
      answers: input.answers.map((a) => (a.contestant === "base" ? { ...a, costUsd: 0.5 } : a)),
    });
    expect(pricier.rows.map((r) => [r.contestant, r.onCostFrontier])).toEqual([
      ["x", true],
      ["base", false],
    ]);
  });

  it("builds the item matrix with filters for differences, failures and flips", () => {
    const input = smallEvaluation();
    const rows = matrixOf(input);
    expect(rows.map((r) => [r.itemId, r.cells[0].outcome, r.cells[0].score, r.flips])).toEqual([
      ["1", "win", 1, 0],
      ["2", "win", 0.625, 0],
      ["3", "tie", 0.5, 1],
    ]);
    expect(matrixOf(input, "flips").map((r) => r.itemId)).toEqual(["3"]);
    const failed = { ...input, answers: [...input.answers, answer("2", "x", 0, { sample: 1, status: "failed" })] };
    expect(matrixOf(failed, "failures").map((r) => r.itemId)).toEqual(["2"]);
  });

  it("compares two evaluations, matching a preset's versions on its slug, worst items first", () => {
    const before = smallEvaluation();
    const swap = (j: ReportJudgment): ReportJudgment => ({ ...j, first: rename(j.first), second: rename(j.second) });
    const rename = (c: string) => (c === "x" ? "preset:terse@2" : c);
    const older = {
      ...before,
      contestants: ["preset:terse@1", "base"],
      judgments: before.judgments.map((j) => ({
        ...j,
        first: j.first === "x" ? "preset:terse@1" : j.first,
        second: j.second === "x" ? "preset:terse@1" : j.second,
      })),
    };
    // The revision loses item 1 outright.
    const newer = {
      ...before,
      contestants: ["preset:terse@2", "base"],
      judgments: before.judgments
        .map(swap)
        .map((j) =>
          j.itemId === "1" ? { ...j, verdict: (j.first === "base" ? "A>>B" : "B>>A") as FivePointVerdict } : j,
        ),
    };
    const result = compareReports(
      { report: buildReport(older), matrix: matrixOf(older) },
      { report: buildReport(newer), matrix: matrixOf(newer) },
    );
    expect(lineageOf("preset:terse@7")).toBe("preset:terse");
    expect(result.contestants.map((c) => [c.before, c.after])).toEqual([
      ["preset:terse@1", "preset:terse@2"],
      ["base", "base"],
    ]);
    const terse = result.contestants[0];
    expect(terse.winRateChange).toBeLessThan(0);
    expect(terse.winRateChangeLower).toBeLessThan(terse.winRateChange ?? 0);
    expect(result.items[0]).toMatchObject({ itemId: "1", contestant: "preset:terse@2", scoreBefore: 1, scoreAfter: 0 });
  });
});

describe("a judge's agreement with human arena votes", () => {
  /** Three contestants, every pair judged in both orders; j2's judgments of y and z failed. */
  function threeWay(humanPairs: ReportInput["humanPairs"]): ReportInput {
    return {
      contestants: ["x", "y", "z"],
      baseline: null,
      items: [{ itemId: "1", category: null }],
      answers: ["x", "y", "z"].map((c) => answer("1", c, 100)),
      judgments: [
        // j1 on x–y: x ≫ (3 games), then y > x (1 game): x is ahead on the pair.
        judgment("1", "j1", "x", "y", "A>>B"),
        judgment("1", "j1", "y", "x", "A>B"),
        // j1 on x–z: two ties: even.
        judgment("1", "j1", "x", "z", "A=B"),
        judgment("1", "j1", "z", "x", "A=B"),
        // j1 on y–z: z ≫ then z >: z ahead.
        judgment("1", "j1", "y", "z", "B>>A"),
        judgment("1", "j1", "z", "y", "A>B"),
        // j2 on x–y: y both times; on x–z: x both times.
        judgment("1", "j2", "x", "y", "B>A"),
        judgment("1", "j2", "y", "x", "A>B"),
        judgment("1", "j2", "x", "z", "A>B"),
        judgment("1", "j2", "z", "x", "B>A"),
      ],
      humanPairs,
    };
  }

  it("holds each judge's side on a pair against the people's, leaving out pairs with too few votes", () => {
    const report = buildReport(
      threeWay([
        // people: x over y, 6 to 2 (10 votes with a tie and a both-bad)
        { lo: "x", hi: "y", loWins: 6, hiWins: 2, ties: 1, bothBad: 1 },
        // people: x and z even, 3 to 3 (6 votes)
        { lo: "x", hi: "z", loWins: 3, hiWins: 3, ties: 0, bothBad: 0 },
        // people: y–z only 3 votes, under the bar of 5
        { lo: "y", hi: "z", loWins: 1, hiWins: 2, ties: 0, bothBad: 0 },
      ]),
    );
    // j1: x–y x/x agree, x–z even/even agree, y–z too few → 2 of 2 over 16 votes.
    // j2: x–y y/x disagree, x–z x/even disagree, never judged y–z → 0 of 2.
    expect(report.judgeHumanAgreement).toEqual([
      { judge: "j1", pairs: 2, humanVotes: 16, agreed: 2, agreement: 1, pairsWithTooFewVotes: 1 },
      { judge: "j2", pairs: 2, humanVotes: 16, agreed: 0, agreement: 0, pairsWithTooFewVotes: 0 },
    ]);
  });

  it("has no figure when people never compared these contestants", () => {
    const report = buildReport(threeWay([]));
    expect(report.judgeHumanAgreement.map((h) => [h.judge, h.pairs, h.agreement])).toEqual([
      ["j1", 0, null],
      ["j2", 0, null],
    ]);
  });
});
