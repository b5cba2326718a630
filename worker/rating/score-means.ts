/** Weighted means of the reviewers' scores, per answer and per score key. */
import { OVERALL, type Scoring, scoringOf } from "../shared/rubric";
import { creditWeight, type Ballot, type SelfReviewPolicy } from "./ballot";
import { roundClean } from "./round";

export type ScoreMeans = Record<string, Record<string, number | null>>;

/**
 * scoreMeans[label][key] = Σ w·score / Σ w over the ballots that scored `label`, where w is the ballot's
 * credit weight for that label (so self-scores are dropped in exclude mode and scaled in downweight mode).
 * null when no ballot with a positive weight scored the label. The keys are the rubric's; a custom rubric's
 * answers also get `overall`, the rubric's weighted mean of their means (the mean of each review's weighted
 * overall, since every review scores every key).
 */
export function scoreMeans(
  labels: readonly string[],
  ballots: readonly Ballot[],
  policy: SelfReviewPolicy,
  scoring: Scoring = scoringOf({}),
): ScoreMeans {
  const means: ScoreMeans = {};
  for (const label of labels) {
    let totalWeight = 0;
    const sums: Record<string, number> = Object.fromEntries(scoring.keys.map((k) => [k, 0]));
    for (const ballot of ballots) {
      const scores = Object.hasOwn(ballot.scores, label) ? ballot.scores[label] : undefined;
      const w = creditWeight(ballot, label, policy);
      if (!scores || w <= 0) continue;
      totalWeight += w;
      for (const k of scoring.keys) sums[k] += w * scores[k];
    }
    const mean = (sum: number) => (totalWeight > 0 ? roundClean(sum / totalWeight) : null);
    means[label] = Object.fromEntries(scoring.keys.map((k) => [k, mean(sums[k])]));
    if (!scoring.askedOverall) {
      const weightSum = scoring.keys.reduce((n, k) => n + scoring.weights[k], 0);
      means[label][OVERALL] = mean(scoring.keys.reduce((n, k) => n + scoring.weights[k] * sums[k], 0) / weightSum);
    }
  }
  return means;
}
