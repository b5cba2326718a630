/**
 * Bradley–Terry with 100 bootstrap rounds at 1,000,000 battles as the Worker computes it (worker/rating on the
 * pair-count cells its counters hold), against the same fit on the battle rows, in this one Node process
 * (the pinned Node 24: the same V8 as workerd) on typed arrays.
 */
import { bootstrapBradleyTerry } from "../worker/rating/bootstrap";
import { fitBradleyTerry, type PairCell } from "../worker/rating/bradley-terry";
import { bootstrapOnBattles, fitByMM, fitOnBattles, type BattleRows } from "./bt-on-battles";
import type { BenchContext } from "./lib/context";
import type { Row } from "./lib/report";
import { fixed, ms, p50, p95, spread, thousands } from "./lib/stats";
import { A_WINS, B_WINS, MODEL_COUNT, makeBattles, type Battles } from "./lib/synthetic";
import { cached } from "../worker/shared/memo";

const BATTLES = 1_000_000;
const ROUNDS = 100;
/** the Worker's own seed (worker/arena/leaderboard.ts BOOTSTRAP_SEED); any seed costs the same */
const SEED = 20_240_229;
/** the battle-row bootstrap takes about a minute and a half here: two trials keep the whole bench under budget */
const FAST_TRIALS = 10;
const BASELINE_TRIALS = 2;

/** The pair cells the counters hold: outcomes per pair, both kinds of tie together. */
function cellsOf(battles: Battles): PairCell[] {
  const cells = new Map<number, PairCell>();
  for (let k = 0; k < battles.count; k++) {
    const [x, y, o] = [battles.a[k], battles.b[k], battles.outcome[k]];
    const [i, j] = x < y ? [x, y] : [y, x];
    const key = i * MODEL_COUNT + j;
    const cell = cached(cells, key, () => ({ i, j, winsI: 0, winsJ: 0, ties: 0 }));
    if (o === A_WINS) x === i ? cell.winsI++ : cell.winsJ++;
    else if (o === B_WINS) y === i ? cell.winsI++ : cell.winsJ++;
    else cell.ties++;
  }
  return [...cells.values()];
}

function rowsOf(battles: Battles): BattleRows {
  const score = Float64Array.from(battles.outcome, (o) => (o === A_WINS ? 1 : o === B_WINS ? 0 : 0.5));
  return { count: battles.count, a: battles.a, b: battles.b, score };
}

const maxDiff = (x: ArrayLike<number>, y: ArrayLike<number>) => {
  let worst = 0;
  for (let k = 0; k < x.length; k++) worst = Math.max(worst, Math.abs(x[k] - y[k]));
  return worst;
};

export async function btBench(_ctx: BenchContext, name: string): Promise<Omit<Row, "seconds">> {
  const battles = makeBattles(BATTLES, 8);
  let t = performance.now();
  const cells = cellsOf(battles);
  const tallyMs = performance.now() - t;
  const rows = rowsOf(battles);

  const fast = () => {
    const t0 = performance.now();
    const fit = fitBradleyTerry(MODEL_COUNT, cells);
    const intervals = bootstrapBradleyTerry(MODEL_COUNT, cells, { rounds: ROUNDS, seed: SEED });
    return { ms: performance.now() - t0, fit, intervals };
  };
  const slow = () => {
    const t0 = performance.now();
    const result = bootstrapOnBattles(MODEL_COUNT, rows, ROUNDS, SEED);
    return { ms: performance.now() - t0, result };
  };

  fast(); // warm-up: V8 optimises the hot loops first
  const fastMs: number[] = [];
  const slowMs: number[] = [];
  let lastFast = fast();
  let lastSlow = null as ReturnType<typeof slow> | null;
  // Interleaved, so a noisy stretch of the machine hits both.
  for (let trial = 0; trial < BASELINE_TRIALS; trial++) {
    console.log(`  battle-row bootstrap, trial ${trial + 1} of ${BASELINE_TRIALS}…`);
    lastSlow = slow();
    slowMs.push(lastSlow.ms);
    for (let k = 0; k < Math.ceil(FAST_TRIALS / BASELINE_TRIALS); k++) {
      lastFast = fast();
      fastMs.push(lastFast.ms);
    }
  }
  t = performance.now();
  const fitOnly = fitOnBattles(MODEL_COUNT, rows);
  const fitOnlyMs = performance.now() - t;
  t = performance.now();
  fitBradleyTerry(MODEL_COUNT, cells);
  const fastFitMs = performance.now() - t;

  const exact = fitByMM(MODEL_COUNT, cells);
  const workerError = maxDiff(lastFast.fit.ratings, exact.ratings);
  const rowsError = maxDiff(lastSlow!.result.ratings, exact.ratings);
  const ciGap = Math.max(
    maxDiff(lastFast.intervals.lower, lastSlow!.result.lower),
    maxDiff(lastFast.intervals.upper, lastSlow!.result.upper),
  );
  const width = p50(Array.from(lastFast.intervals.upper, (u, k) => u - lastFast.intervals.lower[k]));
  const ratio = p50(slowMs) / p50(fastMs);
  const problems: string[] = [];
  if (lastFast.fit.penalized)
    problems.push("the fit was penalised: the synthetic win graph should be strongly connected");
  if (workerError > 0.01) problems.push(`the Worker's ratings are ${workerError} from the exact optimum`);
  const target = 50;
  return {
    name,
    benchmark: `BT + ${ROUNDS} bootstrap rounds at ${thousands(BATTLES)} battles, as the Worker computes it (pair-count cells)`,
    baseline: `the same Newton fit and bootstrap on battle rows (one term per battle), same process, typed arrays: ${spread(slowMs, (x) => ms(x))}`,
    result: `${fixed(ratio, 0)}× faster (p50 ${ms(p50(fastMs), 1)}, p95 ${ms(p95(fastMs), 1)}); ratings within ${workerError.toExponential(1)} of the exact optimum`,
    target: `≥ ${target}× faster; ratings within 0.01 of the exact optimum`,
    verdict: ratio >= target && workerError <= 0.01 ? "met" : "MISSED",
    details: [
      `${thousands(BATTLES)} synthetic battles among ${MODEL_COUNT} models (ties 15%, both bad 8%) → ${cells.length} pair cells; tallying them took ${ms(tallyMs)} once (the Worker never does: its triggers keep the counts)`,
      `Worker path (fitBradleyTerry + bootstrapBradleyTerry, ${ROUNDS} rounds): ${spread(fastMs, (x) => ms(x, 1))}`,
      `battle rows (${ROUNDS} resamples of ${thousands(BATTLES)} rows, each refitted): ${spread(slowMs, (x) => ms(x))}; ratio p50/p50 = ${fixed(ratio, 1)}`,
      `the full fit alone: ${ms(fastFitMs, 2)} on pair cells vs ${ms(fitOnlyMs)} on battle rows (${fitOnly.iterations} Newton steps)`,
      `exact optimum: MM (Zermelo/Hunter) on the pair counts, ${thousands(exact.iterations)} iterations to a 1e-13 fixed point; max |Δ rating|: Worker ${workerError.toExponential(2)}, battle-row fit ${rowsError.toExponential(2)}`,
      `intervals: the two bootstraps draw different resamples, so their 95% bounds differ by Monte Carlo noise only: max |Δ bound| ${fixed(ciGap, 2)} points, median interval width ${fixed(width, 1)} points`,
    ],
    problems,
  };
}
