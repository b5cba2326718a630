import { describe, expect, it } from "vitest";
import { parseReview } from "../../worker/council/parse-review";
import { SCORE_KEYS, type Scores } from "../../worker/shared/run";

const LABELS = ["A", "B", "C"];
const scores = (overall: number): Scores => ({
  ...(Object.fromEntries(SCORE_KEYS.map((k) => [k, 7])) as Scores),
  overall,
});
const entry = (label: string, overall: number) => ({ label, critique: `on ${label}`, scores: scores(overall) });
const review = (ranking: unknown, reviews = [entry("A", 8), entry("B", 6), entry("C", 4)]) =>
  JSON.stringify({ reviews, ranking, confidence: 0.6 });

describe("the label rules of a review", () => {
  it("drops a ranked label that doesn't exist, records it, and keeps the rest of the ranking in its order", () => {
    const out = parseReview(review(["C", "Z", "A", "B"]), LABELS);
    expect(out).toMatchObject({
      ok: true,
      review: { ranking: ["C", "A", "B"] },
      repairs: ['dropped unknown label "Z" from the ranking'],
    });
  });

  it("keeps the first place of a repeated label and drops the later one", () => {
    const out = parseReview(review(["B", "A", "B", "C"]), LABELS);
    expect(out).toMatchObject({
      ok: true,
      review: { ranking: ["B", "A", "C"] },
      repairs: ["dropped a second B from the ranking"],
    });
  });

  it("appends a reviewed label the ranking left out after the ranked ones, by overall score, ties in label order", () => {
    const tied = [entry("A", 5), entry("B", 5), entry("C", 9)];
    const out = parseReview(review(["C"], tied), LABELS);
    expect(out).toMatchObject({ ok: true, review: { ranking: ["C", "A", "B"] } });
    expect(out.ok && out.repairs).toEqual([
      "appended A to the ranking by its overall score",
      "appended B to the ranking by its overall score",
    ]);
  });

  it("refuses to place a label that is neither ranked nor reviewed", () => {
    expect(parseReview(review(["A", "B"], [entry("A", 8), entry("B", 6)]), LABELS)).toEqual({
      ok: false,
      error: "C neither ranked nor reviewed",
    });
  });

  it("reads a ranking with every slip at once: unknown, repeated, missing and loosely written labels", () => {
    const out = parseReview(review(["answer b", "Q", "B", "(a)"]), LABELS);
    expect(out.ok && out.review.ranking).toEqual(["B", "A", "C"]);
    expect(out.ok && out.repairs).toEqual([
      'read label "answer b" as B',
      'dropped unknown label "Q" from the ranking',
      "dropped a second B from the ranking",
      'read label "(a)" as A',
      "appended C to the ranking by its overall score",
    ]);
  });

  it("never throws, whatever the output's shape", () => {
    let seed = 7;
    const random = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const pick = <T>(xs: T[]) => xs[Math.floor(random() * xs.length)];
    const junk = (): unknown =>
      pick<() => unknown>([
        () => null,
        () => pick(["A", "B", "C", "D", "", " a ", "Answer", "{", "`"]),
        () => Math.floor(random() * 30) - 10,
        () => Array.from({ length: Math.floor(random() * 4) }, junk),
        () => ({ label: junk(), critique: junk(), scores: random() < 0.5 ? scores(random() * 12) : junk() }),
      ])();
    for (let i = 0; i < 500; i++) {
      const raw =
        random() < 0.8 ? JSON.stringify({ reviews: junk(), ranking: junk(), confidence: junk() }) : String(junk());
      const out = parseReview(raw, LABELS);
      expect(typeof out.ok).toBe("boolean");
      if (out.ok) expect([...out.review.ranking].sort()).toEqual(LABELS);
    }
  });
});
