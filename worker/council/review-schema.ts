/**
 * The one JSON Schema every reviewer answers with. It stays inside the subset that OpenAI strict
 * `json_schema`, Anthropic tool `input_schema` and Gemini `responseJsonSchema` all accept:
 * every object closed (`additionalProperties: false`) with all its properties required, and no
 * min/max keywords (OpenAI strict rejects some) — ranges live in descriptions and parse-review.ts enforces them.
 */
import { type Scoring, scoringOf } from "../shared/rubric";

type JsonSchema = Record<string, unknown>;

function closedObject(properties: Record<string, JsonSchema>, description?: string): JsonSchema {
  return {
    type: "object",
    ...(description ? { description } : {}),
    properties,
    required: Object.keys(properties),
    additionalProperties: false,
  };
}

const SCALE = "0 (worst) to 10 (best)";

/** The review schema for these labels, its scores the rubric's keys (each described, when the rubric says what it judges). */
export function reviewJsonSchema(labels: string[], scoring: Scoring = scoringOf({})): JsonSchema {
  const label = (description: string): JsonSchema => ({ type: "string", enum: [...labels], description });
  const score = (key: string): JsonSchema => {
    const judges = scoring.descriptions?.[key];
    return { type: "number", description: judges ? `${judges}: ${SCALE}` : SCALE };
  };
  const scores = closedObject(Object.fromEntries(scoring.keys.map((key) => [key, score(key)])));
  const review = closedObject({
    label: label("the answer this review is about"),
    critique: { type: "string", description: "main strengths and weaknesses, a few sentences" },
    scores,
  });
  return closedObject({
    reviews: { type: "array", description: "one review per answer", items: review },
    ranking: { type: "array", description: "every label exactly once, best first", items: label("an answer") },
    confidence: { type: "number", description: "confidence in the ranking, 0 (a guess) to 1 (certain)" },
  });
}
