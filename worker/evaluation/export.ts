/**
 * An evaluation's report as files: the matrix as CSV (one row per item, one column per contestant), the summary
 * as Markdown (the leaderboard, the rating-vs-cost figures as a table, the judges, and how it was computed), and
 * its games as Chatbot Arena's clean battles (a strong verdict three lines, as the report counts it).
 */
import { MIN_HUMAN_VOTES_PER_PAIR } from "../shared/constants";
import type { MatrixRow } from "./matrix";
import type { EvaluationReport, ReportJudgment } from "./report";
import { gamesOfJudgment } from "./report";
import type { FivePointVerdict } from "./games";

const csvField = (value: string | number | null) => {
  const text = value === null ? "" : String(value);
  return /[",\n\r]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
};

export function matrixCsv(contestants: readonly string[], rows: readonly MatrixRow[]): string {
  const header = ["item_id", "category", ...contestants.flatMap((c) => [`${c} outcome`, `${c} score`]), "flips"];
  const lines = rows.map((row) =>
    [
      row.itemId,
      row.category,
      ...row.cells.flatMap((cell) => [cell.outcome, cell.score === null ? null : round(cell.score, 4)]),
      row.flips,
    ]
      .map(csvField)
      .join(","),
  );
  return `${[header.map(csvField).join(","), ...lines].join("\n")}\n`;
}

const round = (x: number, digits: number) => Math.round(x * 10 ** digits) / 10 ** digits;
const pct = (x: number | null) => (x === null || !Number.isFinite(x) ? "—" : `${(x * 100).toFixed(1)}%`);
const rating = (x: number | null) => (x === null || !Number.isFinite(x) ? "—" : x.toFixed(0));
const usd = (x: number | null) => (x === null ? "unpriced" : `$${x < 0.01 ? x.toFixed(4) : x.toFixed(2)}`);
const cell = (text: string) => text.replaceAll("|", "\\|").replaceAll("\n", " ");

export function reportMarkdown(
  meta: { name: string; id: string; promptSet: string; judges: readonly string[] },
  report: EvaluationReport,
  names: ReadonlyMap<string, string>,
): string {
  const nameOf = (c: string) => cell(names.get(c) ?? c);
  const against = report.baseline ? `against ${nameOf(report.baseline)}` : "against the others (mean)";
  const lines = [
    `# ${cell(meta.name)}`,
    "",
    `Evaluation \`${meta.id}\` of prompt set \`${meta.promptSet}\`: ${report.totals.items} items, judged by ${meta.judges.map(nameOf).join(", ")}.`,
    "",
    separationLine(report, nameOf),
    "",
    `## Leaderboard (win rate ${against}, 95% intervals)`,
    "",
    "| Rank | Contestant | Rating | 95% interval | Win rate | 95% interval | Length-controlled | Games |",
    "| ---: | --- | ---: | --- | ---: | --- | ---: | ---: |",
    ...[...report.rows]
      .sort((a, b) => (b.bt ?? -Infinity) - (a.bt ?? -Infinity))
      .map(
        (r) =>
          `| ${r.rank ?? "—"} | ${nameOf(r.contestant)} | ${rating(r.bt)} | ${rating(r.ciLower)} – ${rating(r.ciUpper)} | ${pct(r.winRate)} | ${pct(r.winRateLower)} – ${pct(r.winRateUpper)} | ${pct(r.lcWinRate)} | ${r.games} |`,
      ),
    "",
    "## Rating against cost",
    "",
    "| Contestant | Rating | Cost | Tokens out | Latency p50 / p95 | Failures | Best per dollar |",
    "| --- | ---: | ---: | ---: | --- | ---: | :---: |",
    ...[...report.rows]
      .sort((a, b) => (a.costUsd ?? Infinity) - (b.costUsd ?? Infinity))
      .map(
        (r) =>
          `| ${nameOf(r.contestant)} | ${rating(r.bt)} | ${usd(r.costUsd)} | ${r.tokensOut} | ${ms(r.latencyP50)} / ${ms(r.latencyP95)} | ${r.failures} | ${r.onCostFrontier ? "yes" : ""} |`,
      ),
    "",
    "## Judges",
    "",
    "| Judge | Judgments | Pairs in both orders | Flips | Flip rate | Cost |",
    "| --- | ---: | ---: | ---: | ---: | ---: |",
    ...report.judges.map(
      (j) =>
        `| ${nameOf(j.judge)} | ${j.judgments} | ${j.pairs} | ${j.flips} | ${pct(j.flipRate)} | ${usd(j.costUsd)} |`,
    ),
    ...report.judgeAgreement.map(
      (a) =>
        `\n${nameOf(a.judges[0])} and ${nameOf(a.judges[1])} leaned the same way on ${pct(a.agreement)} of ${a.pairs} pairs.`,
    ),
    "",
    "### Against human votes in the arena",
    "",
    "| Judge | Pairs | Human votes | Agreed | Agreement |",
    "| --- | ---: | ---: | ---: | ---: |",
    ...report.judgeHumanAgreement.map(
      (h) =>
        `| ${nameOf(h.judge)} | ${h.pairs} | ${h.humanVotes} | ${h.agreed} | ${h.agreement === null ? tooFew(h.pairsWithTooFewVotes) : pct(h.agreement)} |`,
    ),
    "",
    "## How this was computed",
    "",
    `- Counting: ${report.methods.counting}.`,
    `- Ratings: ${report.methods.intervals}.`,
    `- Win rate: ${report.methods.winRate}.`,
    `- Length control: ${report.methods.lengthControl}.`,
    `- Agreement with human votes: ${report.methods.humanAgreement}.`,
    "",
  ];
  return lines.join("\n");
}

const tooFew = (pairs: number) =>
  pairs
    ? `too few human votes (${pairs} ${pairs === 1 ? "pair" : "pairs"} under ${MIN_HUMAN_VOTES_PER_PAIR} votes)`
    : "no human votes";

const ms = (x: number | null) => (x === null ? "—" : `${Math.round(x)} ms`);

function separationLine(report: EvaluationReport, nameOf: (c: string) => string): string {
  const { best, tiedWithBest, moreItemsNeeded } = report.separation;
  if (best) return `**${nameOf(best)} is best at 95% confidence.**`;
  if (tiedWithBest.length === 0) return "Too few judged games to rank anyone yet.";
  const more = moreItemsNeeded === null ? "" : ` About ${moreItemsNeeded} more items like these would tell them apart.`;
  return `**Not separable with these items:** ${tiedWithBest.map(nameOf).join(", ")} overlap at 95%.${more}`;
}

/** Each game as one of Chatbot Arena's clean battles; `tstamp` is when the judgment was made (seconds). */
export function battleLines(
  judgments: readonly (ReportJudgment & { completedAt: number })[],
  categoryOf: ReadonlyMap<string, string | null>,
  evaluationId: string,
): string[] {
  const lines: string[] = [];
  for (const j of judgments) {
    if (j.status !== "complete" || j.verdict === null) continue;
    for (const g of gamesOfJudgment({ ...j, verdict: j.verdict as FivePointVerdict })) {
      const winner = g.outcome === 1 ? "model_a" : g.outcome === 0 ? "model_b" : "tie";
      const battle = {
        model_a: g.a,
        model_b: g.b,
        winner,
        judge: g.judge,
        tstamp: j.completedAt / 1000,
        question_id: `${evaluationId}:${g.itemId}:${g.sample}`,
        category: categoryOf.get(g.itemId) ?? undefined,
        source: "eval",
      };
      for (let k = 0; k < g.weight; k++) lines.push(JSON.stringify(battle));
    }
  }
  return lines;
}
