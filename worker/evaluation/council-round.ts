/**
 * A council evaluation's item (one sample of it) is a council round among the contestants: each gets a label, dealt
 * in an order seeded by the round (so a label says nothing about who wrote it, and a replayed call sees the same
 * labels); the reviewers and what each judges are the council's own roster (council/reviewers.ts); a reviewer's
 * ranking gives the battles a council run's would (council/ranking-battles.ts).
 */
import { type RankingBattle, rankingBattles } from "../council/ranking-battles";
import { type RosterEntry, reviewRoster } from "../council/reviewers";
import { seededShuffle } from "../council/shown-order";
import type { Scores } from "../shared/run";

/** The round's id: the council run it stands for, as far as seeds and review-set ids go. */
export const roundIdOf = (evaluationId: string, itemId: string, sample: number) =>
  `${evaluationId}/${itemId}/${sample}`;

/** Each contestant's label in this round: A, B, C… dealt in the round's own order. */
export function roundLabels(contestants: readonly string[], roundId: string): Map<string, string> {
  const labels = seededShuffle(
    contestants.map((_, i) => String.fromCharCode(65 + i)),
    roundId,
  );
  return new Map(contestants.map((c, i) => [c, labels[i]]));
}

export interface RoundAnswer {
  contestant: string;
  /** "done" once it came back; anything else is left out of the reviews */
  status: string;
}

/**
 * What `reviewer` judges in this round, as a council run with these answers would have it review: the judges are
 * judge-only reviewers (`settings.reviewers`), else the contestants that answered review each other. Null when the
 * roster leaves it out (its own answer failed, or nothing is left for it to judge).
 */
export function rosterEntryOf(
  roundId: string,
  answers: readonly RoundAnswer[],
  labels: ReadonlyMap<string, string>,
  judges: readonly string[],
  reviewer: string,
): RosterEntry | null {
  const roster = reviewRoster(
    roundId,
    answers.map((a) => ({
      id: a.contestant,
      label: labels.get(a.contestant)!,
      modelId: a.contestant,
      status: a.status === "done" ? "done" : "failed",
    })),
    { reviewers: judges.length ? [...judges] : undefined, selfReview: "exclude" },
  );
  return roster.find((e) => e.modelId === reviewer) ?? null;
}

/** A council review as the room stores it: by label, with the labels' contestants beside it. */
export interface StoredReview {
  /** label → contestant, for this round */
  labels: Record<string, string>;
  ownLabel: string | null;
  /** the order the reviewer was shown the answers in */
  shown: string[];
  ranking: string[];
  confidence: number | null;
  reviews: { label: string; critique: string; scores: Scores }[];
}

/** The review by contestant: its ranking (its own answer left out) and each judged answer's critique and scores. */
export function reviewByContestant(review: StoredReview) {
  const of = (label: string) => review.labels[label];
  return {
    ranking: review.ranking.filter((l) => l !== review.ownLabel && of(l) !== undefined).map(of),
    reviews: review.reviews
      .filter((v) => of(v.label) !== undefined)
      .map((v) => ({ contestant: of(v.label), critique: v.critique, scores: v.scores })),
  };
}

/** The battles the review gives, exactly as a council run's reviewer's: one per pair it ranked, the better first. */
export function reviewBattles(id: string, reviewer: string, review: StoredReview): RankingBattle[] {
  return rankingBattles(
    { id, reviewerModelId: reviewer, ownLabel: review.ownLabel, ranking: review.ranking },
    new Map(Object.entries(review.labels)),
  );
}
