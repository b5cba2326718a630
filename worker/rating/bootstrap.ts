/**
 * Bootstrap confidence intervals for Bradley–Terry ratings, as Chatbot Arena computes them: resample the N
 * battles with replacement, refit, take the 2.5% and 97.5% percentiles. Resampling battles is the same as a
 * multinomial draw over the outcome cells (pair × {i wins, j wins, tie}), so no round ever touches a battle.
 */
import { fitPairTableSliced, type Anchor, type PairCell } from "./bradley-terry";
import { pairTableOf } from "./pair-table";
import { intervalsOf, sampleMultinomialSliced, seededRandom } from "./random";
import { drain, Slicer, type Sliced } from "./work-slices";

export interface BtIntervals {
  /** NaN where unknown: a model with no battles */
  lower: Float64Array;
  upper: Float64Array;
  rounds: number;
}

export interface BootstrapOptions {
  rounds?: number;
  seed?: number;
  anchor?: Anchor | null;
  /**
   * Each cell's weight per battle (sandwich.ts pairWeights), fixed from the data as drawn: each round resamples
   * whole battles, then weighs them, as arena-rank's reweighted bootstrap does.
   */
  weights?: ArrayLike<number> | null;
}

export const BOOTSTRAP_DEFAULTS: Readonly<{ rounds: number; seed: number }> = Object.freeze({ rounds: 100, seed: 1 });

export function bootstrapBradleyTerry(n: number, cells: readonly PairCell[], opts: BootstrapOptions = {}): BtIntervals {
  return drain(bootstrapBradleyTerrySliced(n, cells, opts, new Slicer(Number.POSITIVE_INFINITY)));
}

/** bootstrapBradleyTerry in slices that yield (work-slices.ts): the same rounds, the same numbers. */
export function* bootstrapBradleyTerrySliced(
  n: number,
  cells: readonly PairCell[],
  opts: BootstrapOptions,
  slicer: Slicer,
): Sliced<BtIntervals> {
  const rounds = opts.rounds ?? BOOTSTRAP_DEFAULTS.rounds;
  if (!Number.isInteger(rounds) || rounds < 0)
    throw new RangeError(`rounds must be a non-negative integer, got ${rounds}`);
  const anchor = opts.anchor ?? null;
  const table = pairTableOf(n, cells);
  const lower = new Float64Array(n).fill(Number.NaN);
  const upper = new Float64Array(n).fill(Number.NaN);

  const outcomes = [table.winsI, table.winsJ, table.ties];
  const counts: number[] = [];
  const cellOf: number[] = [];
  const kindOf: number[] = [];
  outcomes.forEach((column, kind) => {
    column.forEach((count, c) => {
      if (!Number.isInteger(count))
        throw new RangeError(`bootstrap needs whole battle counts; pair cell ${c} has ${count}`);
      if (count === 0) return;
      counts.push(count);
      cellOf.push(c);
      kindOf.push(kind);
    });
  });
  const total = counts.reduce((sum, count) => sum + count, 0);
  if (total === 0 || rounds === 0) return { lower, upper, rounds };

  const weights = opts.weights ?? null;
  const weighed = () => {
    if (weights) for (const column of outcomes) for (let c = 0; c < table.size; c++) column[c] *= weights[c];
  };
  weighed();
  const start = (yield* fitPairTableSliced(n, table, { anchor }, slicer)).ratings;
  const random = seededRandom(opts.seed ?? BOOTSTRAP_DEFAULTS.seed);
  const probs = Float64Array.from(counts, (count) => count / total);
  const drawn = new Float64Array(counts.length);
  const samples = new Float64Array(rounds * n);
  for (let round = 0; round < rounds; round++) {
    yield* sampleMultinomialSliced(random, total, probs, drawn, slicer);
    for (const column of outcomes) column.fill(0);
    for (let k = 0; k < drawn.length; k++) outcomes[kindOf[k]][cellOf[k]] = drawn[k];
    weighed();
    // A model without battles this round is NaN here and so left out of its own percentiles.
    samples.set((yield* fitPairTableSliced(n, table, { anchor, start }, slicer)).ratings, round * n);
  }

  intervalsOf(samples, rounds, n, lower, upper);
  return { lower, upper, rounds };
}
