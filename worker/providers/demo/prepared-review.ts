/**
 * How a demo reviewer reviews a prepared answer: the answer's own strengths, weaknesses and scores, said in the
 * reviewer's voice, with a small nudge for its taste. The nudge is never enough to reorder an example's answers,
 * so every reviewer agrees with the example's ranking, for reasons it states.
 */
import type { DefaultScores as Scores } from "../../shared/run";
import { withNotice } from "./answers";
import type { Example, PreparedAnswer } from "./examples";
import type { Features } from "./features";
import type { DemoStyle } from "./models";

const flat = (text: string) => text.replace(/\s+/g, " ").trim();

/** Which demo model's prepared answer `text` is, notice or not; null for any other text (a cut one included). */
export function preparedStyleOf(example: Example, text: string): DemoStyle | null {
  const shown = flat(text);
  const match = Object.entries(example.answers).find(
    ([, a]) => flat(a.text) === shown || flat(withNotice(a.text)) === shown,
  );
  return match ? (match[0] as DemoStyle) : null;
}

/** The largest nudge a taste gives: the examples keep their answers at least a point apart, so order holds. */
export const MAX_NUDGE = 0.2;

const NUDGES: Record<DemoStyle, { key: keyof Scores; of: (f: Features) => number }> = {
  concise: { key: "clarity", of: (f) => (f.words <= 120 ? MAX_NUDGE : f.words > 250 ? -MAX_NUDGE : 0) },
  thorough: {
    key: "completeness",
    of: (f) => (f.headings + f.listItems >= 3 ? MAX_NUDGE : f.words < 60 ? -MAX_NUDGE : 0),
  },
  skeptic: { key: "safety", of: (f) => (f.absolutes > 0 ? -MAX_NUDGE : f.caveats >= 2 ? MAX_NUDGE : 0) },
};

const clamp = (n: number) => Math.round(Math.min(10, Math.max(0, n)) * 10) / 10;

export function reviewPrepared(style: DemoStyle, answer: PreparedAnswer, f: Features) {
  const nudge = NUDGES[style];
  const by = nudge.of(f);
  const scores: Scores = { ...answer.scores, [nudge.key]: clamp(answer.scores[nudge.key] + by) };
  scores.overall = clamp(answer.scores.overall + by);
  return { critique: critique(style, answer), scores };
}

function critique(style: DemoStyle, a: PreparedAnswer): string {
  const [best, ...moreGood] = a.strengths;
  const [worst, ...moreBad] = a.weaknesses;
  if (style === "concise") return [best, worst ?? "Nothing important is missing."].join(" ");
  if (style === "thorough")
    return [
      `Strengths: ${a.strengths.join(" ")}`,
      `Weaknesses: ${a.weaknesses.length ? a.weaknesses.join(" ") : "none that matter for this question."}`,
    ].join(" ");
  return worst
    ? [`What to watch: ${worst}`, ...moreBad, `In its favour: ${best}`].join(" ")
    : [`I checked its claims and found nothing wrong. ${best}`, ...moreGood].join(" ");
}
