/**
 * An evaluation's report from its stored answers and judgments: the standings (standings.ts), overall and per
 * category; the length-controlled win rate (rating/length-control.ts); style-controlled ratings (arena-rank's
 * contextual Bradley–Terry over the same games); cost and speed with the rating-per-dollar frontier; each judge's
 * flips, the judges' agreement with each other and with the arena's human votes (human-agreement.ts); and, with repeats, how much each contestant's win rate moves between samples.
 */
import { contextualStyleFeatures, fitContextualBradleyTerry, type ContextualBattle } from "../rating/contextual-bt";
import { lengthControlledWinRate, type LengthGame } from "../rating/length-control";
import { percentile } from "../rating/random";
import { STYLE_FEATURES, type StyleCounts } from "../rating/style-features";
import { type FivePointVerdict, gamesOf, isFlip, leanOf } from "./games";
import { COUNCIL_COUNTING, type ReportReview, reviewerSummaries } from "./council-games";
import { GOAL_COUNTING, goalSummaries, type ReportGoal } from "./goal-games";
import { HUMAN_AGREEMENT_METHOD, type HumanAgreement, type HumanPair, humanAgreementOf } from "./human-agreement";
import { type Game, type Separation, type Standing, standingsOf } from "./standings";

export interface ReportItem {
  itemId: string;
  category: string | null;
}

export interface ReportAnswer {
  itemId: string;
  contestant: string;
  sample: number;
  status: "complete" | "failed";
  tokensIn: number | null;
  tokensOut: number | null;
  latencyMs: number | null;
  firstTokenMs: number | null;
  costUsd: number | null;
  /** the answer's style counts (rating/style-features.ts), null when it failed */
  style: StyleCounts | null;
}

export interface ReportJudgment {
  itemId: string;
  sample: number;
  judge: string;
  /** shown as A */
  first: string;
  second: string;
  status: "complete" | "failed";
  verdict: FivePointVerdict | null;
  costUsd: number | null;
}

export interface ReportInput {
  contestants: readonly string[];
  baseline: string | null;
  items: readonly ReportItem[];
  answers: readonly ReportAnswer[];
  judgments: readonly ReportJudgment[];
  /** a council evaluation's reviews (its `judgments` are their games, council-games.ts) */
  reviews?: readonly ReportReview[];
  /** a goal evaluation's battles (its `judgments` and `answers` are their games and sides, goal-games.ts) */
  goals?: readonly ReportGoal[];
  /** a goal evaluation's judge, which decided the battles that ran to the limit */
  goalJudge?: string | null;
  /** the arena's human votes on pairs of these contestants; absent: none */
  humanPairs?: readonly HumanPair[];
  coverage?: number;
}

export interface ReportRow extends Standing {
  /** length-controlled win rate against the same reference, 0–1 */
  lcWinRate: number | null;
  lcWinRateLower: number | null;
  lcWinRateUpper: number | null;
  /** log-odds per unit of tanh(length difference / its deviation) */
  lengthCoefficient: number | null;
  styleBt: number | null;
  styleCiLower: number | null;
  styleCiUpper: number | null;
  answers: number;
  failures: number;
  tokensIn: number;
  tokensOut: number;
  /** null when any of its answers had no price */
  costUsd: number | null;
  latencyP50: number | null;
  latencyP95: number | null;
  firstTokenP50: number | null;
  firstTokenP95: number | null;
  /** no other contestant rates higher for no more money */
  onCostFrontier: boolean;
}

export interface JudgeSummary {
  judge: string;
  judgments: number;
  failures: number;
  /** pairs judged in both orders */
  pairs: number;
  flips: number;
  flipRate: number | null;
  costUsd: number;
}

export interface JudgeAgreement {
  judges: [string, string];
  /** pairs both judged in both orders */
  pairs: number;
  /** of those, the share where both leaned the same way (or both called it even) */
  agreement: number | null;
}

export interface EvaluationReport {
  baseline: string | null;
  coverage: number;
  rows: ReportRow[];
  separation: Separation;
  categories: { category: string; items: number; rows: Standing[]; separation: Separation }[];
  judges: JudgeSummary[];
  judgeAgreement: JudgeAgreement[];
  /** each judge against the arena's human votes on the same pairs */
  judgeHumanAgreement: HumanAgreement[];
  /** with repeats: each contestant's observed win rate per sample and their range */
  stability: { contestant: string; samples: (number | null)[]; range: number | null }[] | null;
  style: { features: string[]; coefficients: number[] } | null;
  totals: { items: number; answers: number; judgments: number; answerCostUsd: number; judgeCostUsd: number };
  methods: { intervals: string; winRate: string; lengthControl: string; counting: string; humanAgreement: string };
}

