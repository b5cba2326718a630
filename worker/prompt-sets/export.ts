/** A prompt set written out as the upload reads it back (readers.ts): JSON Lines, or CSV with a header. */
import { csvRecordText } from "../battles/csv-stream";
import { PROMPT_SET_FIELDS, type PromptSetFormat } from "../shared/constants";
import type { PromptSetItem } from "../shared/prompt-set";

/** One item as a JSON line: the fields it has, absent ones left out. */
function jsonLine(item: PromptSetItem): string {
  return JSON.stringify({
    id: item.id,
    prompt: item.prompt,
    ...(item.category === null ? {} : { category: item.category }),
    ...(item.reference === null ? {} : { reference: item.reference }),
    ...(item.turns === null ? {} : { turns: item.turns }),
    ...(item.goal ? { goal: item.goal } : {}),
    ...(item.persona ? { persona: item.persona } : {}),
    ...(item.marker ? { marker: item.marker } : {}),
  });
}

/** One item as a CSV row in PROMPT_SET_FIELDS' order; its turns as a JSON array, absent fields empty. */
function csvRow(item: PromptSetItem): string {
  return csvRecordText([
    item.id,
    item.prompt,
    item.category ?? "",
    item.reference ?? "",
    item.turns === null ? "" : JSON.stringify(item.turns),
    item.goal ?? "",
    item.persona ?? "",
    item.marker ?? "",
  ]);
}

/** What the file starts with: the CSV's header line; nothing for JSON Lines. */
export const exportHead = (format: PromptSetFormat) => (format === "csv" ? `${PROMPT_SET_FIELDS.join(",")}\n` : "");

/** Items as lines of the file, each ending with a line break. */
export const exportLines = (format: PromptSetFormat, items: readonly PromptSetItem[]) =>
  items.map((item) => `${format === "csv" ? csvRow(item) : jsonLine(item)}\n`).join("");

export const EXPORT_TYPES: Record<PromptSetFormat, string> = {
  jsonl: "application/x-ndjson; charset=utf-8",
  csv: "text/csv; charset=utf-8",
};
