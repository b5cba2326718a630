/**
 * How a run's reviewers score answers: the custom rubric its settings give, or the default rubric (the six
 * dimensions every run had before rubrics, `overall` among them). Pure, so the Worker and the page read a rubric
 * the same way.
 */
import { type Rubric, SCORE_KEYS, type Scores } from "./run";

export interface Scoring {
  /** the keys a reviewer scores, in the rubric's order */
  keys: string[];
  /** what each key judges; null for the default rubric, whose prompt names its keys alone */
  descriptions: Record<string, string> | null;
  /** each key's weight in an answer's overall: the run's category's own where the rubric gives one */
  weights: Record<string, number>;
  /** true for the default rubric: its reviewers score `overall` themselves, so nothing is computed */
  askedOverall: boolean;
  /** the mean that separates answers the overall left tied: the heaviest dimension, the first of equals */
  tieKey: string;
}

export const OVERALL = "overall";

const DEFAULT_SCORING: Scoring = {
  keys: [...SCORE_KEYS],
  descriptions: null,
  weights: Object.fromEntries(SCORE_KEYS.map((k) => [k, 1])),
  askedOverall: true,
  tieKey: "correctness",
};

/** The scoring of a run with these settings; a run without a rubric scores as every run did before rubrics. */
export function scoringOf(settings: { rubric?: Rubric; category?: string }): Scoring {
  const rubric = settings.rubric;
  if (!rubric) return DEFAULT_SCORING;
  const own = settings.category === undefined ? undefined : rubric.categoryWeights?.[settings.category];
  const weights = Object.fromEntries(rubric.dimensions.map((d) => [d.key, own?.[d.key] ?? d.weight]));
  const heaviest = rubric.dimensions.reduce((best, d) => (weights[d.key] > weights[best.key] ? d : best));
  return {
    keys: rubric.dimensions.map((d) => d.key),
    descriptions: Object.fromEntries(rubric.dimensions.map((d) => [d.key, d.description])),
    weights,
    askedOverall: false,
    tieKey: heaviest.key,
  };
}

/** One review's overall: the reviewer's own under the default rubric, else Σ weight·score ÷ Σ weight. */
export function overallOf(scoring: Scoring, scores: Scores): number {
  if (scoring.askedOverall) return scores[OVERALL];
  let weighted = 0;
  let total = 0;
  for (const key of scoring.keys) {
    weighted += scoring.weights[key] * scores[key];
    total += scoring.weights[key];
  }
  return weighted / total;
}

/** The keys a page or an export shows per answer: the rubric's, then the computed overall when it isn't asked. */
export const shownScoreKeys = (scoring: Scoring): string[] =>
  scoring.askedOverall ? scoring.keys : [...scoring.keys, OVERALL];