export const REPORT_METHODS = {
  intervals: "Bradley–Terry on the judges' games, sandwich (H⁻¹GH⁻¹) 95% intervals; anchored at 1000 on the baseline",
  winRate:
    "predicted from the ratings against the baseline (without one, the mean over the other contestants), interval by the delta method",
  lengthControl:
    "logistic fit of each game's outcome on tanh(length difference / its deviation); the win rate it predicts at equal length",
  counting: "arena-hard-auto: each order its own game; ≫ three games for its winner, > one, ≈ one tie",
  humanAgreement: HUMAN_AGREEMENT_METHOD,
} as const;

const key = (...parts: (string | number)[]) => parts.join("\u0000");

export function buildReport(input: ReportInput): EvaluationReport {
  const coverage = input.coverage ?? 0.95;
  const { contestants, baseline } = input;
  const categoryOf = new Map(input.items.map((i) => [i.itemId, i.category]));
  const answerOf = new Map(input.answers.map((a) => [key(a.itemId, a.sample, a.contestant), a]));
  const complete = input.judgments.filter(
    (j): j is ReportJudgment & { verdict: FivePointVerdict } => j.status === "complete" && j.verdict !== null,
  );
  const games = complete.flatMap(gamesOfJudgment);

  const { rows: standings, separation } = standingsOf(contestants, games, { baseline, coverage });
  const style = styleFit(contestants, games, answerOf, baseline, coverage);
  const rows = standings.map((s, i): ReportRow => {
    const lc = lengthControl(s.contestant, contestants, baseline, games, answerOf);
    const mine = input.answers.filter((a) => a.contestant === s.contestant);
    const done = mine.filter((a) => a.status === "complete");
    const sorted = (pick: (a: ReportAnswer) => number | null) =>
      Float64Array.from(done.map(pick).filter((x): x is number => x !== null)).sort();
    const [latency, firstToken] = [sorted((a) => a.latencyMs), sorted((a) => a.firstTokenMs)];
    const at = (values: Float64Array, q: number) => (values.length ? percentile(values, q) : null);
    const priced = mine.every((a) => a.status !== "complete" || a.costUsd !== null);
    return {
      ...s,
      lcWinRate: s.contestant === baseline ? 0.5 : (lc?.winRate ?? null),
      lcWinRateLower: s.contestant === baseline ? 0.5 : (lc?.lower ?? null),
      lcWinRateUpper: s.contestant === baseline ? 0.5 : (lc?.upper ?? null),
      lengthCoefficient: lc?.lengthCoefficient ?? null,
      styleBt: style ? finite(style.ratings[i]) : null,
      styleCiLower: style ? finite(style.lower[i]) : null,
      styleCiUpper: style ? finite(style.upper[i]) : null,
      answers: done.length,
      failures: mine.length - done.length,
      tokensIn: done.reduce((n, a) => n + (a.tokensIn ?? 0), 0),
      tokensOut: done.reduce((n, a) => n + (a.tokensOut ?? 0), 0),
      costUsd: priced ? mine.reduce((n, a) => n + (a.costUsd ?? 0), 0) : null,
      latencyP50: at(latency, 0.5),
      latencyP95: at(latency, 0.95),
      firstTokenP50: at(firstToken, 0.5),
      firstTokenP95: at(firstToken, 0.95),
      onCostFrontier: false,
    };
  });
  markCostFrontier(rows);

  const categories = [...new Set(input.items.map((i) => i.category).filter((c): c is string => c !== null))]
    .sort()
    .map((category) => {
      const inCategory = games.filter((g) => categoryOf.get(g.itemId) === category);
      const items = input.items.filter((i) => i.category === category).length;
      return { category, items, ...standingsOf(contestants, inCategory, { baseline, coverage }) };
    });

  const { reviews, goals } = input;
  const { judges, judgeAgreement } = reviews
    ? { judges: reviewerSummaries(reviews), judgeAgreement: [] }
    : goals
      ? { judges: goalSummaries(goals, input.goalJudge ?? null), judgeAgreement: [] }
      : judgeFigures(input.judgments);
  return {
    baseline,
    coverage,
    rows,
    separation,
    categories,
    judges,
    judgeAgreement,
    judgeHumanAgreement: humanAgreementOf(
      judges.map((j) => j.judge),
      games,
      input.humanPairs ?? [],
    ),
    stability: stabilityOf(contestants, baseline, games),
    style: style ? { features: [...STYLE_FEATURES], coefficients: [...style.coefficients] } : null,
    totals: {
      items: input.items.length,
      answers: input.answers.length,
      judgments: (reviews ?? input.judgments).length,
      answerCostUsd: input.answers.reduce((n, a) => n + (a.costUsd ?? 0), 0),
      judgeCostUsd: (reviews ?? input.judgments).reduce((n, j) => n + (j.costUsd ?? 0), 0),
    },
    methods: reviews
      ? { ...REPORT_METHODS, counting: COUNCIL_COUNTING }
      : goals
        ? { ...REPORT_METHODS, counting: GOAL_COUNTING }
        : REPORT_METHODS,
  };
}

