/** A run as a file to keep or share: JSON (the whole record) or Markdown (for reading). */
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
        ? s.text
        : `Status ${s.status}${s.error ? `: ${s.error}` : ""}${s.text ? `\n\n${s.text}` : ""}`,
      "",
    );
  }
  if (d.aggregation) {
    out.push(
      "## Ranking",
      "",
      "| Rank | Answer | Borda | First-place votes | Mean overall | Mean correctness |",
      "| --- | --- | --- | --- | --- | --- |",
    );
    for (const e of d.aggregation.finalRanking)
      out.push(
        `| ${e.rank} | ${name(d, e.label)} | ${fmt(e.borda)} | ${fmt(e.firstPlaceVotes)} | ${fmt(e.meanOverall)} | ${fmt(e.meanCorrectness)} |`,
      );
    for (const t of d.aggregation.voteBreakdown.tieBreaks)
      out.push("", `Tie on Borda between ${t.labels.join(", ")}: decided by ${t.decidedBy}.`);
    out.push("", `Method: ${d.aggregation.methodVersion}`, "");
  }
  out.push("## Answers", "");
  for (const a of d.answers) {
    out.push(`### ${name(d, a.label)}`, "");
    out.push(
      `Status ${a.status} · ${fmt(a.latencyMs, 0)} ms · ${fmt(a.tokensIn, 0)} in / ${fmt(a.tokensOut, 0)} out tokens · ${usd(a.costUsd)}`,
      "",
    );
    if (a.error) out.push(`Error: ${a.error}`, "");
    if (a.text) out.push(a.text, "");
  }
  if (d.reviewers.length) {
    out.push("## Reviews", "");
    for (const s of d.reviewers) {
      const who = s.reviewerModelId ?? (s.reviewerLabel ? `the author of Answer ${s.reviewerLabel}` : s.id);
      out.push(
        `### Reviewer ${who}`,
        "",
        `Status ${s.status}${s.ranking ? ` · ranking ${s.ranking.join(" > ")}` : ""}`,
        "",
      );
      if (s.error) out.push(`Error: ${s.error}`, "");
      for (const v of d.reviews.filter((x) => x.reviewSetId === s.id)) {
        const sc = v.scores;
        out.push(
          `- **Answer ${v.targetLabel}** — overall ${sc.overall}, correctness ${sc.correctness}, completeness ${sc.completeness}, clarity ${sc.clarity}, helpfulness ${sc.helpfulness}, safety ${sc.safety}`,
        );
        out.push(`  ${v.critique.replace(/\n/g, " ")}`);
      }
      out.push("");
    }
  }
  return out.join("\n");
}

const quote = (text: string) =>
  text
    .split("\n")
    .map((l) => `> ${l}`)
    .join("\n");
