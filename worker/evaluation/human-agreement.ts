/**
 * Each judge's agreement with the arena's people: on every pair of contestants that people also compared in the
 * arena (counted `human` battles, every category), the side the judge favoured over all its games on that pair
 * against the side most of the people's votes favoured. A pair with fewer than MIN_HUMAN_VOTES_PER_PAIR votes says too
 * little about what people prefer and is left out (counted apart, so the report can say why there is no figure).
 */
import { MIN_HUMAN_VOTES_PER_PAIR as MIN_HUMAN_VOTES } from "../shared/constants";
import type { PairTotals } from "../db/leaderboard-queries";
import type { Game } from "./standings";

/** The people's votes on one pair, as the arena's pair counters keep them. */
export type HumanPair = PairTotals;

export interface HumanAgreement {
  judge: string;
  /** pairs this judge judged that had at least MIN_HUMAN_VOTES human votes */
  pairs: number;
  /** the human votes on those pairs */
  humanVotes: number;
  /** pairs where the judge favoured the side people did (or both called it even) */
  agreed: number;
  /** agreed ÷ pairs; null when no pair had enough human votes */
  agreement: number | null;
  /** pairs this judge judged that people compared too few times to count */
  pairsWithTooFewVotes: number;
}

export const HUMAN_AGREEMENT_METHOD = `per pair of contestants people compared in the arena at least ${MIN_HUMAN_VOTES} times (human votes, every category): the side the judge's games on that pair favoured (ties half) against the side with more human wins (ties and both-bad count as votes, favour no one); agreement is the share of those pairs where the two sides match, an even split on both counting as a match`;

const pairKey = (x: string, y: string) => (x < y ? `${x}\u0000${y}` : `${y}\u0000${x}`);

export function humanAgreementOf(
  judges: readonly string[],
  games: readonly Game[],
  humanPairs: readonly HumanPair[],
): HumanAgreement[] {
  // The people's side per pair, seen from the pair's first contestant in sorted order.
  const people = new Map<string, { side: number; votes: number }>();
  for (const p of humanPairs) {
    const [first, second] = p.lo < p.hi ? [p.loWins, p.hiWins] : [p.hiWins, p.loWins];
    const votes = p.loWins + p.hiWins + p.ties + p.bothBad;
    people.set(pairKey(p.lo, p.hi), { side: Math.sign(first - second), votes });
  }
  return judges.map((judge) => {
    // The judge's score for the sorted-first contestant minus its games' half, per pair.
    const lean = new Map<string, number>();
    for (const g of games) {
      if (g.judge !== judge) continue;
      const k = pairKey(g.a, g.b);
      const forFirst = g.a < g.b ? g.outcome : 1 - g.outcome;
      lean.set(k, (lean.get(k) ?? 0) + g.weight * (forFirst - 0.5));
    }
    const figure = { judge, pairs: 0, humanVotes: 0, agreed: 0, agreement: null, pairsWithTooFewVotes: 0 };
    for (const [k, net] of lean) {
      const voted = people.get(k);
      if (!voted) continue;
      if (voted.votes < MIN_HUMAN_VOTES) {
        figure.pairsWithTooFewVotes++;
        continue;
      }
      figure.pairs++;
      figure.humanVotes += voted.votes;
      if (Math.sign(net) === voted.side) figure.agreed++;
    }
    return { ...figure, agreement: figure.pairs ? figure.agreed / figure.pairs : null };
  });
}