const finite = (x: number) => (Number.isFinite(x) ? x : null);

export function gamesOfJudgment(j: ReportJudgment & { verdict: FivePointVerdict }): Game[] {
  const { firstWins, secondWins, ties } = gamesOf(j.verdict);
  const base = { itemId: j.itemId, sample: j.sample, judge: j.judge, a: j.first, b: j.second };
  const games: Game[] = [];
  if (firstWins) games.push({ ...base, outcome: 1, weight: firstWins });
  if (secondWins) games.push({ ...base, outcome: 0, weight: secondWins });
  if (ties) games.push({ ...base, outcome: 0.5, weight: ties });
  return games;
}

/** Its games against the reference, each with the two answers' length difference in output tokens. */
function lengthControl(
  contestant: string,
  contestants: readonly string[],
  baseline: string | null,
  games: readonly Game[],
  answerOf: Map<string, ReportAnswer>,
) {
  if (contestant === baseline) return null;
  const reference = new Set(baseline ? [baseline] : contestants.filter((c) => c !== contestant));
  const lengthOf = (g: Game, c: string) => answerOf.get(key(g.itemId, g.sample, c))?.style?.tokens ?? null;
  const rows: LengthGame[] = [];
  for (const g of games) {
    const other = g.a === contestant ? g.b : g.b === contestant ? g.a : null;
    if (other === null || !reference.has(other)) continue;
    const [mine, theirs] = [lengthOf(g, contestant), lengthOf(g, other)];
    if (mine === null || theirs === null) continue;
    rows.push({
      outcome: g.a === contestant ? g.outcome : 1 - g.outcome,
      lengthDifference: mine - theirs,
      weight: g.weight,
    });
  }
  return rows.length ? lengthControlledWinRate(rows) : null;
}

/** arena-rank's contextual Bradley–Terry over the same games, each repeated by its weight, without reweighting. */
function styleFit(
  contestants: readonly string[],
  games: readonly Game[],
  answerOf: Map<string, ReportAnswer>,
  baseline: string | null,
  coverage: number,
) {
  const index = new Map(contestants.map((c, i) => [c, i]));
  const battles: ContextualBattle[] = [];
  for (const g of games) {
    const [a, b] = [
      answerOf.get(key(g.itemId, g.sample, g.a))?.style,
      answerOf.get(key(g.itemId, g.sample, g.b))?.style,
    ];
    const [x, y] = [index.get(g.a), index.get(g.b)];
    if (!a || !b || x === undefined || y === undefined) continue;
    const features = contextualStyleFeatures(
      STYLE_FEATURES.map((f) => a[f]),
      STYLE_FEATURES.map((f) => b[f]),
    );
    const winner = g.outcome === 1 ? "model_a" : g.outcome === 0 ? "model_b" : "tie";
    for (let k = 0; k < g.weight; k++) battles.push({ a: x, b: y, winner, features });
  }
  if (battles.length === 0) return null;
  const anchorIndex = baseline === null ? undefined : index.get(baseline);
  const anchor = anchorIndex === undefined ? null : { index: anchorIndex, rating: 1000 };
  return fitContextualBradleyTerry(contestants.length, battles, { anchor, coverage, reweight: false });
}

