/**
 * The item × contestant matrix of an evaluation: for each item, how each contestant fared against the reference
 * (the baseline, or every other contestant) over all judges, orders and samples — the judged counterpart of
 * promptfoo's results grid, with the filters a reader needs: where contestants differ, failures, flips.
 */
import { isFlip } from "./games";
import { cellBattles, type GoalCellBattle } from "./goal-games";
import { gamesOfJudgment, type ReportInput, type ReportJudgment } from "./report";

export const MATRIX_FILTERS = ["all", "differ", "failures", "flips"] as const;
export type MatrixFilter = (typeof MATRIX_FILTERS)[number];

export type CellOutcome = "win" | "loss" | "tie" | "baseline" | "failed" | "pending";

export interface MatrixCell {
  contestant: string;
  /** a goal evaluation's: each battle it played on the item, with its outcome and why */
  battles?: GoalCellBattle[];
  outcome: CellOutcome;
  /** share of its games on this item it won, ties half; null without games */
  score: number | null;
  games: number;
  flips: number;
  failures: number;
}

export interface MatrixRow {
  itemId: string;
  category: string | null;
  cells: MatrixCell[];
  /** the contestants didn't all fare the same */
  differ: boolean;
  failures: number;
  flips: number;
}

export function matrixOf(input: ReportInput, filter: MatrixFilter = "all"): MatrixRow[] {
  const { contestants, baseline } = input;
  const byItem = <T extends { itemId: string }>(rows: readonly T[]) => {
    const map = new Map<string, T[]>();
    for (const r of rows) map.set(r.itemId, [...(map.get(r.itemId) ?? []), r]);
    return map;
  };
  const answers = byItem(input.answers);
  const judgments = byItem(input.judgments);
  const rows = input.items.map((item): MatrixRow => {
    const own = judgments.get(item.itemId) ?? [];
    const flipped = flippedPairs(own);
    const cells = contestants.map((contestant): MatrixCell => {
      const failures =
        (answers.get(item.itemId) ?? []).filter((a) => a.contestant === contestant && a.status === "failed").length +
        own.filter((j) => j.status === "failed" && (j.first === contestant || j.second === contestant)).length;
      const flips = flipped.filter((p) => p.includes(contestant)).length;
      const battles = input.goals ? { battles: cellBattles(input.goals, item.itemId, contestant) } : {};
      if (contestant === baseline)
        return { contestant, ...battles, outcome: "baseline", score: null, games: 0, flips, failures };
      let won = 0;
      let total = 0;
      for (const j of own) {
        if (j.status !== "complete" || j.verdict === null) continue;
        if (j.first !== contestant && j.second !== contestant) continue;
        const other = j.first === contestant ? j.second : j.first;
        if (baseline !== null && other !== baseline) continue;
        for (const g of gamesOfJudgment({ ...j, verdict: j.verdict })) {
          won += g.weight * (g.a === contestant ? g.outcome : 1 - g.outcome);
          total += g.weight;
        }
      }
      const score = total ? won / total : null;
      const outcome: CellOutcome =
        score === null ? (failures ? "failed" : "pending") : score > 0.5 ? "win" : score < 0.5 ? "loss" : "tie";
      return { contestant, ...battles, outcome, score, games: total, flips, failures };
    });
    const judged = cells.filter((c) => c.score !== null).map((c) => c.outcome);
    return {
      itemId: item.itemId,
      category: item.category,
      cells,
      differ: new Set(judged).size > 1,
      failures: cells.reduce((n, c) => n + c.failures, 0),
      flips: flipped.length,
    };
  });
  if (filter === "differ") return rows.filter((r) => r.differ);
  if (filter === "failures") return rows.filter((r) => r.failures > 0);
  if (filter === "flips") return rows.filter((r) => r.flips > 0);
  return rows;
}

/** The pairs of one item a judge flipped on (both orders judged, opposite leans), as [x, y]. */
function flippedPairs(judgments: readonly ReportJudgment[]): [string, string][] {
  const found: [string, string][] = [];
  for (const j of judgments) {
    if (j.status !== "complete" || j.verdict === null) continue;
    const other = judgments.find(
      (k) => k.judge === j.judge && k.sample === j.sample && k.first === j.second && k.second === j.first && k.verdict,
    );
    // Each pair once: from the order whose first contestant sorts first.
    if (!other?.verdict || j.first > j.second) continue;
    if (isFlip(j.verdict, other.verdict)) found.push([j.first, j.second]);
  }
  return found;
}
