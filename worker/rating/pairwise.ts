/** The pairwise (Condorcet) matrix and its winner. */
import { creditWeight, type Ballot, type SelfReviewPolicy } from "./ballot";
import { roundClean } from "./round";

export type PairwiseMatrix = Record<string, Record<string, number>>;

/**
 * pairwise[a][b] = summed credit weight of ballots ranking a above b (both ranked). Every ordered pair of
 * distinct labels is present, 0 when no ballot ranked both; the diagonal is left out.
 */
export function pairwiseMatrix(
  labels: readonly string[],
  counted: readonly { ballot: Ballot; ranking: readonly string[] }[],
  policy: SelfReviewPolicy,
): PairwiseMatrix {
  const matrix: PairwiseMatrix = {};
  for (const a of labels) matrix[a] = Object.fromEntries(labels.filter((b) => b !== a).map((b) => [b, 0]));
  for (const { ballot, ranking } of counted) {
    ranking.forEach((above, i) => {
      const w = creditWeight(ballot, above, policy);
      for (const below of ranking.slice(i + 1)) matrix[above][below] += w;
    });
  }
  for (const row of Object.values(matrix)) for (const b of Object.keys(row)) row[b] = roundClean(row[b]);
  return matrix;
}

/** The label that strictly beats every other label head to head, or null (a cycle, a tie, or fewer than two labels). */
export function condorcetWinner(labels: readonly string[], matrix: PairwiseMatrix): string | null {
  if (labels.length < 2) return null;
  return labels.find((a) => labels.every((b) => b === a || matrix[a][b] > matrix[b][a])) ?? null;
}
