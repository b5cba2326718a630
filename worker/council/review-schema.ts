/**
 * The one JSON Schema every reviewer answers with. It stays inside the subset that OpenAI strict
 * `json_schema`, Anthropic tool `input_schema` and Gemini `responseJsonSchema` all accept:
 * every object closed (`additionalProperties: false`) with all its properties required, and no
 * min/max keywords (OpenAI strict rejects some) — ranges live in descriptions and parse-review.ts enforces them.
 */
import { SCORE_KEYS } from "../shared/run";

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

export function reviewJsonSchema(labels: string[]): JsonSchema {
  const label = (description: string): JsonSchema => ({ type: "string", enum: [...labels], description });
  const score: JsonSchema = { type: "number", description: "0 (worst) to 10 (best)" };
  const scores = closedObject(Object.fromEntries(SCORE_KEYS.map((key) => [key, score])));
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
