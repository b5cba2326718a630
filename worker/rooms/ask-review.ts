/**
 * One council review as a structured call: the reviewer (a preset keeps its own system prompt before the review's
 * instructions) reads the packet and answers with the review schema, which parse-review.ts reads and repairs. A
 * council run's review phase and a council evaluation's review calls both ask through here.
 */
import { type ParsedReview, parseReview } from "../council/parse-review";
import type { ReviewRequestParts } from "../council/prompts";
import type { CallTarget } from "../db/records";
import type { Scoring } from "../shared/rubric";
import type { ReplyRules } from "./reply";
import { askStructured, type Parsed, type Structured, type StructuredOptions } from "./structured-call";
import { withPresetSystem } from "./targets";

export interface ReviewAsk {
  target: CallTarget;
  request: ReviewRequestParts;
  scoring: Scoring;
  temperature?: number;
}

export function askReview(
  rules: ReplyRules,
  ask: ReviewAsk,
  options: Omit<StructuredOptions, "invalid"> = {},
): Promise<Structured<ParsedReview>> {
  const { target, request, scoring } = ask;
  return askStructured(
    rules,
    {
      modelId: target.modelId,
      system: withPresetSystem(target, request.system),
      prompt: request.prompt,
      schema: request.schema,
      temperature: ask.temperature,
    },
    (raw): Parsed<ParsedReview> => {
      const outcome = parseReview(raw, request.labels, scoring);
      return outcome.ok ? { ok: true, value: outcome.review } : outcome;
    },
    {
      ...options,
      // Our own wording, naming no model, so it shows while blind.
      invalid: (error) => `The review did not match the required format twice (${error}). See the raw output.`,
    },
  );
}
