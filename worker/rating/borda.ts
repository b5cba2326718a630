/**
 * Council aggregation (docs/council.md, "How a run works"): Borda count over the reviewers'
 * rankings with reviewer weights and self-review handling, tie-broken by mean scores, plus first-place votes,
 * score means and the pairwise matrix. Pure: same input, same output, no I/O.
 */
import { OVERALL, type Scoring, scoringOf } from "../shared/rubric";
import type { AggregationView, RankingEntry, VoteBreakdown } from "../shared/run";
import { countedRanking, creditWeight, type Ballot, type SelfReviewMode, type SelfReviewPolicy } from "./ballot";
import { condorcetWinner, pairwiseMatrix } from "./pairwise";
import { roundClean } from "./round";
import { scoreMeans } from "./score-means";
import { placeStandings } from "./standings";

export type { Ballot } from "./ballot";

/** Stored with every aggregation; bump it whenever the same ballots could give a different result. */
export const METHOD_VERSION = "borda-v1";

export interface AggregateInput {
  /** only the answers that succeeded */
  answers: { label: string; answerId: string; modelId: string | null }[];
  ballots: Ballot[];
  selfReview: SelfReviewMode;
  /** 0..1, used in downweight mode */
  selfReviewWeight: number;
  /** the run's rubric, read (absent: the default rubric) */
  scoring?: Scoring;
}

/**
 * Counts the ballots. Per ballot: labels not among `answers` and repeats are dropped; in exclude mode the
 * reviewer's own label is removed from its ranking and its self-scores ignored. The N labels left get
 * N−1 … 0 points times the ballot's weight. In downweight mode the own label stays ranked, but everything
 * credited *to* it — its points, a first-place vote, its self-scores, and pairwise[own][x] (never
 * pairwise[x][own]) — is further multiplied by `selfReviewWeight`.
 *
 * Ties on Borda points go to the higher mean overall (a custom rubric's weighted mean), then the higher mean of
 * the rubric's tie key (correctness by default); `voteBreakdown.tieKey` names it when it is a custom rubric's.
 *
 * `voteBreakdown.reviewers[i].points` are the weighted points actually credited, so they sum to `bordaTotals`.
 * All totals and means are rounded to 1e-9 before they are compared or returned.
 */
export function aggregate(input: AggregateInput): AggregationView {
  const policy: SelfReviewPolicy = { mode: input.selfReview, weight: input.selfReviewWeight };
  const labels = [...new Set(input.answers.map((a) => a.label))].sort();
  const known = new Set(labels);
  const counted = input.ballots.map((ballot) => ({ ballot, ranking: countedRanking(ballot, known, policy) }));

  const bordaTotals = zeroes(labels);
  const firstPlaceVotes = zeroes(labels);
  const reviewers: VoteBreakdown["reviewers"] = counted.map(({ ballot, ranking }) => {
    const points: Record<string, number> = {};
    ranking.forEach((label, i) => {
      points[label] = (ranking.length - 1 - i) * creditWeight(ballot, label, policy);
      bordaTotals[label] += points[label];
    });
    if (ranking.length > 0) firstPlaceVotes[ranking[0]] += creditWeight(ballot, ranking[0], policy);
    return {
      reviewSetId: ballot.reviewSetId,
      reviewerLabel: ballot.reviewerLabel,
      weight: ballot.weight,
      ranking,
      points: roundAll(points),
      ...(ballot.shownOrder ? { shownOrder: ballot.shownOrder } : {}),
    };
  });
  roundAll(bordaTotals);
  roundAll(firstPlaceVotes);

  const scoring = input.scoring ?? scoringOf({});
  const means = scoreMeans(labels, input.ballots, policy, scoring);
  const pairwise = pairwiseMatrix(labels, counted, policy);
  const { placed, tieBreaks } = placeStandings(
    labels.map((label) => ({
      label,
      borda: bordaTotals[label],
      meanOverall: means[label][OVERALL],
      meanTieKey: means[label][scoring.tieKey],
    })),
    scoring.tieKey === "correctness" ? "meanCorrectness" : "meanDimension",
  );

  const answerOf = new Map(input.answers.map((a) => [a.label, a]));
  const finalRanking: RankingEntry[] = placed.map(({ standing, rank }) => ({
    rank,
    label: standing.label,
    answerId: answerOf.get(standing.label)!.answerId,
    modelId: answerOf.get(standing.label)!.modelId,
    borda: standing.borda,
    firstPlaceVotes: firstPlaceVotes[standing.label],
    meanOverall: standing.meanOverall,
    meanCorrectness: means[standing.label].correctness ?? null,
  }));

  return {
    finalRanking,
    voteBreakdown: {
      reviewers,
      bordaTotals,
      firstPlaceVotes,
      scoreMeans: means,
      pairwise,
      tieBreaks,
      condorcetWinner: condorcetWinner(labels, pairwise),
      positionBias: positionBias(counted),
      ...(scoring.askedOverall ? {} : { tieKey: scoring.tieKey }),
    },
    methodVersion: METHOD_VERSION,
  };
}

/** How often the first answer a reviewer was shown is the one it ranked first, against chance (1/k each). */
function positionBias(counted: { ballot: Ballot; ranking: string[] }[]): VoteBreakdown["positionBias"] {
  const known = counted.filter(({ ballot, ranking }) => ballot.shownOrder && ranking.length > 1);
  if (!known.length) return null;
  let first = 0;
  let expected = 0;
  for (const { ballot, ranking } of known) {
    const shownFirst = ballot.shownOrder!.find((label) => ranking.includes(label));
    if (shownFirst === ranking[0]) first++;
    expected += 1 / ranking.length;
  }
  return { reviewers: known.length, firstShownRankedFirst: first, expected: roundClean(expected) };
}

const zeroes = (labels: readonly string[]): Record<string, number> => Object.fromEntries(labels.map((l) => [l, 0]));

function roundAll(record: Record<string, number>): Record<string, number> {
  for (const key of Object.keys(record)) record[key] = roundClean(record[key]);
  return record;
}
