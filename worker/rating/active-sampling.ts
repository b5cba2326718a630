/**
 * The Chatbot Arena paper's active sampling rule (Chiang et al. 2024, "Active Sampling Rules"): draw a pair with
 * probability proportional to how much one more vote between the two is expected to narrow the confidence
 * interval of their difference,
 *
 *   sqrt(Σ_ab / n_ab) − sqrt(Σ_ab / (n_ab + 1))
 *
 * where Σ_ab / n_ab is the variance of the pair's estimate after n_ab votes. Here Σ_ab is one battle's variance of
 * the difference in logits, 1 / (p(1 − p)) at the fitted win probability p, and n_ab is the effective number of
 * battles: how many direct battles would give the sandwich variance the fit has for the difference, counting what
 * battles against other models say about it too. With that n the rule is exactly the interval's shrinkage when
 * one battle adds p(1 − p) to the difference's precision (the same step as sandwich.ts battlesToSeparate).
 */
import { normalQuantile } from "./normal";

export interface WidthOptions {
  scale?: number;
  base?: number;
  coverage?: number;
}

/**
 * A difference no battle has informed yet (a model without a rating) counts as this many battles' worth: the
 * rule's first step from there is then large but finite, so such a pair is likely, never certain, to be drawn.
 */
export const UNKNOWN_EFFECTIVE_BATTLES = 1;

/** z of the 95% interval, solved once: a draw weighs every pair of the pool. */
const Z95 = normalQuantile(0.975);

/** The paper's expected reduction of a standard error: sqrt(Σ / n) − sqrt(Σ / (n + 1)). */
export function paperReduction(perBattleVariance: number, battles: number): number {
  return Math.sqrt(perBattleVariance / battles) - Math.sqrt(perBattleVariance / (battles + 1));
}

/**
 * How much one more battle between a and b is expected to narrow the interval of Ra − Rb, in rating points
 * (the whole interval: 2z standard errors). `difference` is Ra − Rb and `differenceVariance` Var(Ra − Rb), both
 * on the rating scale; a variance that is unknown (null, NaN, infinite) is read as UNKNOWN_EFFECTIVE_BATTLES.
 */
export function expectedWidthReduction(
  difference: number,
  differenceVariance: number | null,
  opts: WidthOptions = {},
): number {
  const perUnit = Math.log(opts.base ?? 10) / (opts.scale ?? 400);
  const z = opts.coverage === undefined ? Z95 : normalQuantile(1 - (1 - opts.coverage) / 2);
  const p = 1 / (1 + Math.exp(-Math.abs(difference) * perUnit));
  const perBattle = 1 / (p * (1 - p));
  const known = differenceVariance !== null && Number.isFinite(differenceVariance) && differenceVariance > 0;
  const effective = known ? perBattle / (differenceVariance * perUnit * perUnit) : UNKNOWN_EFFECTIVE_BATTLES;
  return (2 * z * paperReduction(perBattle, Math.max(effective, UNKNOWN_EFFECTIVE_BATTLES))) / perUnit;
}
