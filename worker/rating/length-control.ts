/**
 * A length-controlled win rate, after AlpacaEval 2.0's idea: explain each game's outcome by a logistic model
 * with a length term, then report the win rate the model predicts when both answers are equally long.
 *
 *   P(contestant wins game k) = σ(β₀ + β₁·tanh(dₖ / s))
 *
 * dₖ is the contestant's answer length minus its opponent's in game k, s the (population) standard deviation of
 * those differences over the contestant's games (a zero deviation reads as 1), so β₁ is how much a judge rewards
 * being longer and σ(β₀) the win rate with the length difference held at zero. AlpacaEval also fits an
 * instruction-difficulty term per prompt; with a handful of games per prompt that term is not identified, so
 * it is left out here. Outcomes are 1, 0 or ½ for a tie; a game's `weight` counts identical games (a strong
 * verdict is three). A weak L2 pull (λ = 1e-3 on both coefficients) keeps the fit finite when a contestant won
 * or lost every game. The interval is the sandwich H⁻¹GH⁻¹ on β₀, mapped through σ; after a sweep (every game
 * won, or every game lost), where the sandwich collapses to a point, it is at least the Wilson interval of the share.
 */
import { normalQuantile } from "./normal";
import { wilsonInterval } from "./wilson";

export interface LengthGame {
  /** 1 the contestant won, 0 it lost, ½ a tie */
  outcome: number;
  /** the contestant's answer length minus its opponent's, in tokens */
  lengthDifference: number;
  /** identical games this row stands for */
  weight: number;
}

export interface LengthControlledWinRate {
  /** σ(β₀): the predicted win rate at equal length, 0–1; NaN with no games */
  winRate: number;
  lower: number;
  upper: number;
  /** log-odds per tanh unit of length difference: > 0 when judges favoured this contestant's longer answers */
  lengthCoefficient: number;
  games: number;
}

const PENALTY = 1e-3;
const GRADIENT_TOLERANCE = 1e-10;
const MAX_ITERATIONS = 100;

const sigmoid = (x: number) => (x >= 0 ? 1 / (1 + Math.exp(-x)) : Math.exp(x) / (1 + Math.exp(x)));

export function lengthControlledWinRate(games: readonly LengthGame[], coverage = 0.95): LengthControlledWinRate {
  const total = games.reduce((n, g) => n + g.weight, 0);
  if (!(total > 0))
    return { winRate: Number.NaN, lower: Number.NaN, upper: Number.NaN, lengthCoefficient: 0, games: 0 };
  const mean = games.reduce((s, g) => s + g.weight * g.lengthDifference, 0) / total;
  const variance = games.reduce((s, g) => s + g.weight * (g.lengthDifference - mean) ** 2, 0) / total;
  const spread = variance > 0 ? Math.sqrt(variance) : 1;
  const rows = games.map((g) => ({ y: g.outcome, w: g.weight, x: Math.tanh(g.lengthDifference / spread) }));

  const objective = (b0: number, b1: number) =>
    rows.reduce((s, r) => {
      const z = b0 + b1 * r.x;
      // y·log σ(z) + (1 − y)·log σ(−z), written to stay finite for large |z|
      const logP = -Math.log1p(Math.exp(-Math.abs(z))) + Math.min(z, 0);
      const logQ = -Math.log1p(Math.exp(-Math.abs(z))) + Math.min(-z, 0);
      return s + r.w * (r.y * logP + (1 - r.y) * logQ);
    }, 0) -
    (PENALTY / 2) * (b0 * b0 + b1 * b1);

  let b0 = 0;
  let b1 = 0;
  for (let iteration = 0; iteration < MAX_ITERATIONS; iteration++) {
    const { g0, g1, h00, h01, h11 } = derivatives(rows, b0, b1);
    if (Math.hypot(g0, g1) < GRADIENT_TOLERANCE * Math.max(1, total)) break;
    // Newton step on the negative log-likelihood: H·δ = g, H positive definite thanks to the penalty.
    const det = h00 * h11 - h01 * h01;
    const d0 = (h11 * g0 - h01 * g1) / det;
    const d1 = (h00 * g1 - h01 * g0) / det;
    const before = objective(b0, b1);
    let step = 1;
    while (step > 1e-8 && objective(b0 + step * d0, b1 + step * d1) < before) step /= 2;
    b0 += step * d0;
    b1 += step * d1;
  }

  const { h00, h01, h11 } = derivatives(rows, b0, b1);
  let g00 = 0;
  let g01 = 0;
  let g11 = 0;
  for (const r of rows) {
    const residual = r.y - sigmoid(b0 + b1 * r.x);
    const e = r.w * residual * residual;
    g00 += e;
    g01 += e * r.x;
    g11 += e * r.x * r.x;
  }
  // Cov = H⁻¹ G H⁻¹; only its (0, 0) entry is needed: a·G·a with a the first row of H⁻¹.
  const det = h00 * h11 - h01 * h01;
  const a0 = h11 / det;
  const a1 = -h01 / det;
  const variance0 = a0 * a0 * g00 + 2 * a0 * a1 * g01 + a1 * a1 * g11;
  const z = normalQuantile(1 - (1 - coverage) / 2);
  const se = Math.sqrt(Math.max(variance0, 0));
  const share = games.reduce((s, g) => s + g.weight * g.outcome, 0) / total;
  const sweep = share === 0 || share === 1 ? wilsonInterval(share, total, z) : null;
  return {
    winRate: sigmoid(b0),
    lower: Math.min(sigmoid(b0 - z * se), sweep?.lower ?? 1),
    upper: Math.max(sigmoid(b0 + z * se), sweep?.upper ?? 0),
    lengthCoefficient: b1,
    games: total,
  };
}

/** Gradient of the penalised log-likelihood and the negative Hessian (the information, plus the penalty). */
function derivatives(rows: readonly { y: number; w: number; x: number }[], b0: number, b1: number) {
  let g0 = -PENALTY * b0;
  let g1 = -PENALTY * b1;
  let h00 = PENALTY;
  let h01 = 0;
  let h11 = PENALTY;
  for (const r of rows) {
    const p = sigmoid(b0 + b1 * r.x);
    const residual = r.w * (r.y - p);
    g0 += residual;
    g1 += residual * r.x;
    const curvature = r.w * p * (1 - p);
    h00 += curvature;
    h01 += curvature * r.x;
    h11 += curvature * r.x * r.x;
  }
  return { g0, g1, h00, h01, h11 };
}
