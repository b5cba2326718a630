/**
 * Active pairing against uniform pairing in a simulated arena with known strengths (bench/lib/pairing-sim.ts):
 * how many votes until the 95% intervals of the differences between neighbours (in the true order) are narrow
 * enough. The Chatbot Arena paper's replay of its own votes needed 4,400 votes with its active rule against
 * 6,800 drawn uniformly. Pure computation in this Node process: seeded, so a run prints the same figures.
 */
import type { BenchContext } from "./lib/context";
import { arenaLikeStrengths, type Pairing, REFIT_EVERY, type StoppingRule, votesToStop } from "./lib/pairing-sim";
import type { Row } from "./lib/report";
import { p50, thousands } from "./lib/stats";

const MODELS = 16;
const SEEDS = [1, 2, 3, 4, 5, 6, 7, 8, 9];
const MAX_VOTES = 40_000;
/** rating points: about what 6,800 uniform votes give 16 models spread like the Arena's */
const TARGET = 70;

const RULES: StoppingRule[] = [
  { name: "mean width, whole order", adjacent: () => true, reduce: "mean", target: TARGET },
  { name: "max width, whole order", adjacent: () => true, reduce: "max", target: TARGET },
  { name: "mean width, top 3 (1st–2nd, 2nd–3rd, 3rd–4th)", adjacent: (k) => k < 3, reduce: "mean", target: TARGET },
];

const PAIRINGS: [name: string, pairing: Pairing][] = [
  ["uniform", { kind: "uniform" }],
  ["active, focus all (the default)", { kind: "active", rules: { focus: { top: null }, newModelBattles: 50 } }],
  ["active, focus top3", { kind: "active", rules: { focus: { top: 3 }, newModelBattles: 50 } }],
];

export async function pairingBench(_ctx: BenchContext, name: string): Promise<Omit<Row, "seconds">> {
  const strengths = arenaLikeStrengths(MODELS);
  // medians[pairing][rule]
  const medians: number[][] = [];
  const details = [
    `${MODELS} models, strengths ${strengths.map((s) => s.toFixed(0)).join(", ")} (normal quantiles, sd 100)`,
    `votes from the true Bradley–Terry model; the fit and its sandwich covariance refreshed every ${REFIT_EVERY} votes; medians of ${SEEDS.length} seeds`,
  ];
  const problems: string[] = [];
  for (const [label, pairing] of PAIRINGS) {
    const runs = SEEDS.map((seed) => votesToStop(strengths, pairing, RULES, seed, MAX_VOTES));
    const perRule = RULES.map((_, r) => runs.map((run) => run[r] ?? Number.POSITIVE_INFINITY));
    medians.push(perRule.map((v) => p50(v)));
    details.push(
      `${label}: ${RULES.map((rule, r) => `${rule.name} ≤ ${rule.target} points after ${thousands(p50(perRule[r]))} votes (${thousands(Math.min(...perRule[r]))}–${thousands(Math.max(...perRule[r]))})`).join("; ")}`,
    );
    if (perRule.some((v) => v.some((x) => !Number.isFinite(x))))
      problems.push(`${label}: a rule was not met within ${thousands(MAX_VOTES)} votes`);
  }
  const [uniform, active] = [medians[0][0], medians[1][0]];
  return {
    name,
    benchmark: `votes until the mean 95% width of neighbours' differences ≤ ${TARGET} points, ${MODELS} simulated models`,
    baseline: `uniform: ${thousands(uniform)} votes`,
    result: `active: ${thousands(active)} votes (${((1 - active / uniform) * 100).toFixed(0)}% fewer); top-3 widths: ${thousands(medians[2][2])} with focus top3 against ${thousands(medians[0][2])} uniform`,
    target: "fewer votes than uniform (the paper's replay: 4,400 vs 6,800)",
    verdict: active < uniform && !problems.length ? "met" : "MISSED",
    details,
    problems,
  };
}
