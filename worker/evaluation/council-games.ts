/**
 * A council evaluation's reviews in the report: each review's ranking stands for the games a council run's
 * reviewer gives (council/ranking-battles.ts) — one per pair it ranked, the better-ranked winning — written as the
 * judgments the report, the matrix and the exports already read: the winner shown first with a plain `A>B`, which
 * counts as exactly one game for it. A reviewer ranks each pair once, so a council evaluation has no flips.
 */
import type { JudgeSummary, ReportJudgment } from "./report";

export interface ReportReview {
  itemId: string;
  sample: number;
  reviewer: string;
  status: "complete" | "failed";
  /** contestants best first, its own answer left out */
  ranking: string[] | null;
  costUsd: number | null;
  completedAt: number;
}

export const COUNCIL_COUNTING =
  "a council run's: each reviewer's ranking is one game per pair of answers it ranked, won by the better-ranked";

/** The one-game judgments a review's ranking stands for. */
export function judgmentsOfReview(review: ReportReview): (ReportJudgment & { completedAt: number })[] {
  if (review.status !== "complete" || !review.ranking) return [];
  const ranked = review.ranking;
  return ranked.flatMap((first, i) =>
    ranked.slice(i + 1).map((second) => ({
      itemId: review.itemId,
      sample: review.sample,
      judge: review.reviewer,
      first,
      second,
      status: "complete" as const,
      verdict: "A>B" as const,
      costUsd: null,
      completedAt: review.completedAt,
    })),
  );
}

/** Per reviewer: its reviews, failures and cost; pairs and flips are none (each pair is ranked once). */
export function reviewerSummaries(reviews: readonly ReportReview[]): JudgeSummary[] {
  const names = [...new Set(reviews.map((r) => r.reviewer))].sort();
  return names.map((judge) => {
    const own = reviews.filter((r) => r.reviewer === judge);
    return {
      judge,
      judgments: own.length,
      failures: own.filter((r) => r.status === "failed").length,
      pairs: 0,
      flips: 0,
      flipRate: null,
      costUsd: own.reduce((n, r) => n + (r.costUsd ?? 0), 0),
    };
  });
}
