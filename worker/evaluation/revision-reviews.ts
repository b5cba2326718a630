/**
 * What a council evaluation gives a revision to read: each review that ranked the preset stands for the games it
 * gives (one per pair, the better-ranked first and winning, as council-games.ts counts them), and a game the preset
 * lost carries the reviewer's reason — its critique of the preset's answer, with where it ranked it.
 */
import type { RevisionJudgment } from "./revision-prompt";

export interface RevisionReview {
  itemId: string;
  reviewer: string;
  /** contestants best first, the reviewer's own answer left out */
  ranking: readonly string[];
  reviews: readonly { contestant: string; critique: string }[];
}

export function reviewGames(contestant: string, reviews: readonly RevisionReview[]): RevisionJudgment[] {
  return reviews.flatMap((review) => {
    const place = review.ranking.indexOf(contestant);
    if (place < 0) return [];
    const critique = review.reviews.find((v) => v.contestant === contestant)?.critique.trim();
    const reason = critique ? `Ranked ${place + 1} of ${review.ranking.length}: ${critique}` : null;
    return review.ranking
      .filter((other) => other !== contestant)
      .map((other, i): RevisionJudgment => {
        const won = i >= place;
        return {
          itemId: review.itemId,
          first: won ? contestant : other,
          second: won ? other : contestant,
          verdict: "A>B",
          reasons: won ? null : reason,
        };
      });
  });
}
