import { describe, expect, it } from "vitest";
import type { Winner } from "../../worker/rating/battle-outcome";
import { fitBradleyTerry } from "../../worker/rating/bradley-terry";
import { pairCellsFromBattles } from "../../worker/rating/pair-cells";
import { seededRandom } from "../../worker/rating/random";
import {
  bootstrapStyleControlled,
  fitStyleControlled,
  oddsFactorPerStd,
  STYLE_L2_PENALTY,
  type StyleBattle,
} from "../../worker/rating/style-control";
import {
  estimateTokens,
  STYLE_FEATURES,
  styleCountsFromConvMetadata,
  styleCountsOf,
  styleDiffs,
  type StyleCounts,
} from "../../worker/rating/style-features";

const SAMPLE = [
  "# Title",
  "Some **bold** text and __also bold__ here.",
  "",
  "## Section",
  "1. first",
  "2. second",
  "   - nested",
  "* star item",
  "+ plus item",
  "",
  "```python",
  "# a comment, not a header",
  "- not a list item",
  "print('**not bold**')",
  "```",
  "####### seven hashes are no header",
  "#no space, no header",
  " ### indented, no header (Arena counts headers at the very start of a line)",
  "Closing with **two** bold **spans**.",
  "~~~",
  "## inside a tilde fence",
  "~~~",
].join("\n");

describe("style features", () => {
  it("counts headers, list items and bold spans outside code fences, the way Arena's patterns do", () => {
    const counts = styleCountsOf(SAMPLE);
    expect(counts).toMatchObject({ headers: 2, lists: 5, bold: 4 });
  });

  it("counts tokens over everything, code included, with one estimator for both sides", () => {
    // Hello , world ! 123 45 extraordinarily (15 letters: 2) 日 本 — one per piece but the long word.
    expect(estimateTokens("Hello, world! 12345 extraordinarily 日本")).toBe(10);
    const withoutCode = styleCountsOf(SAMPLE.split("```python")[0]);
    expect(styleCountsOf(SAMPLE).tokens).toBeGreaterThan(withoutCode.tokens + 20);
    expect(styleCountsOf("")).toEqual({ tokens: 0, headers: 0, lists: 0, bold: 0 });
  });

  it("treats an unclosed fence as code to the end, as CommonMark does", () => {
    expect(styleCountsOf("# kept\n```\n# swallowed\n- swallowed")).toMatchObject({ headers: 1, lists: 0 });
  });

  it("reads both sides from Arena's conv_metadata, summing the per-kind objects", () => {
    const meta = {
      sum_assistant_a_tokens: 512,
      header_count_a: { h1: 1, h2: 2, h3: 0, h4: 0, h5: 0, h6: 0 },
      list_count_a: { ordered: 3, unordered: 4 },
      bold_count_a: { "**": 5, __: 1 },
      sum_assistant_b_tokens: 130,
      header_count_b: { h1: 0, h2: 0, h3: 0, h4: 0, h5: 0, h6: 0 },
      list_count_b: { ordered: 0, unordered: 2 },
      bold_count_b: 0,
      sum_user_tokens: 40,
      turns: 1,
    };
    expect(styleCountsFromConvMetadata(meta)).toEqual({
      a: { tokens: 512, headers: 3, lists: 7, bold: 6 },
      b: { tokens: 130, headers: 0, lists: 2, bold: 0 },
    });
    expect(styleCountsFromConvMetadata({})).toBeNull();
    const { bold_count_b: _, ...missing } = meta;
    expect(styleCountsFromConvMetadata(missing)).toBeNull();
    expect(styleCountsFromConvMetadata({ ...meta, list_count_a: { ordered: "3" } })).toBeNull();
    expect(styleCountsFromConvMetadata({ ...meta, sum_assistant_b_tokens: -1 })).toBeNull();
    expect(styleCountsFromConvMetadata({ ...meta, header_count_a: [1, 2] })).toBeNull();
  });

  it("turns two sides' counts into (a − b)/(a + b + 1) per feature, in the order tokens, headers, lists, bold", () => {
    expect(STYLE_FEATURES).toEqual(["tokens", "headers", "lists", "bold"]);
    const diffs = styleDiffs(
      { tokens: 100, headers: 2, lists: 0, bold: 4 },
      { tokens: 50, headers: 0, lists: 0, bold: 1 },
    );
    expect(diffs).toEqual([50 / 151, 2 / 3, 0, 3 / 6]);
  });
});

