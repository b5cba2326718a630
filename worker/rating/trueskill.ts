/**
 * Two-player TrueSkill (Herbrich, Minka & Graepel, "TrueSkill™: A Bayesian Skill Rating System", 2006) with
 * draws, one update per battle in the order given. Both kinds of tie are draws.
 */
import type { Winner } from "./battle-outcome";
import { millsRatio, normalCdf, normalPdf, normalQuantile } from "./normal";

export interface TrueSkillParameters {
  mu: number;
  sigma: number;
  /** performance noise: a skill gap of β gives the stronger side about a 76% chance */
  beta: number;
  /** dynamics: added (as τ²) to every σ² before an update, so ratings never freeze */
  tau: number;
  drawProbability: number;
}

export const TRUESKILL_DEFAULTS: Readonly<TrueSkillParameters> = Object.freeze({
  mu: 25,
  sigma: 25 / 3,
  beta: 25 / 6,
  tau: 25 / 300,
  drawProbability: 0.1,
});

export type TrueSkillOptions = Partial<TrueSkillParameters>;

export interface TrueSkillRating {
  mu: number;
  sigma: number;
}

export interface TrueSkillBattle {
  modelA: string;
  modelB: string;
  winner: Winner;
}

/** The leaderboard's conservative skill: 99.7% of the belief lies above it. */
export const conservative = (r: TrueSkillRating): number => r.mu - 3 * r.sigma;

/** Φ⁻¹((p + 1)/2) for the last draw probability seen: every update needs it and it rarely changes. */
let marginQuantile = { drawProbability: Number.NaN, quantile: 0 };

function drawQuantile(drawProbability: number): number {
  if (marginQuantile.drawProbability !== drawProbability) {
    marginQuantile = { drawProbability, quantile: normalQuantile((drawProbability + 1) / 2) };
  }
  return marginQuantile.quantile;
}

/** Past this many standard deviations the ratios below are formed from Mills' ratio instead, so nothing underflows. */
const TAIL = 5;

/** v and w for a win by a performance margin above ε: the mean and variance corrections of a truncated Gaussian. */
function winCorrections(t: number, epsilon: number): { v: number; w: number } {
  const x = t - epsilon;
  const v = x < -TAIL ? 1 / millsRatio(-x) : normalPdf(x) / normalCdf(x);
  return { v, w: v * (v + x) };
}

/**
 * v and w for a draw, a performance difference within ±ε. v is odd in t and w even, so both are computed at
 * |t|, where Φ(ε − s) − Φ(−ε − s) is a difference of tail probabilities rather than of two numbers near 1.
 */
function drawCorrections(t: number, epsilon: number): { v: number; w: number } {
  const s = Math.abs(t);
  const sign = t < 0 ? -1 : 1;
  const lo = s - epsilon;
  const hi = s + epsilon;
  if (lo > TAIL) {
    // Divide through by φ(s − ε): Φ(−y) = φ(y)·M(y), and φ(s + ε)/φ(s − ε) = e^(−2sε).
    const r = Math.exp(-2 * s * epsilon);
    const mass = millsRatio(lo) - r * millsRatio(hi);
    const v = (r - 1) / mass;
    return { v: sign * v, w: v * v + (-lo + hi * r) / mass };
  }
  const mass = normalCdf(-lo) - normalCdf(-hi);
  const v = (normalPdf(hi) - normalPdf(lo)) / mass;
  return { v: sign * v, w: v * v + (-lo * normalPdf(lo) + hi * normalPdf(hi)) / mass };
}

/**
 * Applies one battle to `ratings` in place; a model not yet in the map starts at (mu, sigma). A model
 * battling itself learns nothing, so that battle changes nothing.
 */
export function updateTrueSkill(
  ratings: Map<string, TrueSkillRating>,
  modelA: string,
  modelB: string,
  winner: Winner,
  opts?: TrueSkillOptions,
): void {
  if (modelA === modelB) return;
  const { mu, sigma, beta, tau, drawProbability } = { ...TRUESKILL_DEFAULTS, ...opts };
  if (!(drawProbability >= 0 && drawProbability < 1))
    throw new RangeError(`drawProbability must be in [0, 1), got ${drawProbability}`);
  // Both performances are read before either is written, so the update is symmetric in the two sides.
  const ra = ratings.get(modelA) ?? { mu, sigma };
  const rb = ratings.get(modelB) ?? { mu, sigma };
  const [winnerSide, loserSide] = winner === "model_b" ? [rb, ra] : [ra, rb];
  const varianceW = winnerSide.sigma ** 2 + tau ** 2;
  const varianceL = loserSide.sigma ** 2 + tau ** 2;
  const c = Math.sqrt(2 * beta ** 2 + varianceW + varianceL);
  // The draw margin ε in performance units: P(|perfA − perfB| ≤ ε) = drawProbability for equal skills.
  const margin = drawQuantile(drawProbability) * Math.SQRT2 * beta;
  const t = (winnerSide.mu - loserSide.mu) / c;
  const { v, w } =
    winner === "model_a" || winner === "model_b" ? winCorrections(t, margin / c) : drawCorrections(t, margin / c);
  const updated = (side: TrueSkillRating, variance: number, direction: 1 | -1): TrueSkillRating => ({
    mu: side.mu + direction * (variance / c) * v,
    sigma: Math.sqrt(variance * Math.max(1 - (variance / (c * c)) * w, 0)),
  });
  const nextW = updated(winnerSide, varianceW, 1);
  const nextL = updated(loserSide, varianceL, -1);
  ratings.set(modelA, winner === "model_b" ? nextL : nextW);
  ratings.set(modelB, winner === "model_b" ? nextW : nextL);
}

export function computeTrueSkill(
  battles: Iterable<TrueSkillBattle>,
  opts?: TrueSkillOptions,
): Map<string, TrueSkillRating> {
  const ratings = new Map<string, TrueSkillRating>();
  for (const b of battles) updateTrueSkill(ratings, b.modelA, b.modelB, b.winner, opts);
  return ratings;
}
