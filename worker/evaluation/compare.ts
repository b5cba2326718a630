/**
 * Before and after: two evaluations of the same prompt set with contestants in common (a preset's versions are
 * matched on its slug, so `preset:terse@1` meets `preset:terse@2`) → per contestant the change in win rate and
 * rating with a 95% interval (the two evaluations are independent samples, so the variances add), and the items
 * that got worse or better, worst first.
 */
import { parsePresetId } from "../shared/contestant";
import { normalQuantile } from "../rating/normal";
import type { MatrixRow } from "./matrix";
import type { EvaluationReport, ReportRow } from "./report";

export interface ContestantChange {
  before: string;
  after: string;
  winRateBefore: number | null;
  winRateAfter: number | null;
  winRateChange: number | null;
  winRateChangeLower: number | null;
  winRateChangeUpper: number | null;
  btChange: number | null;
  btChangeLower: number | null;
  btChangeUpper: number | null;
  /** the interval of the win rate's change leaves out zero */
  significant: boolean;
}

export interface ItemChange {
  itemId: string;
  contestant: string;
  scoreBefore: number | null;
  scoreAfter: number | null;
  change: number;
}

/** What a contestant is across versions: a preset's slug, or the model id itself. */
export function lineageOf(contestant: string): string {
  const preset = parsePresetId(contestant);
  return preset ? `preset:${preset.slug}` : contestant;
}

export function compareReports(
  before: { report: EvaluationReport; matrix: readonly MatrixRow[] },
  after: { report: EvaluationReport; matrix: readonly MatrixRow[] },
): { contestants: ContestantChange[]; items: ItemChange[] } {
  const z = normalQuantile(1 - (1 - before.report.coverage) / 2);
  const afterRows = new Map(after.report.rows.map((r) => [lineageOf(r.contestant), r]));
  const pairs: [ReportRow, ReportRow][] = [];
  for (const r of before.report.rows) {
    const match = afterRows.get(lineageOf(r.contestant));
    if (match) pairs.push([r, match]);
  }
  const contestants = pairs.map(([b, a]): ContestantChange => {
    const winRate = difference(b.winRate, b.winRateLower, b.winRateUpper, a.winRate, a.winRateLower, a.winRateUpper, z);
    const bt = difference(b.bt, b.ciLower, b.ciUpper, a.bt, a.ciLower, a.ciUpper, z);
    return {
      before: b.contestant,
      after: a.contestant,
      winRateBefore: b.winRate,
      winRateAfter: a.winRate,
      winRateChange: winRate.change,
      winRateChangeLower: winRate.lower,
      winRateChangeUpper: winRate.upper,
      btChange: bt.change,
      btChangeLower: bt.lower,
      btChangeUpper: bt.upper,
      significant: winRate.lower !== null && winRate.upper !== null && (winRate.lower > 0 || winRate.upper < 0),
    };
  });

  const afterItems = new Map(after.matrix.map((row) => [row.itemId, row]));
  const items: ItemChange[] = [];
  for (const row of before.matrix) {
    const later = afterItems.get(row.itemId);
    if (!later) continue;
    for (const [b, a] of pairs) {
      const was = row.cells.find((c) => c.contestant === b.contestant)?.score ?? null;
      const now = later.cells.find((c) => c.contestant === a.contestant)?.score ?? null;
      if (was === null || now === null || was === now) continue;
      items.push({
        itemId: row.itemId,
        contestant: a.contestant,
        scoreBefore: was,
        scoreAfter: now,
        change: now - was,
      });
    }
  }
  items.sort((x, y) => x.change - y.change || x.itemId.localeCompare(y.itemId));
  return { contestants, items };
}

/**
 * after − before, each estimate's standard error read back from its interval's half-width (on its own scale;
 * a win rate's interval is asymmetric, so the mean of its two halves).
 */
function difference(
  was: number | null,
  wasLower: number | null,
  wasUpper: number | null,
  now: number | null,
  nowLower: number | null,
  nowUpper: number | null,
  z: number,
): { change: number | null; lower: number | null; upper: number | null } {
  if (was === null || now === null) return { change: null, lower: null, upper: null };
  const change = now - was;
  const se = (lower: number | null, upper: number | null) =>
    lower === null || upper === null || !Number.isFinite(upper - lower) ? null : (upper - lower) / (2 * z);
  const [a, b] = [se(wasLower, wasUpper), se(nowLower, nowUpper)];
  if (a === null || b === null) return { change, lower: null, upper: null };
  const spread = z * Math.hypot(a, b);
  return { change, lower: change - spread, upper: change + spread };
}