/** Five models; 0 and 1 are equally strong but 0 answers at three times 1's length. */
const STRENGTHS = [1000, 1000, 1080, 960, 960];
const VERBOSITY = [600, 200, 300, 300, 600];

/**
 * Battles in which a's expected score is σ(ln10·(Ra − Rb)/400 + lengthEffect·d_tokens): the longer answer wins
 * more often at equal strength when lengthEffect > 0. Ties take 2·0.3·min(P, 1 − P) and leave the expected score
 * at P, as in rating-simulation.ts. Header, list and bold counts are noise.
 */
function simulate(seed: number, count: number, lengthEffect: number): StyleBattle[] {
  const random = seededRandom(seed);
  const counts = (m: number): StyleCounts => ({
    tokens: Math.round(VERBOSITY[m] * (0.5 + random())),
    headers: Math.floor(random() * 4),
    lists: Math.floor(random() * 8),
    bold: Math.floor(random() * 5),
  });
  const battles: StyleBattle[] = [];
  for (let i = 0; i < count; i++) {
    const a = Math.floor(random() * STRENGTHS.length);
    let b = Math.floor(random() * (STRENGTHS.length - 1));
    if (b >= a) b++;
    const diffs = styleDiffs(counts(a), counts(b));
    const p = 1 / (1 + Math.exp(-((Math.LN10 * (STRENGTHS[a] - STRENGTHS[b])) / 400 + lengthEffect * diffs[0])));
    const tie = 0.6 * Math.min(p, 1 - p);
    const u = random();
    const winner: Winner =
      u < p - tie / 2 ? "model_a" : u < p + tie / 2 ? (i % 2 ? "tie" : "tie (bothbad)") : "model_b";
    battles.push({ a, b, winner, diffs });
  }
  return battles;
}

function plainBradleyTerry(battles: readonly StyleBattle[]): Float64Array {
  const names = STRENGTHS.map((_, m) => String(m));
  const tallied = pairCellsFromBattles(
    battles.map(({ a, b, winner }) => ({ modelA: names[a], modelB: names[b], winner })),
    names,
  );
  return fitBradleyTerry(names.length, tallied.cells).ratings;
}

/** ∂loss/∂θ per model over its battles and ∂loss/∂β over all battles, recomputed here from Arena's loss. */
function relativeGradient(
  n: number,
  battles: readonly StyleBattle[],
  fit: ReturnType<typeof fitStyleControlled>,
): number {
  const theta = Array.from(fit.ratings, (r) => (r - 1000) / 400);
  const k = fit.beta.length;
  const gradient = new Array<number>(n + k).fill(0);
  const games = new Array<number>(n).fill(0);
  for (const { a, b, winner, diffs } of battles) {
    const z = Array.from(diffs, (d, f) => (fit.featureStd[f] > 0 ? (d - fit.featureMean[f]) / fit.featureStd[f] : 0));
    const logit = Math.LN10 * (theta[a] - theta[b]) + z.reduce((sum, zf, f) => sum + fit.beta[f] * zf, 0);
    const y = winner === "model_a" ? 1 : winner === "model_b" ? 0 : 0.5;
    const residual = 1 / (1 + Math.exp(-logit)) - y;
    gradient[a] += Math.LN10 * residual;
    gradient[b] -= Math.LN10 * residual;
    z.forEach((zf, f) => {
      gradient[n + f] += residual * zf;
    });
    games[a]++;
    games[b]++;
  }
  theta.forEach((t, m) => {
    gradient[m] += STYLE_L2_PENALTY * t;
  });
  fit.beta.forEach((beta, f) => {
    gradient[n + f] += STYLE_L2_PENALTY * beta;
  });
  return Math.max(...gradient.map((g, v) => Math.abs(g) / (v < n ? Math.max(1, games[v]) : battles.length)));
}

