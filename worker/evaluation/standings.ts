/**
 * An evaluation's standings from its judges' games: Bradley–Terry ratings with sandwich intervals (the method
 * the leaderboard uses by default), anchored at 1000 on the baseline when there is one, as arena-hard-auto
 * anchors its baseline; and each contestant's win rate against the baseline (or, without one, the mean over the
 * other contestants), predicted from the ratings as arena-hard-auto's score is, with a 95% interval by the
 * delta method on the ratings' covariance. The observed share of games won is given beside it.
 *
 * Where one side won (or lost) every game the sandwich collapses — its G sums squared residuals that are all close
 * to 0 — and 60 losses in 60 games would read as 0.0%–0.0%. So after a sweep a win rate's interval is at least the
 * Wilson score interval of the share of games won (0–6% for 0 of 60), the binomial's own.
 */
import { fitBradleyTerry, type PairCell } from "../rating/bradley-terry";
import { normalQuantile } from "../rating/normal";
import { pairTableOf } from "../rating/pair-table";
import { rankByIntervals } from "../rating/ranks";
import { wilsonInterval } from "../rating/wilson";
import { battlesToSeparate, sandwichIntervals } from "../rating/sandwich";

/** One or more identical games; `outcome` is a's: 1 won, 0 lost, ½ tie. */
export interface Game {
  itemId: string;
  sample: number;
  judge: string;
  a: string;
  b: string;
  outcome: 1 | 0 | 0.5;
  weight: number;
}

export interface Standing {
  contestant: string;
  bt: number | null;
  ciLower: number | null;
  ciUpper: number | null;
  /** best rank its interval allows (1 = no one is surely better) */
  rank: number | null;
  /** predicted win rate against the reference (the baseline, or the mean over the others), 0–1 */
  winRate: number | null;
  winRateLower: number | null;
  winRateUpper: number | null;
  /** share of its games against the reference it won, ties half */
  observedWinRate: number | null;
  games: number;
}

export interface Separation {
  /** the one contestant no other can be above at 95%, when there is one */
  best: string | null;
  /** contestants whose intervals overlap the leader's */
  tiedWithBest: string[];
  /** items like these still needed to tell the leader from its closest rival, when they aren't apart yet */
  moreItemsNeeded: number | null;
}

const PER_POINT = Math.LN10 / 400;
const sigmoid = (x: number) => 1 / (1 + Math.exp(-x));

export function standingsOf(
  contestants: readonly string[],
  games: readonly Game[],
  opts: { baseline?: string | null; coverage?: number } = {},
): { rows: Standing[]; separation: Separation } {
  const coverage = opts.coverage ?? 0.95;
  const n = contestants.length;
  const index = new Map(contestants.map((c, i) => [c, i]));
  const baseline = opts.baseline ? (index.get(opts.baseline) ?? null) : null;

  const cells = new Map<number, PairCell>();
  for (const g of games) {
    const [x, y] = [index.get(g.a), index.get(g.b)];
    if (x === undefined || y === undefined || x === y) continue;
    const [i, j] = x < y ? [x, y] : [y, x];
    const key = i * n + j;
    const cell = cells.get(key) ?? { i, j, winsI: 0, winsJ: 0, ties: 0 };
    cells.set(key, cell);
    if (g.outcome === 0.5) cell.ties += g.weight;
    else if ((g.outcome === 1) === (x === i)) cell.winsI += g.weight;
    else cell.winsJ += g.weight;
  }
  const cellList = [...cells.values()];
  const anchor = baseline === null ? null : { index: baseline, rating: 1000 };
  const fit = fitBradleyTerry(n, cellList, { anchor });
  const intervals = sandwichIntervals(n, pairTableOf(n, cellList), fit.ratings, { anchor, coverage });
  const ranks = rankByIntervals(intervals.lower, intervals.upper);
  const z = normalQuantile(1 - (1 - coverage) / 2);

  const rows = contestants.map((contestant, i): Standing => {
    const rated = fit.rated[i];
    const reference = baseline === null ? contestants.map((_, j) => j).filter((j) => j !== i) : [baseline];
    const mine = games.filter(
      (g) =>
        (g.a === contestant && reference.includes(index.get(g.b) ?? -1)) ||
        (g.b === contestant && reference.includes(index.get(g.a) ?? -1)),
    );
    const weight = mine.reduce((s, g) => s + g.weight, 0);
    const won = mine.reduce((s, g) => s + g.weight * (g.a === contestant ? g.outcome : 1 - g.outcome), 0);
    const predicted = rated && i !== baseline ? predictedWinRate(i, reference, fit.ratings, intervals, z) : null;
    const swept = weight > 0 && (won === 0 || won === weight);
    const wilson = swept ? wilsonInterval(won / weight, weight, z) : null;
    if (predicted && wilson) {
      predicted.lower = Math.min(Number.isNaN(predicted.lower) ? 1 : predicted.lower, wilson.lower);
      predicted.upper = Math.max(Number.isNaN(predicted.upper) ? 0 : predicted.upper, wilson.upper);
    }
    return {
      contestant,
      bt: rated ? fit.ratings[i] : null,
      ciLower: rated ? intervals.lower[i] : null,
      ciUpper: rated ? intervals.upper[i] : null,
      rank: ranks[i],
      winRate: i === baseline ? 0.5 : (predicted?.rate ?? null),
      winRateLower: i === baseline ? 0.5 : (predicted?.lower ?? null),
      winRateUpper: i === baseline ? 0.5 : (predicted?.upper ?? null),
      observedWinRate: weight > 0 ? won / weight : null,
      games: mine.reduce((s, g) => s + g.weight, 0),
    };
  });
  return {
    rows,
    separation: separationOf(rows, contestants, fit.ratings, intervals.differenceVariance, games, coverage),
  };
}

