/**
 * A simulated arena with known strengths: votes drawn from the true Bradley–Terry model, the pair of each vote
 * chosen uniformly or by the Worker's own active pairing (worker/arena/pairing.ts) on the evidence of the last
 * fit, refitted every REFIT_EVERY votes as a cached leaderboard fit would be. It records after how many votes
 * each stopping rule is first met.
 */
import type { PairCell } from "../../worker/rating/bradley-terry";
import { fitPairTable } from "../../worker/rating/bradley-terry";
import { normalQuantile } from "../../worker/rating/normal";
import { pairTableOf } from "../../worker/rating/pair-table";
import { seededRandom } from "../../worker/rating/random";
import { sandwichIntervals } from "../../worker/rating/sandwich";
import { drawPair, type PairEvidence, type PairingRules } from "../../worker/arena/pairing";

/** How often the leaderboard's fit is refreshed, in votes; the stopping rules are checked then too. */
export const REFIT_EVERY = 50;
const Z = normalQuantile(0.975);

export type Pairing = { kind: "uniform" } | { kind: "active"; rules: PairingRules };

/** A rule to stop at: the 95% widths of the adjacent differences (in the true order) it looks at, reduced to one. */
export interface StoppingRule {
  name: string;
  /** which adjacent differences count: k stands for the difference between the k-th and (k+1)-th strongest */
  adjacent: (k: number) => boolean;
  reduce: "mean" | "max";
  /** rating points */
  target: number;
}

/**
 * Strengths spread like a leaderboard's: `n` evenly spaced quantiles of a normal with the given spread, strongest
 * first, so the middle is crowded and the ends are far apart, as on the Arena.
 */
export function arenaLikeStrengths(n: number, mean = 1100, sd = 100): number[] {
  return Array.from({ length: n }, (_, k) => mean - sd * normalQuantile((k + 0.5) / n));
}

/** Votes until each rule is met (null: not within `maxVotes`). */
export function votesToStop(
  strengths: readonly number[],
  pairing: Pairing,
  rules: readonly StoppingRule[],
  seed: number,
  maxVotes: number,
): (number | null)[] {
  const n = strengths.length;
  const names = strengths.map((_, k) => `m${k}`);
  const index = new Map(names.map((m, k) => [m, k]));
  const random = seededRandom(seed);
  const wins = new Float64Array(n * n);
  const battles = new Float64Array(n);
  const met: (number | null)[] = rules.map(() => null);
  let evidence = evidenceOf(n, names, wins, battles);
  for (let votes = 1; votes <= maxVotes; votes++) {
    const [a, b] =
      pairing.kind === "uniform"
        ? uniformPair(n, random)
        : drawPair(names, evidence, pairing.rules, random).map((m) => index.get(m)!);
    const aWins = random() < 1 / (1 + 10 ** ((strengths[b] - strengths[a]) / 400));
    wins[aWins ? a * n + b : b * n + a]++;
    battles[a]++;
    battles[b]++;
    if (votes % REFIT_EVERY) continue;
    evidence = evidenceOf(n, names, wins, battles);
    rules.forEach((rule, r) => {
      if (met[r] === null && widthOf(rule, evidence, names) <= rule.target) met[r] = votes;
    });
    if (met.every((v) => v !== null)) break;
  }
  return met;
}

function uniformPair(n: number, random: () => number): [number, number] {
  const a = Math.floor(random() * n);
  let b = Math.floor(random() * (n - 1));
  if (b >= a) b++;
  return [a, b];
}

/** The rule's width: the mean or max of 2z·sd(Rk − Rk+1) over the adjacent pairs it looks at (true order). */
function widthOf(rule: StoppingRule, evidence: PairEvidence, names: readonly string[]): number {
  const widths: number[] = [];
  for (let k = 0; k + 1 < names.length; k++) {
    if (!rule.adjacent(k)) continue;
    const variance = evidence.differenceVariance(names[k], names[k + 1]);
    widths.push(variance === null ? Number.POSITIVE_INFINITY : 2 * Z * Math.sqrt(variance));
  }
  return rule.reduce === "max" ? Math.max(...widths) : widths.reduce((s, w) => s + w, 0) / widths.length;
}

/** What the leaderboard would tell pairing after these votes: the fit, its sandwich intervals and covariance. */
function evidenceOf(n: number, names: readonly string[], wins: Float64Array, battles: Float64Array): PairEvidence {
  const cells: PairCell[] = [];
  for (let i = 0; i < n; i++)
    for (let j = i + 1; j < n; j++)
      if (wins[i * n + j] + wins[j * n + i] > 0)
        cells.push({ i, j, winsI: wins[i * n + j], winsJ: wins[j * n + i], ties: 0 });
  const at = new Map(names.map((m, k) => [m, k]));
  const count = (m: string) => battles[at.get(m)!];
  if (!cells.length)
    return { rating: () => null, differenceVariance: () => null, interval: () => null, battles: count, ranked: [] };
  const table = pairTableOf(n, cells);
  const fit = fitPairTable(n, table, {});
  const sandwich = sandwichIntervals(n, table, fit.ratings);
  const known = (x: number) => (Number.isFinite(x) ? x : null);
  // Each pair's variance once per fit: the draws between two fits all read the same covariance.
  const variances = new Map<string, number | null>();
  const differenceVariance = (a: string, b: string) => {
    const key = a < b ? `${a} ${b}` : `${b} ${a}`;
    if (!variances.has(key)) variances.set(key, known(sandwich.differenceVariance(at.get(a)!, at.get(b)!)));
    return variances.get(key)!;
  };
  const rated = names.filter((m) => fit.rated[at.get(m)!]);
  return {
    rating: (m) => (fit.rated[at.get(m)!] ? fit.ratings[at.get(m)!] : null),
    differenceVariance,
    interval: (m) => {
      const k = at.get(m)!;
      return Number.isFinite(sandwich.lower[k]) ? [sandwich.lower[k], sandwich.upper[k]] : null;
    },
    battles: count,
    ranked: rated.sort((a, b) => fit.ratings[at.get(b)!] - fit.ratings[at.get(a)!]),
  };
}
