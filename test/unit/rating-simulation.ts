/** Battles drawn from known Bradley–Terry strengths, for the rating tests. */
import type { PairCell } from "../../worker/rating/bradley-terry";

export interface SimulatedBattle {
  a: number;
  b: number;
  /** a's score: 1, 0 or 0.5 */
  score: number;
}

/**
 * Draws `count` battles between uniformly chosen pairs. A tie happens with probability 2·tieShare·min(P, 1−P)
 * and the wins are reduced by half of it each, so a's expected score stays exactly P = 1/(1+10^((Rb−Ra)/400)):
 * the half-win Bradley–Terry fit then estimates the true ratings, ties and all.
 */
export function simulateBattles(
  random: () => number,
  ratings: readonly number[],
  count: number,
  tieShare = 0.3,
): SimulatedBattle[] {
  const n = ratings.length;
  const battles: SimulatedBattle[] = [];
  for (let k = 0; k < count; k++) {
    const a = Math.floor(random() * n);
    let b = Math.floor(random() * (n - 1));
    if (b >= a) b++;
    const p = 1 / (1 + 10 ** ((ratings[b] - ratings[a]) / 400));
    const tie = 2 * tieShare * Math.min(p, 1 - p);
    const u = random();
    battles.push({ a, b, score: u < p - tie / 2 ? 1 : u < p + tie / 2 ? 0.5 : 0 });
  }
  return battles;
}

export function cellsOf(battles: readonly SimulatedBattle[]): PairCell[] {
  const cells = new Map<string, PairCell>();
  for (const { a, b, score } of battles) {
    const [i, j] = a < b ? [a, b] : [b, a];
    const key = `${i},${j}`;
    const cell = cells.get(key) ?? { i, j, winsI: 0, winsJ: 0, ties: 0 };
    cells.set(key, cell);
    if (score === 0.5) cell.ties++;
    else if ((score === 1) === (a === i)) cell.winsI++;
    else cell.winsJ++;
  }
  return [...cells.values()];
}

/** Ratings shifted to mean 1000, the gauge of an unanchored fit. */
export function centred(ratings: readonly number[]): number[] {
  const mean = ratings.reduce((sum, r) => sum + r, 0) / ratings.length;
  return ratings.map((r) => r - mean + 1000);
}

/** ∂ log-likelihood / ∂θ_i per model, θ = R·ln10/400, each divided by the model's battle count. */
export function relativeGradient(n: number, cells: readonly PairCell[], ratings: Float64Array): number[] {
  const gradient = new Array<number>(n).fill(0);
  const games = new Array<number>(n).fill(0);
  for (const { i, j, winsI, winsJ, ties } of cells) {
    const total = winsI + winsJ + ties;
    const expected = total / (1 + 10 ** ((ratings[j] - ratings[i]) / 400));
    gradient[i] += winsI + ties / 2 - expected;
    gradient[j] -= winsI + ties / 2 - expected;
    games[i] += total;
    games[j] += total;
  }
  return gradient.map((g, k) => Math.abs(g) / Math.max(1, games[k]));
}
