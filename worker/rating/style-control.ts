/**
 * Style-controlled Bradley–Terry, Chatbot Arena's method (FastChat rating_systems.py: preprocess_for_style,
 * fit_contextual_bt, compute_style_control, compute_bootstrap_style_control):
 * - each battle's style features are the ratios (a − b)/(a + b + 1) of styleDiffs, and each feature column is
 *   standardised over all the battles given (mean, population standard deviation); the bootstrap reuses the
 *   full data's mean and deviation in every round, as Arena does;
 * - P(A beats B) = σ(ln10·(θa − θb) + β·x), ties (both kinds) are kept as half a win each way (y = ½);
 * - the loss is the sum of per-battle cross-entropies plus (λ/2)(‖θ‖² + ‖β‖²) with Arena's λ = 0.5 (its
 *   LogisticRegression C = 1 on battles counted twice), on θ in rating/400 units;
 * - the reported rating is 1000 + 400·θ — the penalty keeps Σθ = 0, so the mean is 1000 — or the same
 *   shifted so the anchor sits at its rating. It is each model's strength with style held equal.
 * Unlike Arena's L-BFGS (100 iterations, gtol 1e-6) the fit runs Newton to a vanishing gradient.
 */
import { scoreOfA, type Winner } from "./battle-outcome";
import { BOOTSTRAP_DEFAULTS } from "./bootstrap";
import { DENSE_MAX_MODELS, type Anchor } from "./bradley-terry";
import { intervalsOf, seededRandom } from "./random";
import { minimizeStyleLoss, type StyleDesign } from "./style-newton";
import { minimizeStyleLossSparse } from "./style-newton-sparse";
import { drain, Slicer, type Sliced } from "./work-slices";

export interface StyleBattle {
  a: number;
  b: number;
  winner: Winner;
  /** raw feature ratios, e.g. styleDiffs(countsA, countsB) */
  diffs: ArrayLike<number>;
}

export const STYLE_L2_PENALTY = 0.5;

export interface StyleFit {
  /** 400-scale, mean 1000 or anchored; NaN for a model with no battle against another model */
  ratings: Float64Array;
  /** log-odds per standard deviation of each feature */
  beta: Float64Array;
  featureMean: Float64Array;
  /** 0 for a feature that never varies; its β is then 0 */
  featureStd: Float64Array;
  iterations: number;
}

export interface StyleIntervals {
  lower: Float64Array;
  upper: Float64Array;
  betaLower: Float64Array;
  betaUpper: Float64Array;
  rounds: number;
}

interface Prepared {
  design: StyleDesign;
  mean: Float64Array;
  std: Float64Array;
}

function prepare(n: number, battles: readonly StyleBattle[]): Prepared {
  if (!Number.isInteger(n) || n < 0) throw new RangeError(`n must be a non-negative integer, got ${n}`);
  const count = battles.length;
  const k = count === 0 ? 4 : battles[0].diffs.length;
  const design: StyleDesign = {
    n,
    k,
    count,
    a: new Int32Array(count),
    b: new Int32Array(count),
    y: new Float64Array(count),
    x: new Float64Array(count * k),
  };
  battles.forEach(({ a, b, winner, diffs }, i) => {
    const inRange = (m: number): boolean => Number.isInteger(m) && m >= 0 && m < n;
    if (!inRange(a) || !inRange(b)) throw new RangeError(`battle ${i} names a model outside 0..${n - 1}`);
    if (diffs.length !== k) throw new RangeError(`battle ${i} has ${diffs.length} features, the first has ${k}`);
    const y = scoreOfA(winner) as number | undefined;
    if (y === undefined) throw new RangeError(`battle ${i} has an unknown winner ${String(winner)}`);
    design.a[i] = a;
    design.b[i] = b;
    design.y[i] = y;
    for (let f = 0; f < k; f++) {
      if (!Number.isFinite(diffs[f])) throw new RangeError(`battle ${i} has a non-finite feature ${f}`);
      design.x[i * k + f] = diffs[f];
    }
  });
  const mean = new Float64Array(k);
  const std = new Float64Array(k);
  for (let f = 0; f < k; f++) {
    let sum = 0;
    for (let i = 0; i < count; i++) sum += design.x[i * k + f];
    const m = count > 0 ? sum / count : 0;
    let squares = 0;
    for (let i = 0; i < count; i++) squares += (design.x[i * k + f] - m) ** 2;
    const s = count > 0 ? Math.sqrt(squares / count) : 0;
    // A constant column (no answer ever had a header, say) would divide by zero in Arena; here it stays 0.
    const varies = s > 1e-12 * Math.max(1, Math.abs(m));
    mean[f] = m;
    std[f] = varies ? s : 0;
    for (let i = 0; i < count; i++) design.x[i * k + f] = varies ? (design.x[i * k + f] - m) / s : 0;
  }
  return { design, mean, std };
}

/** Ratings from θ: NaN where a model met no other model (under `weights`), anchored when the anchor played. */
function ratingsOf(
  design: StyleDesign,
  weights: Float64Array | null,
  params: Float64Array,
  anchor: Anchor | null,
): Float64Array {
  const played = new Uint8Array(design.n);
  for (let i = 0; i < design.count; i++) {
    if (design.a[i] !== design.b[i] && (weights === null || weights[i] > 0))
      played[design.a[i]] = played[design.b[i]] = 1;
  }
  const ratings = new Float64Array(design.n);
  for (let m = 0; m < design.n; m++) ratings[m] = played[m] ? 1000 + 400 * params[m] : Number.NaN;
  if (anchor && played[anchor.index]) {
    const shift = anchor.rating - ratings[anchor.index];
    for (let m = 0; m < design.n; m++) ratings[m] += shift;
    ratings[anchor.index] = anchor.rating;
  }
  return ratings;
}

