/**
 * Calibrated reviewer weights for council runs ("historical agreement"; docs/judges.md): a reviewer
 * counts as much as it has agreed with people when it judged arena comparisons. A reviewer with too
 * few judged votes to say takes the average weight of the others (1 when nobody has a record).
 */
import { MIN_AGREEMENT_COMPARISONS } from "../shared/constants";
import type { JudgeCalibration } from "./calibration";

export interface ReviewerWeight {
  weight: number;
  basis: { agreement: number; comparisons: number } | null;
}

export function reviewerWeights(reviewers: string[], calibration: JudgeCalibration[]): Map<string, ReviewerWeight> {
  const known = new Map(
    calibration
      .filter((c) => c.withHumans >= MIN_AGREEMENT_COMPARISONS && c.agreement !== null)
      .map((c) => [c.judgeModelId, { agreement: c.agreement!, comparisons: c.withHumans }]),
  );
  const present = reviewers.flatMap((m) => (known.has(m) ? [known.get(m)!.agreement / 100] : []));
  const fallback = present.length ? present.reduce((a, b) => a + b, 0) / present.length : 1;
  return new Map(
    reviewers.map((m) => {
      const basis = known.get(m) ?? null;
      return [m, { weight: basis ? basis.agreement / 100 : fallback, basis }];
    }),
  );
}
