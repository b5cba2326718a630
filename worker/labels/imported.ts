/**
 * The categories lmarena's newer logs already carry for a line's prompt (`category_tag`, `is_code`), read as the
 * Arena reads them: they become labels of source `import` rather than being asked of the classifier again.
 */
import { HARD_PROMPT_CRITERIA, HARD_PROMPT_MIN_CRITERIA } from "./classifier";

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** The labels a line's `category_tag` object and `is_code` flag give (none when it has neither). */
export function importedTagsOf(line: Record<string, unknown>): string[] {
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