function checkAnchor(n: number, anchor: Anchor | null): void {
  if (
    anchor &&
    !(Number.isInteger(anchor.index) && anchor.index >= 0 && anchor.index < n && Number.isFinite(anchor.rating))
  ) {
    throw new RangeError(`anchor must name a model index below ${n} and a finite rating`);
  }
}

/** Past these, one dense Newton step (its (n+k)² Hessian filled battle by battle) is too long for one slice. */
const DENSE_MAX_BATTLES = 20_000;

/** Dense Newton for few models and battles, conjugate gradients in slices (style-newton-sparse.ts) otherwise. */
function* minimize(
  design: StyleDesign,
  weights: Float64Array | null,
  params: Float64Array,
  slicer: Slicer,
): Sliced<number> {
  if (design.n <= DENSE_MAX_MODELS && design.count <= DENSE_MAX_BATTLES)
    return minimizeStyleLoss(design, weights, STYLE_L2_PENALTY, params);
  return yield* minimizeStyleLossSparse(design, weights, STYLE_L2_PENALTY, params, slicer);
}

const unsliced = () => new Slicer(Number.POSITIVE_INFINITY);

export function fitStyleControlled(
  n: number,
  battles: readonly StyleBattle[],
  opts: { anchor?: Anchor | null } = {},
): StyleFit {
  return drain(fitStyleControlledSliced(n, battles, opts, unsliced()));
}

/** fitStyleControlled in slices that yield (work-slices.ts). */
export function* fitStyleControlledSliced(
  n: number,
  battles: readonly StyleBattle[],
  opts: { anchor?: Anchor | null },
  slicer: Slicer,
): Sliced<StyleFit> {
  const anchor = opts.anchor ?? null;
  checkAnchor(n, anchor);
  const { design, mean, std } = prepare(n, battles);
  const params = new Float64Array(n + design.k);
  const iterations = yield* minimize(design, null, params, slicer);
  return {
    ratings: ratingsOf(design, null, params, anchor),
    beta: params.slice(n),
    featureMean: mean,
    featureStd: std,
    iterations,
  };
}

/**
 * 2.5/97.5 percentiles over `rounds` refits on battles resampled with replacement (seeded: a draw of N battle
 * indices per round, kept as multiplicities), for the ratings and for β. A model absent from a round is left
 * out of that round's percentiles; Arena would rate it 1000 there, its penalty's resting point.
 */
export function bootstrapStyleControlled(
  n: number,
  battles: readonly StyleBattle[],
  opts: { rounds?: number; seed?: number; anchor?: Anchor | null } = {},
): StyleIntervals {
  return drain(bootstrapStyleControlledSliced(n, battles, opts, unsliced()));
}

/** bootstrapStyleControlled in slices that yield: the same rounds, the same numbers. */
export function* bootstrapStyleControlledSliced(
  n: number,
  battles: readonly StyleBattle[],
  opts: { rounds?: number; seed?: number; anchor?: Anchor | null },
  slicer: Slicer,
): Sliced<StyleIntervals> {
  const rounds = opts.rounds ?? BOOTSTRAP_DEFAULTS.rounds;
  if (!Number.isInteger(rounds) || rounds < 0)
    throw new RangeError(`rounds must be a non-negative integer, got ${rounds}`);
  const anchor = opts.anchor ?? null;
  checkAnchor(n, anchor);
  const { design } = prepare(n, battles);
  const k = design.k;
  const result: StyleIntervals = {
    lower: new Float64Array(n).fill(Number.NaN),
    upper: new Float64Array(n).fill(Number.NaN),
    betaLower: new Float64Array(k).fill(Number.NaN),
    betaUpper: new Float64Array(k).fill(Number.NaN),
    rounds,
  };
  if (design.count === 0 || rounds === 0) return result;

  const start = new Float64Array(n + k);
  yield* minimize(design, null, start, slicer);
  const random = seededRandom(opts.seed ?? BOOTSTRAP_DEFAULTS.seed);
  const weights = new Float64Array(design.count);
  const params = new Float64Array(n + k);
  const ratingSamples = new Float64Array(rounds * n);
  const betaSamples = new Float64Array(rounds * k);
  for (let round = 0; round < rounds; round++) {
    weights.fill(0);
    for (let draw = 0; draw < design.count; draw++) weights[Math.floor(random() * design.count)]++;
    if (slicer.spend(design.count)) yield;
    params.set(start);
    yield* minimize(design, weights, params, slicer);
    ratingSamples.set(ratingsOf(design, weights, params, anchor), round * n);
    betaSamples.set(params.subarray(n), round * k);
  }
  intervalsOf(ratingSamples, rounds, n, result.lower, result.upper);
  intervalsOf(betaSamples, rounds, k, result.betaLower, result.betaUpper);
  return result;
}

/**
 * e^β: against an equally strong opponent, and with the other features at their average difference, the side
 * one standard deviation further ahead on this feature wins e^β times as often as it loses (a tie counting
 * half each way). "Longer answers win X% more often" is X = 100·(e^β − 1); a standard deviation is
 * `featureStd` in units of (a − b)/(a + b + 1).
 */
export function oddsFactorPerStd(beta: number): number {
  return Math.exp(beta);
}
