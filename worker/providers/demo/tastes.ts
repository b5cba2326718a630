/** Each demo reviewer's taste, so a council of demos disagrees the way real reviewers do. */
import type { DefaultScores as Scores } from "../../shared/run";
import type { Features } from "./features";
import type { DemoStyle } from "./models";

type Taste = (f: Features) => { scores: Scores; verdict: string };

export const TASTES: Record<DemoStyle, Taste> = {
  concise(f) {
    const brevity = f.words <= 60 ? 9.5 : Math.max(2, 9.5 - (f.words - 60) / 25);
    const correctness = 5 + 3 * f.relevance - 0.5 * f.absolutes;
    const helpfulness = (brevity + 6 + 3 * f.relevance) / 2;
    const completeness = Math.min(8, 3 + f.words / 30);
    return {
      scores: scored(
        { correctness, completeness, clarity: brevity, helpfulness, safety: 8 + Math.min(1, f.caveats) },
        [0.2, 0.1, 0.45, 0.25, 0],
      ),
      verdict: f.words <= 80 ? "Gets to the point quickly." : "Longer than it needs to be; the main point gets buried.",
    };
  },
  thorough(f) {
    const depth =
      2 +
      1.2 * Math.min(f.headings, 4) +
      0.4 * Math.min(f.listItems, 8) +
      1.5 * Math.min(f.codeBlocks, 2) +
      Math.min(f.words / 80, 3);
    const correctness = 5 + 3 * f.relevance - 0.5 * f.absolutes;
    const clarity = 4 + Math.min(f.headings, 4) + (f.listItems > 0 ? 1 : 0);
    return {
      scores: scored(
        { correctness, completeness: depth, clarity, helpfulness: (depth + correctness) / 2, safety: 8 },
        [0.2, 0.4, 0.2, 0.2, 0],
      ),
      verdict:
        depth >= 7
          ? "Well organised and covers the question in depth."
          : depth >= 4.5
            ? "Reasonably organised; an example or more sections would help."
            : "Thin: little structure and no example.",
    };
  },
  skeptic(f) {
    const caveats = Math.min(f.caveats, 6);
    const numbers = Math.min(f.numbers, 10);
    const care = 3 + caveats - 1.5 * f.absolutes - 0.3 * numbers;
    const correctness = 5 + 0.5 * caveats - f.absolutes - 0.2 * numbers + 2 * f.relevance;
    const completeness = 4 + Math.min(f.words / 80, 4);
    const clarity = 6 + (f.headings || f.listItems ? 1 : 0);
    const safety = 6 + 0.5 * caveats - f.absolutes;
    return {
      scores: scored(
        { correctness, completeness, clarity, helpfulness: (care + completeness) / 2, safety },
        [0.4, 0.15, 0, 0.2, 0.25],
      ),
      verdict:
        care >= 6 ? "Appropriately careful about what it claims." : "States things with more confidence than it earns.",
    };
  },
};

const clamp = (n: number) => Math.round(Math.min(10, Math.max(0, n)) * 10) / 10;

/** Clamps to 0–10 with one decimal; overall is the taste's weighted mean of the other five. */
function scored(s: Omit<Scores, "overall">, weights: [number, number, number, number, number]): Scores {
  const dims = [s.correctness, s.completeness, s.clarity, s.helpfulness, s.safety].map(clamp);
  const overall = dims.reduce((sum, d, i) => sum + d * weights[i], 0);
  const [correctness, completeness, clarity, helpfulness, safety] = dims;
  return { correctness, completeness, clarity, helpfulness, safety, overall: clamp(overall) };
}
