/**
 * What an imported battle-log line says about its prompt: its user turns (FastChat's `conversation_a`), and the
 * categories lmarena's newer logs already carry (`category_tag`, `is_code`), which become labels of source
 * `import` rather than being asked again.
 */
import type { ImportedPrompt } from "../db/battle-queries";
import { HARD_PROMPT_MIN_CRITERIA, HARD_PROMPT_CRITERIA } from "./classifier";

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** A message's text: a string, or the text parts of a list of content parts (the newer logs' shape). */
function textOf(content: unknown): string | null {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return null;
  const parts = content.flatMap((p) => (isObject(p) && typeof p.text === "string" ? [p.text] : []));
  return parts.length ? parts.join("\n") : null;
}

function userTurnsOf(conversation: unknown): string[] | null {
  if (!Array.isArray(conversation)) return null;
  const turns = conversation.flatMap((m) => {
    if (!isObject(m) || m.role !== "user") return [];
    const text = textOf(m.content);
    return text === null ? [] : [text];
  });
  return turns.length ? turns : null;
}

/** The labels a `category_tag` object and `is_code` flag give, as the Arena reads them. */
function tagsOf(line: Record<string, unknown>): string[] {
  const tags: string[] = [];
  if (line.is_code === true) tags.push("coding");
  const tag = line.category_tag;
  if (!isObject(tag)) return tags;
  const part = (key: string) => (isObject(tag[key]) ? (tag[key] as Record<string, unknown>) : null);
  if (part("math_v0.1")?.math === true) tags.push("math");
  if (part("creative_writing_v0.1")?.creative_writing === true) tags.push("creative_writing");
  if (part("if_v0.1")?.if === true) tags.push("instruction_following");
  const criteria = part("criteria_v0.1");
  if (criteria && HARD_PROMPT_CRITERIA.filter((c) => criteria[c] === true).length >= HARD_PROMPT_MIN_CRITERIA)
    tags.push("hard_prompt");
  return tags;
}

/** The prompt facts of one log line; null when it carries neither a conversation nor categories. */
export function importedPromptOf(line: Record<string, unknown>): ImportedPrompt | null {
  const userTurns = userTurnsOf(line.conversation_a);
  const tags = tagsOf(line);
  return userTurns || tags.length ? { userTurns, tags } : null;
}
