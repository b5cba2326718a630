/**
 * How far a council's reviewers agree with one another: over every two reviewers and every two answers both of
 * them ranked, whether they put the two in the same order. Pairs of answers only one reviewer ranked say nothing
 * about agreement, so they are not counted: with three answers and self-review excluded, no two reviewers share a
 * pair, and the figure rests on nothing.
 */
import { MIN_AGREEMENT_COMPARISONS } from "./constants";

export interface ReviewerAgreement {
  /** head-to-head calls two reviewers made on the same two answers */
  comparisons: number;
  /** of those, calls where both put the same answer first */
  agreeing: number;
  /** percentage agreeing, or null below MIN_AGREEMENT_COMPARISONS comparisons (too few to say) */
  percent: number | null;
}

/** Each ballot is a reviewer's ranking of labels, best first. */
export function reviewerAgreement(ballots: readonly (readonly string[])[]): ReviewerAgreement {
  const positions = ballots.map((ranking) => new Map(ranking.map((label, i) => [label, i])));
  let comparisons = 0;
  let agreeing = 0;
  for (let i = 0; i < positions.length; i++)
    for (let j = i + 1; j < positions.length; j++) {
      const [a, b] = [positions[i], positions[j]];
      const shared = [...a.keys()].filter((label) => b.has(label));
      for (let x = 0; x < shared.length; x++)
        for (let y = x + 1; y < shared.length; y++) {
          const [p, q] = [shared[x], shared[y]];
          comparisons++;
          if (a.get(p)! < a.get(q)! === b.get(p)! < b.get(q)!) agreeing++;
        }
    }
  const percent = comparisons >= MIN_AGREEMENT_COMPARISONS ? (agreeing / comparisons) * 100 : null;
  return { comparisons, agreeing, percent };
}
