/**
 * The battles a council reviewer's ranking gives: one per pair of answers it ranked, its own answer left out, the
 * better-ranked as model_a and the winner. A council run writes them as `judge` battles, a council evaluation as
 * `eval` battles; the aggregated ranking adds none (it is built from the same reviews).
 */

export interface RankedReview {
  /** the review set's id: a battle's id is made from it and the two labels */
  id: string;
  reviewerModelId: string;
  /** the label of the reviewer's own answer, null for a judge-only reviewer */
  ownLabel: string | null;
  ranking: readonly string[];
}

export interface RankingBattle {
  id: string;
  modelA: string;
  modelB: string;
  winner: "model_a";
  reviewerModelId: string;
}

/** `modelOf` maps each answer's label to the contestant that wrote it; labels it doesn't know are skipped. */
export function rankingBattles(review: RankedReview, modelOf: ReadonlyMap<string, string>): RankingBattle[] {
  const ranked = review.ranking.filter((l) => l !== review.ownLabel && modelOf.has(l));
  return ranked.flatMap((a, i) =>
    ranked.slice(i + 1).map((b) => ({
      id: `${review.id}-${a}${b}`,
      modelA: modelOf.get(a)!,
      modelB: modelOf.get(b)!,
      winner: "model_a" as const,
      reviewerModelId: review.reviewerModelId,
    })),
  );
}
