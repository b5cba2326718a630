/**
 * Which two of the pool (arena/choose-pair.ts) meet when the person names none. The pair is drawn, never picked
 * outright, with the Chatbot Arena paper's active sampling weights (rating/active-sampling.ts): pairs whose next
 * vote narrows their difference's interval most are likelier. Pairs that can't change the ranking the operator
 * cares about (QUORUM_ARENA_FOCUS) weigh less, models with fewer than QUORUM_NEW_MODEL_BATTLES battles weigh
 * more, and a share of every draw is uniform, so each pair of the pool always keeps a chance.
 */
import { expectedWidthReduction } from "../rating/active-sampling";
import type { ArenaFocus } from "../shared/setting-parsers";

/** What the leaderboard's default view knows about the pool's models (arena/choose-pair.ts builds it). */
export interface PairEvidence {
  /** the model's Bradley–Terry rating, null without one */
  rating(model: string): number | null;
  /** Var(Ra − Rb) on the rating scale, from the fit's sandwich covariance; null when unknown */
  differenceVariance(a: string, b: string): number | null;
  /** the 95% interval of the model's rating, null without one */
  interval(model: string): [number, number] | null;
  /** the model's counted battles */
  battles(model: string): number;
  /** the rated models, best first: where the focus's top k is read */
  ranked: readonly string[];
}

export interface PairingRules {
  focus: ArenaFocus;
  /** a model with fewer battles than this is new, and boosted */
  newModelBattles: number;
}

/** A pair that can't change the focused ranking keeps this share of its weight. */
export const OUTSIDE_FOCUS = 0.1;
/** A pair with a new model weighs this many times its rule's weight. */
export const NEW_MODEL_BOOST = 4;
/** This share of every draw's weight is spread evenly over the pairs: no pair's chance ever falls to zero. */
export const UNIFORM_SHARE = 0.05;

/** How much of the narrower interval the two share, 0–1; unknown intervals count as fully overlapping. */
export function overlap(a: [number, number] | null, b: [number, number] | null): number {
  if (!a || !b) return 1;
  const shared = Math.min(a[1], b[1]) - Math.max(a[0], b[0]);
  const narrower = Math.min(a[1] - a[0], b[1] - b[0]);
  if (shared <= 0) return 0;
  return narrower > 0 ? Math.min(1, shared / narrower) : 1;
}

/**
 * Whether the order of a and b can still change the ranking in focus: their intervals overlap and, with a top k
 * in focus, one of them is in it now (a model without a rating may be anywhere, so it may be in it).
 */
export function inFocus(a: string, b: string, evidence: PairEvidence, focus: ArenaFocus): boolean {
  if (overlap(evidence.interval(a), evidence.interval(b)) === 0) return false;
  if (focus.top === null) return true;
  const inTop = (m: string) => {
    const at = evidence.ranked.indexOf(m);
    return at === -1 || at < focus.top!;
  };
  return inTop(a) || inTop(b);
}

/** One pair's weight before the uniform share: the paper's expected narrowing, times focus and new-model factors. */
export function pairWeight(a: string, b: string, evidence: PairEvidence, rules: PairingRules): number {
  const [ra, rb] = [evidence.rating(a), evidence.rating(b)];
  const difference = ra !== null && rb !== null ? ra - rb : 0;
  const reduction = expectedWidthReduction(difference, evidence.differenceVariance(a, b));
  const isNew = (m: string) => evidence.battles(m) < rules.newModelBattles;
  if (isNew(a) || isNew(b)) return reduction * NEW_MODEL_BOOST;
  return inFocus(a, b, evidence, rules.focus) ? reduction : reduction * OUTSIDE_FOCUS;
}

/** Every pair of `pool` (with `first` in it, when given) and its chance of being drawn; the chances sum to 1. */
export function pairChances(
  pool: string[],
  evidence: PairEvidence,
  rules: PairingRules,
  first?: string,
): [string, string, number][] {
  const pairs: [string, string, number][] = [];
  for (let i = 0; i < pool.length; i++)
    for (let j = i + 1; j < pool.length; j++) {
      const [a, b] = [pool[i], pool[j]];
      if (first && a !== first && b !== first) continue;
      const w = pairWeight(a, b, evidence, rules);
      pairs.push([a, b, Number.isFinite(w) && w > 0 ? w : 0]);
    }
  if (!pairs.length) throw new Error("a pool of at least two models is needed to draw a pair");
  const total = pairs.reduce((s, p) => s + p[2], 0);
  const even = 1 / pairs.length;
  for (const p of pairs) p[2] = total > 0 ? (1 - UNIFORM_SHARE) * (p[2] / total) + UNIFORM_SHARE * even : even;
  return pairs;
}

/** Draws two different models from `pool` (at least two) by pairChances; `first` fixes one of them. */
export function drawPair(
  pool: string[],
  evidence: PairEvidence,
  rules: PairingRules,
  random: () => number,
  first?: string,
): [string, string] {
  const pairs = pairChances(pool, evidence, rules, first);
  let pick = random();
  for (const [a, b, chance] of pairs) {
    pick -= chance;
    if (pick < 0) return [a, b];
  }
  const [a, b] = pairs[pairs.length - 1];
  return [a, b];
}

/** Left or right by a fair coin, so a side says nothing about which model was asked for first. */
export function shuffleSides([a, b]: [string, string], random: () => number): { left: string; right: string } {
  return random() < 0.5 ? { left: a, right: b } : { left: b, right: a };
}

/** Uniform in [0, 1) from the platform's cryptographic source. */
export function secureRandom(): number {
  const [x] = crypto.getRandomValues(new Uint32Array(1));
  return x / 2 ** 32;
}
