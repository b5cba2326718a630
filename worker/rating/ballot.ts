/** How one reviewer's ballot is read before it is counted. */
import type { Scores } from "../shared/run";

export type SelfReviewMode = "exclude" | "downweight";

export interface Ballot {
  reviewSetId: string;
  /** label of the reviewer's own answer, null if it produced none */
  reviewerLabel: string | null;
  /** reviewer weight, default 1 */
  weight: number;
  /** labels, best first, as the reviewer gave them */
  ranking: string[];
  /** per label the reviewer scored */
  scores: Record<string, Scores>;
  /** the order the reviewer was shown the answers in, when recorded */
  shownOrder?: string[] | null;
}

export interface SelfReviewPolicy {
  mode: SelfReviewMode;
  /** 0..1, applied only in downweight mode */
  weight: number;
}

/**
 * The labels a ballot actually ranks: only labels among `known`, each at its first occurrence,
 * and without the reviewer's own answer in exclude mode.
 */
export function countedRanking(ballot: Ballot, known: ReadonlySet<string>, policy: SelfReviewPolicy): string[] {
  const seen = new Set<string>();
  for (const label of ballot.ranking) {
    if (!known.has(label) || seen.has(label)) continue;
    if (policy.mode === "exclude" && label === ballot.reviewerLabel) continue;
    seen.add(label);
  }
  return [...seen];
}

/**
 * The weight of anything this ballot credits *to* `label` (points, a first-place vote, scores, a pairwise win):
 * the reviewer's weight, scaled by the self-review weight when the label is the reviewer's own answer.
 * Returns 0 for the own answer in exclude mode, so callers need no special case.
 */
export function creditWeight(ballot: Ballot, label: string, policy: SelfReviewPolicy): number {
  if (label !== ballot.reviewerLabel) return ballot.weight;
  return policy.mode === "exclude" ? 0 : ballot.weight * policy.weight;
}
