/**
 * Deterministic battles among 50 models with known Bradley–Terry strengths, the same for every run:
 * a seeded generator, so the leaderboard, the BT fit and the import all see the same kind of data.
 */
import { seededRandom } from "../../worker/rating/random";

export const MODEL_COUNT = 50;
const PROVIDERS = ["openai", "anthropic", "google", "openai-compatible"];

/** `provider:bench-NN`, spread over the four vendors. */
export const MODELS: string[] = Array.from(
  { length: MODEL_COUNT },
  (_, i) => `${PROVIDERS[i % 4]}:bench-${String(i + 1).padStart(2, "0")}`,
);

/** Outcome codes: model A (left) wins, model B wins, tie, both bad. */
export const A_WINS = 0;
export const B_WINS = 1;
export const TIE = 2;
export const BOTH_BAD = 3;
export const WINNER_NAMES = ["model_a", "model_b", "tie", "tie (bothbad)"] as const;
export const CHOICE_NAMES = ["left", "right", "tie", "both-bad"] as const;

const P_TIE = 0.15;
const P_BOTH_BAD = 0.08;
export const FIRST_TSTAMP = 1_700_000_000;

export interface Battles {
  count: number;
  a: Int32Array;
  b: Int32Array;
  outcome: Uint8Array;
  /** the true ratings (Elo scale) the outcomes were drawn from */
  truth: Float64Array;
}

/** `count` battles: a random pair each (left = a), the outcome drawn from the true ratings. */
export function makeBattles(count: number, seed = 8): Battles {
  const random = seededRandom(seed);
  const truth = Float64Array.from({ length: MODEL_COUNT }, (_, i) => 1250 - (500 * i) / (MODEL_COUNT - 1));
  const a = new Int32Array(count);
  const b = new Int32Array(count);
  const outcome = new Uint8Array(count);
  for (let k = 0; k < count; k++) {
    const i = Math.floor(random() * MODEL_COUNT);
    let j = Math.floor(random() * (MODEL_COUNT - 1));
    if (j >= i) j++;
    a[k] = i;
    b[k] = j;
    const u = random();
    if (u < P_TIE) outcome[k] = TIE;
    else if (u < P_TIE + P_BOTH_BAD) outcome[k] = BOTH_BAD;
    else {
      const pA = 1 / (1 + 10 ** ((truth[j] - truth[i]) / 400));
      outcome[k] = random() < pA ? A_WINS : B_WINS;
    }
  }
  return { count, a, b, outcome, truth };
}

/** Seed 000's statistics straight from the generator: wins (tie = a win each, both bad none) and appearances. */
export function expectedStats(
  battles: Battles,
  unvoted: { a: Int32Array; b: Int32Array },
): { wins: Int32Array; appearances: Int32Array } {
  const wins = new Int32Array(MODEL_COUNT);
  const appearances = new Int32Array(MODEL_COUNT);
  for (let k = 0; k < battles.count; k++) {
    appearances[battles.a[k]]++;
    appearances[battles.b[k]]++;
    const o = battles.outcome[k];
    if (o === A_WINS || o === TIE) wins[battles.a[k]]++;
    if (o === B_WINS || o === TIE) wins[battles.b[k]]++;
  }
  for (let k = 0; k < unvoted.a.length; k++) {
    appearances[unvoted.a[k]]++;
    appearances[unvoted.b[k]]++;
  }
  return { wins, appearances };
}

/** A deterministic UUID-shaped id, in insertion order (so B-tree inserts append). */
export function seqId(kind: number, n: number): string {
  const hex = n.toString(16).padStart(12, "0");
  return `${kind.toString(16).padStart(8, "0")}-0000-4000-8000-${hex}`;
}