describe("style-controlled Bradley–Terry", () => {
  it("recovers a planted length effect and rates two equally strong models equal, where plain BT favours the verbose one", () => {
    const lengthEffect = 1;
    const battles = simulate(1, 40_000, lengthEffect);
    const fit = fitStyleControlled(5, battles);
    // Per standard deviation of the standardised feature, the planted effect is lengthEffect·std.
    expect(fit.beta[0]).toBeGreaterThan(0.3);
    expect(Math.abs(fit.beta[0] / (lengthEffect * fit.featureStd[0]) - 1)).toBeLessThan(0.15);
    for (let f = 1; f < 4; f++) expect(Math.abs(fit.beta[f])).toBeLessThan(0.05);
    // About 8,000 battles a model: a rating's standard error is ~4 points.
    STRENGTHS.forEach((truth, m) => {
      expect(Math.abs(fit.ratings[m] - truth)).toBeLessThan(12);
    });
    expect(Math.abs(fit.ratings[0] - fit.ratings[1])).toBeLessThan(12);
    const plain = plainBradleyTerry(battles);
    expect(plain[0] - plain[1]).toBeGreaterThan(60);
    expect(oddsFactorPerStd(fit.beta[0])).toBeGreaterThan(1.35);
  });

  it("finds no style effect where none was planted and then agrees with plain Bradley–Terry within a few points", () => {
    const battles = simulate(2, 40_000, 0);
    const fit = fitStyleControlled(5, battles);
    for (const beta of fit.beta) expect(Math.abs(beta)).toBeLessThan(0.05);
    const plain = plainBradleyTerry(battles);
    fit.ratings.forEach((r, m) => {
      expect(Math.abs(r - plain[m])).toBeLessThan(4);
    });
  });

  it("returns the optimum: Arena's gradient vanishes there, and the mean rating is 1000", () => {
    const battles = simulate(3, 20_000, 1);
    const fit = fitStyleControlled(5, battles);
    expect(relativeGradient(5, battles, fit)).toBeLessThan(1e-9);
    expect(fit.ratings.reduce((sum, r) => sum + r, 0) / 5).toBeCloseTo(1000, 9);
    expect(fit.featureMean[0]).toBeCloseTo(0, 1);
  });

  it("applies Arena's L2 penalty λ = 0.5: 3 wins to 1 give a gap of 179.73 points, not plain BT's 190.85", () => {
    // With no feature varying, β = 0 and θA = −θB = d/2: the optimum solves ln10·(4σ(ln10·d) − 3) + λ·d/2 = 0.
    const zero = [0, 0, 0, 0];
    const battles: StyleBattle[] = [
      ...Array.from({ length: 3 }, () => ({ a: 0, b: 1, winner: "model_a" as const, diffs: zero })),
      { a: 1, b: 0, winner: "model_a", diffs: zero },
    ];
    const fit = fitStyleControlled(2, battles);
    const d = (fit.ratings[0] - fit.ratings[1]) / 400;
    expect(Math.LN10 * (4 / (1 + Math.exp(-Math.LN10 * d)) - 3) + (STYLE_L2_PENALTY * d) / 2).toBeCloseTo(0, 12);
    expect(fit.ratings[0] - fit.ratings[1]).toBeCloseTo(179.726, 3);
    expect(Array.from(fit.beta)).toEqual([0, 0, 0, 0]);
    expect(Array.from(fit.featureStd)).toEqual([0, 0, 0, 0]);
  });

  it("keeps ties as half a win each way, both kinds alike", () => {
    // A: 2 wins, B: 1 win, 2 ties: ln10·(5σ(ln10·d) − 3) + λ·d/2 = 0, a gap of 67.777 (plain BT: 70.437).
    const zero = [0, 0, 0, 0];
    const outcomes: Winner[] = ["model_a", "model_a", "model_b", "tie", "tie (bothbad)"];
    const fit = fitStyleControlled(
      2,
      outcomes.map((winner) => ({ a: 0, b: 1, winner, diffs: zero })),
    );
    expect(fit.ratings[0] - fit.ratings[1]).toBeCloseTo(67.777, 3);
  });

  it("pins the anchor and shifts every other model by the same amount; a model with no opponent is unrated", () => {
    const battles = simulate(4, 5_000, 1);
    const free = fitStyleControlled(6, battles);
    const pinned = fitStyleControlled(6, battles, { anchor: { index: 3, rating: 1114 } });
    expect(pinned.ratings[3]).toBe(1114);
    for (let m = 0; m < 5; m++) expect(pinned.ratings[m]).toBeCloseTo(free.ratings[m] + 1114 - free.ratings[3], 9);
    expect(free.ratings[5]).toBeNaN();
    expect(Array.from(pinned.beta)).toEqual(Array.from(free.beta));
  });

  it("gives bootstrap intervals that cover the planted ratings and the planted effect, the same for the same seed", () => {
    const battles = simulate(5, 20_000, 1);
    const fit = fitStyleControlled(5, battles);
    const intervals = bootstrapStyleControlled(5, battles, { rounds: 100, seed: 5 });
    STRENGTHS.forEach((truth, m) => {
      expect(intervals.lower[m]).toBeLessThan(truth);
      expect(intervals.upper[m]).toBeGreaterThan(truth);
      expect(intervals.upper[m] - intervals.lower[m]).toBeLessThan(40);
    });
    expect(intervals.betaLower[0]).toBeLessThan(fit.featureStd[0]);
    expect(intervals.betaUpper[0]).toBeGreaterThan(fit.featureStd[0]);
    expect(intervals.betaLower[0]).toBeGreaterThan(0.2);
    expect(bootstrapStyleControlled(5, battles, { rounds: 100, seed: 5 })).toEqual(intervals);
  });

  it("pins the anchor in every bootstrap round", () => {
    const battles = simulate(6, 3_000, 1);
    const intervals = bootstrapStyleControlled(5, battles, { rounds: 20, seed: 1, anchor: { index: 2, rating: 1114 } });
    expect(intervals.lower[2]).toBe(1114);
    expect(intervals.upper[2]).toBe(1114);
  });

  it("says how much more often the side one standard deviation ahead wins: e^β, its odds against an equal opponent", () => {
    expect(oddsFactorPerStd(0)).toBe(1);
    expect(oddsFactorPerStd(Math.log(1.5))).toBeCloseTo(1.5, 12);
    // At equal strength the model's P(win) is σ(β), so P(win)/P(lose) = e^β.
    const beta = 0.37;
    const p = 1 / (1 + Math.exp(-beta));
    expect(p / (1 - p)).toBeCloseTo(oddsFactorPerStd(beta), 12);
  });

  it("rejects battles naming a model out of range, an uneven feature count or a non-finite feature", () => {
    const ok: StyleBattle = { a: 0, b: 1, winner: "model_a", diffs: [0, 0, 0, 0] };
    expect(() => fitStyleControlled(2, [{ ...ok, b: 2 }])).toThrow(RangeError);
    expect(() => fitStyleControlled(2, [ok, { ...ok, diffs: [0, 0, 0] }])).toThrow(RangeError);
    expect(() => fitStyleControlled(2, [{ ...ok, diffs: [0, Number.NaN, 0, 0] }])).toThrow(RangeError);
    expect(() => fitStyleControlled(2, [ok], { anchor: { index: 5, rating: 1000 } })).toThrow(RangeError);
    expect(fitStyleControlled(2, []).ratings.every(Number.isNaN)).toBe(true);
  });
});