/**
 * Best value for money: walking the priced contestants from cheapest up, each one rated above every cheaper
 * one is on the frontier; a contestant with no price or no rating never is.
 */
function markCostFrontier(rows: ReportRow[]): void {
  const priced = rows.filter((r) => r.costUsd !== null && r.bt !== null);
  priced.sort((x, y) => (x.costUsd ?? 0) - (y.costUsd ?? 0) || (y.bt ?? 0) - (x.bt ?? 0));
  let best = Number.NEGATIVE_INFINITY;
  for (const r of priced)
    if ((r.bt ?? 0) > best) {
      r.onCostFrontier = true;
      best = r.bt ?? 0;
    }
}

function judgeFigures(judgments: readonly ReportJudgment[]) {
  const names = [...new Set(judgments.map((j) => j.judge))].sort();
  // Each pair judged in both orders: its lean toward the contestant first in sorted order, per judge.
  const leans = new Map<string, Map<string, number>>();
  const byPair = new Map<string, ReportJudgment[]>();
  for (const j of judgments) {
    if (j.status !== "complete" || j.verdict === null) continue;
    const [x, y] = [j.first, j.second].sort();
    const k = key(j.judge, j.itemId, j.sample, x, y);
    byPair.set(k, [...(byPair.get(k) ?? []), j]);
  }
  const flips = new Map<string, { pairs: number; flips: number }>();
  for (const [k, pair] of byPair) {
    if (pair.length !== 2) continue;
    const [judge, itemId, sample, x, y] = k.split("\u0000");
    const shownFirst = pair.find((j) => j.first === x);
    const shownSecond = pair.find((j) => j.first === y);
    if (!shownFirst?.verdict || !shownSecond?.verdict) continue;
    const tally = flips.get(judge) ?? { pairs: 0, flips: 0 };
    tally.pairs++;
    if (isFlip(shownFirst.verdict, shownSecond.verdict)) tally.flips++;
    flips.set(judge, tally);
    const net = Math.sign(leanOf(shownFirst.verdict) - leanOf(shownSecond.verdict));
    const pairKey = key(itemId, sample, x, y);
    leans.set(pairKey, (leans.get(pairKey) ?? new Map()).set(judge, net));
  }
  const judges = names.map((judge): JudgeSummary => {
    const own = judgments.filter((j) => j.judge === judge);
    const tally = flips.get(judge) ?? { pairs: 0, flips: 0 };
    return {
      judge,
      judgments: own.length,
      failures: own.filter((j) => j.status === "failed").length,
      pairs: tally.pairs,
      flips: tally.flips,
      flipRate: tally.pairs ? tally.flips / tally.pairs : null,
      costUsd: own.reduce((n, j) => n + (j.costUsd ?? 0), 0),
    };
  });
  const judgeAgreement: JudgeAgreement[] = [];
  for (let a = 0; a < names.length; a++)
    for (let b = a + 1; b < names.length; b++) {
      let pairs = 0;
      let agree = 0;
      for (const byJudge of leans.values()) {
        const [x, y] = [byJudge.get(names[a]), byJudge.get(names[b])];
        if (x === undefined || y === undefined) continue;
        pairs++;
        if (x === y) agree++;
      }
      judgeAgreement.push({ judges: [names[a], names[b]], pairs, agreement: pairs ? agree / pairs : null });
    }
  return { judges, judgeAgreement };
}

/** With more than one sample: each contestant's share of games won against the reference, per sample. */
function stabilityOf(contestants: readonly string[], baseline: string | null, games: readonly Game[]) {
  const samples = [...new Set(games.map((g) => g.sample))].sort((x, y) => x - y);
  if (samples.length < 2) return null;
  return contestants
    .filter((c) => c !== baseline)
    .map((contestant) => {
      const rates = samples.map((sample) => {
        let won = 0;
        let total = 0;
        for (const g of games) {
          if (g.sample !== sample || (g.a !== contestant && g.b !== contestant)) continue;
          const other = g.a === contestant ? g.b : g.a;
          if (baseline !== null && other !== baseline) continue;
          won += g.weight * (g.a === contestant ? g.outcome : 1 - g.outcome);
          total += g.weight;
        }
        return total ? won / total : null;
      });
      const known = rates.filter((r): r is number => r !== null);
      return { contestant, samples: rates, range: known.length ? Math.max(...known) - Math.min(...known) : null };
    });
}
