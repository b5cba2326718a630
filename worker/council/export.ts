/** A run as a file to keep or share: JSON (the whole record) or Markdown (for reading). */
import { nestHeadings } from "../shared/markdown-headings";
import { OVERALL, overallOf, type Scoring, scoringOf } from "../shared/rubric";
import { describeCost, TERMINAL_STATUSES, type RunDetail } from "../shared/run";

const fmt = (n: number | null, digits = 2) => (n === null ? "—" : Number.isInteger(n) ? String(n) : n.toFixed(digits));
const usd = (n: number | null) => (n === null ? "—" : `$${n.toFixed(4)}`);
const name = (d: RunDetail, label: string) => {
  const a = d.answers.find((x) => x.label === label);
  return a?.displayName ? `${a.displayName} (${a.modelId})` : `Answer ${label}`;
};

export function exportJson(d: RunDetail, version: string): string {
  return JSON.stringify({ format: "quorum.run", version, exportedAt: new Date().toISOString(), ...d }, null, 2);
}

export function exportMarkdown(d: RunDetail): string {
  const out: string[] = [];
  out.push(`# Quorum run ${d.run.id}`, "");
  out.push(`- Asked: ${new Date(d.run.createdAt).toISOString()}`, `- Status: ${d.run.status}`);
  out.push(`- Models: ${d.run.models.map((m) => m.id).join(", ")}`);
  // A blind run under way keeps its costs to itself (toRunDetail): they would tell a label's model.
  const costHidden = d.run.settings.blind && !TERMINAL_STATUSES.includes(d.run.status);
  const cost = costHidden ? "shown when the run ends" : describeCost(d.totals, (n) => `$${n.toFixed(4)}`);
  out.push(`- Tokens: ${d.totals.tokensIn} in, ${d.totals.tokensOut} out · estimated cost ${cost}`, "");
  out.push("## Question", "", quote(d.run.question), "");
  const scoring = scoringOf(d.run.settings);
  out.push(...rubricTable(d, scoring), ...labelMap(d));
  if (d.synthesis) {
    const s = d.synthesis;
    out.push(
      `## Synthesis by ${s.displayName} (${s.modelId})`,
      "",
      "_Written from the ranked answers and their critiques; not ranked itself._",
      "",
    );
    out.push(
      s.status === "done"
        ? nestHeadings(s.text, 2)
        : `Status ${s.status}${s.error ? `: ${s.error}` : ""}${s.text ? `\n\n${nestHeadings(s.text, 2)}` : ""}`,
      "",
    );
  }
  if (d.aggregation) {
    const means = d.aggregation.voteBreakdown.scoreMeans;
    const tieKey = scoring.tieKey;
    out.push(
      "## Ranking",
      "",
      `| Rank | Answer | Borda | First-place votes | Mean overall | Mean ${tieKey} |`,
      "| --- | --- | --- | --- | --- | --- |",
    );
    for (const e of d.aggregation.finalRanking)
      out.push(
        `| ${e.rank} | ${name(d, e.label)} | ${fmt(e.borda)} | ${fmt(e.firstPlaceVotes)} | ${fmt(e.meanOverall)} | ${fmt(means[e.label]?.[tieKey] ?? null)} |`,
      );
    for (const t of d.aggregation.voteBreakdown.tieBreaks)
      out.push(
        "",
        `Tie on Borda between ${t.labels.join(", ")}: decided by ${t.decidedBy === "meanDimension" ? `mean ${tieKey}` : t.decidedBy}.`,
      );
    out.push("", `Method: ${d.aggregation.methodVersion}`, "", ...voteMath(d, scoring));
  }
  out.push("## Answers", "");
  for (const a of d.answers) {
    out.push(`### ${name(d, a.label)}`, "");
    out.push(
      `Status ${a.status} · ${fmt(a.latencyMs, 0)} ms · ${fmt(a.tokensIn, 0)} in / ${fmt(a.tokensOut, 0)} out tokens · ${usd(a.costUsd)}`,
      "",
    );
    if (a.error) out.push(`Error: ${a.error}`, "");
    // The answer's own headings go below this one's, so an answer's "## Setup" doesn't outrank its model.
    if (a.text) out.push(nestHeadings(a.text, 3), "");
  }
  if (d.reviewers.length) {
    out.push("## Reviews", "");
    for (const s of d.reviewers) {
      const who = s.reviewerModelId ?? (s.reviewerLabel ? `the author of Answer ${s.reviewerLabel}` : s.id);
      out.push(
        `### Reviewer ${who}${s.reviewerLabel ? "" : " (judge only: wrote no answer)"}`,
        "",
        `Status ${s.status}${s.ranking ? ` · ranking ${s.ranking.join(" > ")}` : ""}`,
        "",
      );
      if (s.error) out.push(`Error: ${s.error}`, "");
      for (const v of d.reviews.filter((x) => x.reviewSetId === s.id)) {
        const others = scoring.keys.filter((k) => k !== OVERALL).map((k) => `${k} ${v.scores[k]}`);
        const overall = scoring.askedOverall ? v.scores[OVERALL] : fmt(overallOf(scoring, v.scores));
        out.push(`- **Answer ${v.targetLabel}** — overall ${overall}, ${others.join(", ")}`);
        out.push(`  ${v.critique.replace(/\n/g, " ")}`);
      }
      out.push("");
    }
  }
  return out.join("\n");
}

