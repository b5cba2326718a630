/**
 * A demo reviewer's verdict on a packet: per-answer critiques and scores, a ranking and a confidence. A prepared
 * answer to an example gets the review it deserves (./prepared-review.ts); anything else is scored on its form
 * alone, and the critique says so, since the demo cannot check what an answer claims.
 */
import type { DefaultScores } from "../../shared/run";
import { findExample } from "./examples";
import { measure, type Features } from "./features";
import { honestReply } from "./honest";
import { DEMO_MODELS, type DemoStyle } from "./models";
import type { Packet } from "./packet";
import { preparedStyleOf, reviewPrepared } from "./prepared-review";
import { type DemoRubric, rubricOverall, scoresByRubric } from "./rubric";
import { TASTES } from "./tastes";
import { keywordsOf, plural } from "./text";

const ZERO: DefaultScores = { correctness: 0, completeness: 0, clarity: 0, helpfulness: 0, safety: 0, overall: 0 };

export interface DemoReview {
  label: string;
  critique: string;
  scores: DefaultScores;
}

/** A council review: by the demo's six dimensions, or by a custom rubric's keys, ranked by its weighted overall. */
export function judge(style: DemoStyle, packet: Packet, labels: string[], rubric: DemoRubric | null = null) {
  const review = judgeByDefault(style, packet, labels);
  if (!rubric) return review;
  const reviews = review.reviews.map((r) => ({ ...r, scores: scoresByRubric(rubric, r.scores) }));
  const overall = new Map(reviews.map((r) => [r.label, rubricOverall(rubric, r.scores)]));
  const ranking = [...review.ranking].sort((a, b) => overall.get(b)! - overall.get(a)!);
  return { reviews, ranking, confidence: review.confidence };
}

function judgeByDefault(style: DemoStyle, packet: Packet, labels: string[]) {
  const keywords = keywordsOf(packet.question, 6);
  const example = findExample(packet.question);
  const reviews = labels.map((label): DemoReview => {
    const text = packet.answers.find((a) => a.label === label)?.text ?? "";
    if (text === "") return { label, critique: "The answer is empty or missing from the packet.", scores: ZERO };
    const f = measure(text, keywords);
    const prepared = example && preparedStyleOf(example, text);
    if (example && prepared) return { label, ...reviewPrepared(style, example.answers[prepared], f) };
    const { scores, verdict } = TASTES[style](f);
    return { label, critique: formCritique(style, f, verdict, isHonestReply(packet.question, text)), scores };
  });
  // Sorting a copy keeps label order between equal scores, so the ranking agrees with the scores.
  const ranking = [...reviews].sort((a, b) => b.scores.overall - a.scores.overall).map((r) => r.label);
  const [first, second] = ranking.map((l) => reviews.find((r) => r.label === l)!.scores.overall);
  const gap = second === undefined ? 0 : first - second;
  const confidence = Math.round(Math.min(0.95, 0.5 + gap / 10) * (style === "skeptic" ? 0.8 : 1) * 100) / 100;
  return { reviews, ranking, confidence };
}

/**
 * An arena judge's verdict on answers A and B: the better overall score wins, equal scores tie. Between two prepared
 * answers the reasons name what the winner does well and what the other gets wrong.
 */
export function judgePair(style: DemoStyle, packet: Packet) {
  const { reviews } = judgeByDefault(style, packet, ["A", "B"]);
  const [a, b] = reviews;
  const scores = { A: a.scores.overall, B: b.scores.overall };
  if (scores.A === scores.B) return { winner: "tie", scores, reasons: `Both score ${scores.A}. ${a.critique}` };
  const [winner, loser] = scores.A > scores.B ? ["A", "B"] : ["B", "A"];
  const example = findExample(packet.question);
  const prepared = (label: string) => {
    const style = example && preparedStyleOf(example, packet.answers.find((x) => x.label === label)?.text ?? "");
    return example && style ? example.answers[style] : null;
  };
  const [won, lost] = [prepared(winner), prepared(loser)];
  const reasons =
    won && lost
      ? `Answer ${winner} is better. ${won.strengths[0]} Answer ${loser}: ${lost.weaknesses[0] ?? lost.strengths[0]}`
      : `Answer ${winner} is better. ${(winner === "A" ? a : b).critique}`;
  return { winner, scores, reasons };
}

/** A score gap this large (out of 10) makes a strong five-point verdict; one under the smaller is a tie. */
const STRONG_GAP = 1.5;
const TIE_GAP = 0.3;

/**
 * An evaluation judge's five-point verdict on answers A and B (arena-hard-auto's scale), from the same scores as
 * judgePair: the better overall score wins, strongly when the gap is large, and scores this close are a tie.
 */
export function judgeFivePoint(style: DemoStyle, packet: Packet) {
  const { reviews } = judge(style, packet, ["A", "B"]);
  const [a, b] = reviews;
  const gap = a.scores.overall - b.scores.overall;
  const size = Math.abs(gap);
  const verdict =
    size < TIE_GAP ? "A=B" : gap > 0 ? (size >= STRONG_GAP ? "A>>B" : "A>B") : size >= STRONG_GAP ? "B>>A" : "B>A";
  const better = gap > 0 ? a : b;
  const reasons =
    verdict === "A=B"
      ? `Both score about ${a.scores.overall} of 10. ${a.critique}`
      : `Answer ${better.label} scores ${better.scores.overall} of 10 against ${(gap > 0 ? b : a).scores.overall}. ${better.critique}`;
  return { reasons, verdict };
}

const isHonestReply = (question: string, text: string) =>
  DEMO_MODELS.some((m) => honestReply(m.name as DemoStyle, question) === text.trim());

/** What a reviewer that cannot read for meaning can honestly say: what the answer is, and what it measured. */
function formCritique(style: DemoStyle, f: Features, verdict: string, honest: boolean): string {
  const what = honest
    ? "An offline-demo reply: it says plainly that it can't answer and points to the examples, so there are no claims to check."
    : "The demo reviewer can't check this answer's content (it knows only its prepared examples), so this score reflects form alone.";
  const facts =
    style === "concise"
      ? `${plural(f.words, "word")}, opening with "${f.opening}".`
      : style === "thorough"
        ? `${plural(f.headings, "heading")}, ${plural(f.listItems, "list item")} and ${plural(f.codeBlocks, "code block")} over ${plural(f.words, "word")}.`
        : `${plural(f.caveats, "caveat word")} and ${plural(f.absolutes, "absolute claim")} in ${plural(f.words, "word")}; ${plural(f.numbers, "specific number")} to check.`;
  return `${what} ${facts} ${honest ? PREFERS[style] : verdict}`;
}

/** Why reviewers of equally empty replies still rank them differently: each has a taste in form. */
const PREFERS: Record<DemoStyle, string> = {
  concise: "This reviewer favours the shortest reply.",
  thorough: "This reviewer favours structure: headings, lists and next steps.",
  skeptic: "This reviewer favours replies that are careful about what they claim.",
};
