import { describe, expect, it } from "vitest";
import type { PairTotals } from "../../worker/db/leaderboard-queries";
import { addBattles, type NewBattle, refitSliced } from "../../worker/arena/fit-update";
import { fitViewSliced, type FitBasis, type ModelRating } from "../../worker/arena/leaderboard";
import type { IntervalMethod } from "../../worker/arena/fit-plan";
import { drain, Slicer } from "../../worker/rating/work-slices";
import { mulberry32 } from "../helpers/arena-reference";
import { simulateBattles } from "./rating-simulation";

const TRUTH = Array.from({ length: 40 }, (_, k) => 900 + 7 * k);
const name = (k: number) => `m${k}`;
const SANDWICH: IntervalMethod = { ci: "sandwich", rounds: 0, reweight: false };

/** Battles as named pair totals, the leaderboard's input. */
function totalsOf(battles: readonly NewBattle[]): PairTotals[] {
  const out = new Map<string, PairTotals>();
  for (const { modelA, modelB, winner } of battles) {
    const [lo, hi] = modelA < modelB ? [modelA, modelB] : [modelB, modelA];
    const t = out.get(`${lo}|${hi}`) ?? { lo, hi, loWins: 0, hiWins: 0, ties: 0, bothBad: 0 };
    out.set(`${lo}|${hi}`, t);
    if (winner === "tie") t.ties++;
    else if (winner === "tie (bothbad)") t.bothBad++;
    else if ((winner === "model_a") === (modelA === lo)) t.loWins++;
    else t.hiWins++;
  }
  return [...out.values()];
}

function draw(seed: number, count: number): NewBattle[] {
  return simulateBattles(mulberry32(seed), TRUTH, count).map((b) => ({
    modelA: name(b.a),
    modelB: name(b.b),
    winner: b.score === 1 ? "model_a" : b.score === 0 ? "model_b" : "tie",
  }));
}

const unsliced = () => new Slicer(Number.POSITIVE_INFINITY);
const fitOf = (battles: NewBattle[], method = SANDWICH, anchor: { modelId: string; rating: number } | null = null) =>
  drain(fitViewSliced(totalsOf(battles), method, anchor, unsliced()));
const byModel = (ratings: ModelRating[]) => new Map(ratings.map((r) => [r.modelId, r]));

describe("updating a sandwich fit with new battles", () => {
  const before = draw(26, 6_000);
  // New battles, among them a pair that never played before and both kinds of tie.
  const added: NewBattle[] = [
    ...draw(27, 40),
    { modelA: "m0", modelB: "m39", winner: "model_a" },
    { modelA: "m3", modelB: "m5", winner: "tie (bothbad)" },
  ];

  for (const [label, method, anchor] of [
    ["plain", SANDWICH, null],
    ["reweighted", { ...SANDWICH, reweight: true }, null],
    ["anchored", SANDWICH, { modelId: "m10", rating: 0 }],
  ] as const) {
    it(`reaches the exact fit's ratings with the old Hessian factor (${label})`, () => {
      const basis = fitOf(before, method, anchor).basis as FitBasis;
      expect(addBattles(basis, added)).toBe(true);
      const updated = drain(refitSliced(basis, unsliced()));
      expect(updated.reusedFactor).toBe(true);
      const exact = byModel(fitOf([...before, ...added], method, anchor).ratings);
      for (const r of updated.ratings) expect(Math.abs(r.bt! - exact.get(r.modelId)!.bt!)).toBeLessThan(1e-6);
    });
  }

  it("keeps the exact fit's interval widths around the new ratings, until the exact refit", () => {
    const first = fitOf(before);
    const widths = byModel(first.ratings);
    const basis = first.basis as FitBasis;
    addBattles(basis, added);
    const updated = drain(refitSliced(basis, unsliced()));
    for (const r of updated.ratings) {
      const old = widths.get(r.modelId)!;
      expect(r.ciUpper! - r.ciLower!).toBeCloseTo(old.ciUpper! - old.ciLower!, 9);
      expect((r.ciUpper! + r.ciLower!) / 2).toBeCloseTo(r.bt!, 9);
    }
    // The exact refit of the same counts then agrees on the ratings, with its own intervals.
    const exact = byModel(fitOf([...before, ...added]).ratings);
    const m0 = updated.ratings.find((r) => r.modelId === "m0")!;
    expect(m0.bt!).toBeGreaterThan(widths.get("m0")!.bt!);
    expect(Math.abs(exact.get("m0")!.bt! - m0.bt!)).toBeLessThan(1e-6);
  });

  it("chains: a second update from the first reaches the exact fit of all battles", () => {
    const basis = fitOf(before).basis as FitBasis;
    const more = draw(28, 25);
    addBattles(basis, added);
    drain(refitSliced(basis, unsliced()));
    addBattles(basis, more);
    const second = drain(refitSliced(basis, unsliced()));
    const exact = byModel(fitOf([...before, ...added, ...more]).ratings);
    for (const r of second.ratings) expect(Math.abs(r.bt! - exact.get(r.modelId)!.bt!)).toBeLessThan(1e-6);
  });

  it("finds each battle's pair among many cells, new pairs included, battle after battle", () => {
    const basis = fitOf(before).basis as FitBasis;
    const more = draw(29, 500);
    // One at a time, as votes come: each update adds to the cells the ones before it added.
    for (const b of [...added, ...more]) addBattles(basis, [b]);
    const updated = drain(refitSliced(basis, unsliced()));
    const exact = byModel(fitOf([...before, ...added, ...more]).ratings);
    for (const r of updated.ratings) expect(Math.abs(r.bt! - exact.get(r.modelId)!.bt!)).toBeLessThan(1e-6);
  });

  it("refuses a battle naming a model the fit did not rate, leaving the table as it was", () => {
    const basis = fitOf(before).basis as FitBasis;
    const cells = basis.table.size;
    const counts = Array.from(basis.table.winsI);
    expect(addBattles(basis, [...added, { modelA: "m1", modelB: "newcomer", winner: "model_a" }])).toBe(false);
    expect(basis.table.size).toBe(cells);
    expect(Array.from(basis.table.winsI)).toEqual(counts);
  });

  it("leaves a bootstrap fit without a basis", () => {
    expect(fitOf(before, { ci: "bootstrap", rounds: 3, reweight: false }).basis).toBeNull();
  });
});
