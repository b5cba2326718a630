/** A demo reviewer's verdict on a packet: per-answer critiques and scores, a ranking and a confidence. */
import type { Scores } from "../../shared/run";
import { measure, type Features } from "./features";
import type { DemoStyle } from "./models";
import type { Packet } from "./packet";
import { TASTES } from "./tastes";
import { keywordsOf, plural } from "./text";

const ZERO: Scores = { correctness: 0, completeness: 0, clarity: 0, helpfulness: 0, safety: 0, overall: 0 };

export function judge(style: DemoStyle, packet: Packet, labels: string[]) {
  const keywords = keywordsOf(packet.question, 6);
  const reviews = labels.map((label) => {
    const text = packet.answers.find((a) => a.label === label)?.text ?? "";
    if (text === "") return { label, critique: "The answer is empty or missing from the packet.", scores: ZERO };
    const f = measure(text, keywords);
    const { scores, verdict } = TASTES[style](f);
    return { label, critique: critique(style, f, verdict), scores };
  });
  // Sorting a copy keeps label order between equal scores, so the ranking agrees with the scores.
  const ranking = [...reviews].sort((a, b) => b.scores.overall - a.scores.overall).map((r) => r.label);
  const [first, second] = ranking.map((l) => reviews.find((r) => r.label === l)!.scores.overall);
  const gap = second === undefined ? 0 : first - second;
  const confidence = Math.round(Math.min(0.95, 0.5 + gap / 10) * (style === "skeptic" ? 0.8 : 1) * 100) / 100;
  return { reviews, ranking, confidence };
}

function critique(style: DemoStyle, f: Features, verdict: string): string {
  const coverage = f.covered.length
    ? `Picks up ${f.covered.slice(0, 3).join(", ")} from the question.`
    : "Does not pick up the question's key terms.";
  const facts =
    style === "concise"
      ? `${plural(f.words, "word")}, opening with "${f.opening}".`
      : style === "thorough"
        ? `${plural(f.headings, "heading")}, ${plural(f.listItems, "list item")} and ${plural(f.codeBlocks, "code block")} over ${plural(f.words, "word")}.`
        : `${plural(f.caveats, "caveat word")} and ${plural(f.absolutes, "absolute claim")} in ${plural(f.words, "word")}; ${plural(f.numbers, "specific number")} to check.`;
  return `${facts} ${verdict} ${coverage}`;
}
