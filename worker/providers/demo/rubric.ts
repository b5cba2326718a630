/**
 * A custom rubric as a demo reviewer reads it from its request: the score keys from the review schema, what each
 * judges from the key's description, its weight from the review instructions. A demo reviewer scores by its own
 * six dimensions, so a rubric's key takes the dimension it names (by its key, else by its description), and a key
 * it can't place takes the reviewer's overall.
 */
import type { DefaultScores, Scores } from "../../shared/run";
import { SCORE_KEYS } from "../../shared/run";

export interface DemoRubric {
  keys: string[];
  /** per key, the demo dimension it is scored by */
  dimension: Record<string, keyof DefaultScores>;
  weights: Record<string, number>;
}

/** Words that tie a rubric's key or description to one of the demo's dimensions, the first match winning. */
const WORDS: [RegExp, keyof DefaultScores][] = [
  [/correct|accura|factual|true|right|valid|precis/, "correctness"],
  [/complete|thorough|coverage|depth|detail|cover/, "completeness"],
  [/clar|clear|readab|concise|brev|brief|structure|organi[sz]/, "clarity"],
  [/help|useful|actionab|practical|relevan/, "helpfulness"],
  [/safe|harm|risk|caution|careful/, "safety"],
];

const child = (value: unknown, key: string): unknown =>
  typeof value === "object" && value !== null ? (value as Record<string, unknown>)[key] : undefined;

/** The rubric a review request asks for, or null for the default one (its six keys, the reviewer's own overall). */
export function rubricOfRequest(schema: Record<string, unknown>, system: string): DemoRubric | null {
  const path = ["properties", "reviews", "items", "properties", "scores", "properties"];
  const properties = path.reduce<unknown>(child, schema);
  if (typeof properties !== "object" || properties === null) return null;
  const keys = Object.keys(properties);
  if (keys.length === SCORE_KEYS.length && SCORE_KEYS.every((k) => keys.includes(k))) return null;
  const described = (key: string) => String(child(child(properties, key), "description") ?? "");
  const dimension = Object.fromEntries(
    keys.map((key) => [key, placeOf(key) ?? placeOf(described(key).toLowerCase()) ?? "overall"] as const),
  );
  const weights = Object.fromEntries(keys.map((key) => [key, weightIn(system, key)]));
  return { keys, dimension, weights };
}

function placeOf(text: string): keyof DefaultScores | null {
  return WORDS.find(([pattern]) => pattern.test(text))?.[1] ?? null;
}

/** The weight the instructions give `key` ("- key: … (weight 2 in the overall)"); 1 when they give none. */
function weightIn(system: string, key: string): number {
  const line = system.split("\n").find((l) => l.trimStart().startsWith(`- ${key}:`));
  const weight = Number(/\(weight ([\d.]+) in the overall\)\s*$/.exec(line ?? "")?.[1]);
  return Number.isFinite(weight) && weight > 0 ? weight : 1;
}

/** A demo review's six scores as the rubric's keys. */
export function scoresByRubric(rubric: DemoRubric, scores: DefaultScores): Scores {
  return Object.fromEntries(rubric.keys.map((key) => [key, scores[rubric.dimension[key]]]));
}

/** An answer's overall under the rubric, which its ranking follows: the weighted mean of its scores. */
export function rubricOverall(rubric: DemoRubric, scores: Scores): number {
  const total = rubric.keys.reduce((n, k) => n + rubric.weights[k], 0);
  return rubric.keys.reduce((n, k) => n + rubric.weights[k] * scores[k], 0) / total;
}
