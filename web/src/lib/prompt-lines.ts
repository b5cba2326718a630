/** Prompt sets on the page: pasted lines to prompts and back, and the line errors of a refused upload. */
import { autoItemId } from "../../../worker/shared/prompt-set";

/** One prompt a line: each trimmed, blank lines left out. */
export const promptsOfLines = (text: string): string[] =>
  text
    .split(/\r\n|\r|\n/)
    .map((line) => line.trim())
    .filter((line) => line !== "");

interface ItemFields {
  id: string;
  prompt: string;
  category: string | null;
  reference: string | null;
  turns: unknown[] | null;
  goal: string | null;
}

/**
 * Whether a set's items are only prompts, one line each, with the ids their positions give: then editing its
 * lines loses nothing. Anything more (own ids, categories, references, turns, goals, line breaks) is edited as a file.
 */
export const editableAsLines = (items: readonly ItemFields[]): boolean =>
  items.every(
    (item, k) =>
      item.id === autoItemId(k + 1) &&
      item.category === null &&
      item.reference === null &&
      item.turns === null &&
      item.goal === null &&
      !/[\r\n]/.test(item.prompt),
  );

export interface LineError {
  line: number;
  message: string;
}

/** The lines a refused upload names (an ApiError's details.errors), or none. */
export function lineErrorsOf(err: unknown): LineError[] {
  const details = typeof err === "object" && err !== null ? (err as { details?: unknown }).details : undefined;
  const errors = typeof details === "object" && details !== null ? (details as { errors?: unknown }).errors : undefined;
  if (!Array.isArray(errors)) return [];
  return errors.filter(
    (e): e is LineError =>
      typeof e === "object" && e !== null && typeof e.line === "number" && typeof e.message === "string",
  );
}

/** "1 prompt", "2,500 prompts". */
export const promptCount = (n: number) => `${n.toLocaleString("en")} ${n === 1 ? "prompt" : "prompts"}`;