/**
 * The mean over the reference models j of σ(Dᵢⱼ), Dᵢⱼ = (Rᵢ − Rⱼ) in logits, with an interval from the delta
 * method: Var(Σ cⱼDᵢⱼ) with cⱼ = σ′(Dᵢⱼ)/|J|, Cov(Dᵢⱼ, Dᵢₖ) = (V(Dᵢⱼ) + V(Dᵢₖ) − V(Dⱼₖ))/2, taken on the
 * logit of the mean so the interval stays inside 0–1 (with one reference it is exactly the difference's).
 */
function predictedWinRate(
  i: number,
  reference: readonly number[],
  ratings: Float64Array,
  intervals: { differenceVariance(a: number, b: number): number },
  z: number,
): { rate: number; lower: number; upper: number } | null {
  const usable = reference.filter((j) => Number.isFinite(ratings[j]));
  if (usable.length === 0) return null;
  const d = usable.map((j) => (ratings[i] - ratings[j]) * PER_POINT);
  const p = d.map(sigmoid);
  const rate = p.reduce((s, x) => s + x, 0) / usable.length;
  const c = p.map((x) => (x * (1 - x)) / usable.length);
  const v = (a: number, b: number) => intervals.differenceVariance(a, b) * PER_POINT * PER_POINT;
  let variance = 0;
  for (let x = 0; x < usable.length; x++)
    for (let y = 0; y < usable.length; y++) {
      const [j, k] = [usable[x], usable[y]];
      const cov = j === k ? v(i, j) : (v(i, j) + v(i, k) - v(j, k)) / 2;
      variance += c[x] * c[y] * cov;
    }
  if (!Number.isFinite(variance)) return { rate, lower: Number.NaN, upper: Number.NaN };
  const logit = Math.log(rate / (1 - rate));
  const spread = (z * Math.sqrt(Math.max(variance, 0))) / (rate * (1 - rate));
  return { rate, lower: sigmoid(logit - spread), upper: sigmoid(logit + spread) };
}

function separationOf(
  rows: readonly Standing[],
  contestants: readonly string[],
  ratings: Float64Array,
  differenceVariance: (a: number, b: number) => number,
  games: readonly Game[],
  coverage: number,
): Separation {
  const rated = rows.filter((r) => r.bt !== null);
  if (rated.length < 2) return { best: null, tiedWithBest: [], moreItemsNeeded: null };
  const leader = rated.reduce((best, r) => ((r.bt ?? 0) > (best.bt ?? 0) ? r : best));
  const tied = rated.filter((r) => r !== leader && r.rank === 1).map((r) => r.contestant);
  if (tied.length === 0) return { best: leader.contestant, tiedWithBest: [], moreItemsNeeded: null };
  // The closest rival decides how much more evidence it takes; its games per item say what an item is worth.
  const i = contestants.indexOf(leader.contestant);
  const rival = rated
    .filter((r) => tied.includes(r.contestant))
    .reduce((close, r) => ((r.bt ?? 0) > (close.bt ?? 0) ? r : close));
  const j = contestants.indexOf(rival.contestant);
  const needed = battlesToSeparate(ratings[i] - ratings[j], differenceVariance(i, j), { coverage });
  const perItem =
    direct(games, leader.contestant, rival.contestant) ?? viaOthers(games, leader.contestant, rival.contestant);
  return {
    best: null,
    tiedWithBest: [leader.contestant, ...tied],
    moreItemsNeeded: needed === null || perItem === 0 ? null : Math.ceil(needed / perItem),
  };
}

/** A pair's games per item where they met, or null when they never met. */
function direct(games: readonly Game[], x: string, y: string): number | null {
  const between = games.filter((g) => (g.a === x && g.b === y) || (g.a === y && g.b === x));
  const items = new Set(between.map((g) => g.itemId)).size;
  return items > 0 ? between.reduce((s, g) => s + g.weight, 0) / items : null;
}

/**
 * Two contestants compared only through others (each against the baseline): a difference through a common
 * opponent has about twice the variance of a direct one, so an item is worth half the lesser side's games.
 */
function viaOthers(games: readonly Game[], x: string, y: string): number {
  const perItem = (c: string) => {
    const own = games.filter((g) => g.a === c || g.b === c);
    const items = new Set(own.map((g) => g.itemId)).size;
    return items > 0 ? own.reduce((s, g) => s + g.weight, 0) / items : 0;
  };
  return Math.min(perItem(x), perItem(y)) / 2;
}
