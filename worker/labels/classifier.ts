/**
 * What the classifier model (QUORUM_CLASSIFIER) is asked about a prompt, and how its answer becomes labels: the
 * Arena's categories in one structured call instead of its one call per category. The questions follow
 * FastChat's classifiers (fastchat/serve/monitor/classify): coding and math as yes/no, creative writing as
 * yes/no, instruction following as a score from 0 to 5 (4 or more counts, as the Arena's), and which of the
 * seven hard-prompt criteria the prompt meets (6 or more make it a hard prompt, as the Arena's).
 */
import { PROMPT_CHARS } from "./rules";
import { parseJsonObject } from "../shared/json-output";

export const HARD_PROMPT_CRITERIA = [
  "specificity",
  "domain_knowledge",
  "complexity",
  "problem_solving",
  "creativity",
  "technical_accuracy",
  "real_world",
] as const;

/** The Arena counts a prompt hard when it meets at least this many of the seven criteria. */
export const HARD_PROMPT_MIN_CRITERIA = 6;
/** An instruction-following score at or above this makes the label (the Arena's `if` tag). */
export const INSTRUCTION_FOLLOWING_MIN_SCORE = 4;

export const CLASSIFIER_SYSTEM = `You label prompts sent to AI assistants, so their answers can be compared by kind of task. Read the prompt between <user_prompt> tags and answer with one JSON object, nothing else:
- "coding": does answering it require writing, reading or debugging code? true or false.
- "math": does it require solving a math problem with mathematical logic and reasoning? true or false.
- "creative_writing": does it ask for original creative writing (a story, poem, lyrics, a script, role-play) rather than facts or analysis? true or false.
- "instruction_following": from 0 to 5, how well it tests following specific instructions (several requirements, a required format or structure, constraints to respect): 0 not at all, 3 simple instructions, 5 advanced ones.
- "criteria": the numbers of the criteria it meets, of these seven:
  1. Specificity: it asks for a specific output (code, a mathematical solution, a strategy, a setup).
  2. Domain knowledge: it covers a specific domain (programming, mathematics, logic, hardware…).
  3. Complexity: it has several layers or steps to reason through.
  4. Problem-solving: it needs a solution worked out for its setup, not a recalled fact.
  5. Creativity: it calls for a creative approach tailored to the user's needs.
  6. Technical accuracy: the answer must be technically precise and correct.
  7. Real-world application: it relates to a practical use in real life.
Do not explain.`;

export const CLASSIFIER_SCHEMA: Record<string, unknown> = {
  type: "object",
  properties: {
    coding: { type: "boolean" },
    math: { type: "boolean" },
    creative_writing: { type: "boolean" },
    instruction_following: { type: "integer", minimum: 0, maximum: 5 },
    criteria: { type: "array", items: { type: "integer", minimum: 1, maximum: HARD_PROMPT_CRITERIA.length } },
  },
  required: ["coding", "math", "creative_writing", "instruction_following", "criteria"],
  additionalProperties: false,
};

export function classifierPrompt(userText: string): string {
  return `<user_prompt>\n${userText.slice(0, PROMPT_CHARS)}\n</user_prompt>`;
}

export type ClassifierParse = { ok: true; value: string[] } | { ok: false; error: string };

/** The classifier's answer as the labels it earns, or what is wrong with it. */
export function parseClassifierOutput(raw: string): ClassifierParse {
  const parsed = parseJsonObject(raw, "the answer");
  if (!parsed.ok) return parsed;
  const o = parsed.value;
  for (const key of ["coding", "math", "creative_writing"])
    if (typeof o[key] !== "boolean") return { ok: false, error: `"${key}" must be true or false` };
  const score = o.instruction_following;
  if (typeof score !== "number" || !Number.isInteger(score) || score < 0 || score > 5)
    return { ok: false, error: `"instruction_following" must be a whole number from 0 to 5` };
  const criteria = o.criteria;
  if (
    !Array.isArray(criteria) ||
    !criteria.every((c) => typeof c === "number" && Number.isInteger(c) && c >= 1 && c <= HARD_PROMPT_CRITERIA.length)
  )
    return { ok: false, error: `"criteria" must list criterion numbers from 1 to ${HARD_PROMPT_CRITERIA.length}` };
  const labels: string[] = [];
  if (o.coding) labels.push("coding");
  if (o.math) labels.push("math");
  if (o.creative_writing) labels.push("creative_writing");
  if (score >= INSTRUCTION_FOLLOWING_MIN_SCORE) labels.push("instruction_following");
  if (new Set(criteria).size >= HARD_PROMPT_MIN_CRITERIA) labels.push("hard_prompt");
  return { ok: true, value: labels };
}