/** Which model wrote which answer: reviewers saw only the labels. */
function labelMap(d: RunDetail): string[] {
  const out = ["## Labels", "", "Reviewers saw the answers as labels only; here is who wrote each.", ""];
  out.push("| Label | Model | Model id |", "| --- | --- | --- |");
  for (const a of d.answers)
    out.push(
      a.modelId
        ? `| ${a.label} | ${a.displayName ?? a.modelId} | \`${a.modelId}\` |`
        : `| ${a.label} | hidden until the run ends | — |`,
    );
  return [...out, ""];
}

/** A custom rubric: what reviewers scored, and each dimension's weight in the overall. */
function rubricTable(d: RunDetail, scoring: Scoring): string[] {
  if (!scoring.descriptions) return [];
  const category = d.run.settings.category;
  const out = [
    "## Rubric",
    "",
    "Reviewers scored each answer 0–10 on these dimensions; an answer's overall is Σ weight·score ÷ Σ weight" +
      (category === undefined ? "." : `, with the weights of category "${category}".`),
    "",
    "| Dimension | What it judges | Weight |",
    "| --- | --- | --- |",
  ];
  for (const key of scoring.keys)
    out.push(`| ${key} | ${scoring.descriptions[key].replace(/\|/g, "\\|")} | ${fmt(scoring.weights[key])} |`);
  return [...out, ""];
}

/** The Borda count as it was done: each reviewer's ranking, its weight, and the points it gave. */
function voteMath(d: RunDetail, scoring: Scoring): string[] {
  const breakdown = d.aggregation?.voteBreakdown;
  if (!breakdown?.reviewers.length) return [];
  const labels = Object.keys(breakdown.bordaTotals).sort();
  const reviewerName = (id: string, label: string | null) => {
    const set = d.reviewers.find((r) => r.id === id);
    return set?.reviewerModelId ?? (label ? `the author of Answer ${label}` : id);
  };
  const out = [
    "### How the votes were counted",
    "",
    "Each reviewer ranks the answers it reviewed; of N answers ranked, the first gets N−1 points, the next N−2, the " +
      "last 0, times the reviewer's weight. An answer's Borda score is the sum over reviewers. Ties on Borda are " +
      `broken by the mean overall score, then the mean ${scoring.tieKey} score.`,
    "",
    `| Reviewer | Weight | Ranking | ${labels.map((l) => `Points to ${l}`).join(" | ")} |`,
    `| --- | --- | --- | ${labels.map(() => "---").join(" | ")} |`,
  ];
  for (const r of breakdown.reviewers)
    out.push(
      `| ${reviewerName(r.reviewSetId, r.reviewerLabel)} | ${fmt(r.weight)} | ${r.ranking.join(" > ") || "—"} | ${labels
        .map((l) => fmt(r.points[l] ?? 0))
        .join(" | ")} |`,
    );
  out.push(`| **Borda total** | | | ${labels.map((l) => `**${fmt(breakdown.bordaTotals[l])}**`).join(" | ")} |`, "");
  if (breakdown.condorcetWinner) out.push(`Answer ${breakdown.condorcetWinner} beats every other head to head.`, "");
  return out;
}

const quote = (text: string) =>
  text
    .split("\n")
    .map((l) => `> ${l}`)
    .join("\n");
