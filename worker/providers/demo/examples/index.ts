/**
 * The demo's example questions, each with a prepared answer per demo model. A question is one of them when its text
 * matches after normalising case, spacing, quotes and end punctuation: never by guessing at similar wording.
 */
import { abSignificance } from "./ab-significance";
import { gpuMemory } from "./gpu-memory";
import { nanLoss } from "./nan-loss";
import { ragOrFineTune } from "./rag-or-fine-tune";
import { sampling } from "./sampling";
import { sqlDedup } from "./sql-dedup";
import { teamMessage } from "./team-message";
import type { Example } from "./types";
import { vectorDatabase } from "./vector-database";

export type { Example, ExampleKind, PreparedAnswer } from "./types";

export const EXAMPLES: readonly Example[] = [
  vectorDatabase,
  sqlDedup,
  sampling,
  teamMessage,
  gpuMemory,
  nanLoss,
  ragOrFineTune,
  abSignificance,
];

/** Case, runs of spaces, curly quotes and trailing punctuation say nothing about which question was asked. */
export function normaliseQuestion(text: string): string {
  return text
    .normalize("NFKC")
    .replace(/[‘’]/g, "'")
    .replace(/[“”]/g, '"')
    .replace(/\s+/g, " ")
    .trim()
    .replace(/[\s.?!]+$/, "")
    .toLowerCase();
}

const byQuestion = new Map(EXAMPLES.map((e) => [normaliseQuestion(e.question), e]));

/** The example `question` is, or null. */
export const findExample = (question: string): Example | null => byQuestion.get(normaliseQuestion(question)) ?? null;
