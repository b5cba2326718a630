/** Weighted means of the reviewers' scores, per answer and per score key. */
import { SCORE_KEYS, type ScoreKey } from "../shared/run";
import { creditWeight, type Ballot, type SelfReviewPolicy } from "./ballot";
import { roundClean } from "./round";

export type ScoreMeans = Record<string, Record<ScoreKey, number | null>>;

/**
 * scoreMeans[label][key] = Σ w·score / Σ w over the ballots that scored `label`, where w is the ballot's
 * credit weight for that label (so self-scores are dropped in exclude mode and scaled in downweight mode).
 * null when no ballot with a positive weight scored the label.
 */
export function scoreMeans(
  labels: readonly string[],
  ballots: readonly Ballot[],
  policy: SelfReviewPolicy,
): ScoreMeans {
  const means: ScoreMeans = {};
  for (const label of labels) {
    let totalWeight = 0;
    const sums = Object.fromEntries(SCORE_KEYS.map((k) => [k, 0])) as Record<ScoreKey, number>;
    for (const ballot of ballots) {
      const scores = Object.hasOwn(ballot.scores, label) ? ballot.scores[label] : undefined;
      const w = creditWeight(ballot, label, policy);
      if (!scores || w <= 0) continue;
      totalWeight += w;
      for (const k of SCORE_KEYS) sums[k] += w * scores[k];
    }
    means[label] = Object.fromEntries(
      SCORE_KEYS.map((k) => [k, totalWeight > 0 ? roundClean(sums[k] / totalWeight) : null]),
    ) as Record<ScoreKey, number | null>;
  }
  return means;
}
