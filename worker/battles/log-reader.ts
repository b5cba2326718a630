/**
 * A battle log of either kind, told apart by its content type or its first line: Chatbot Arena's clean battles
 * (a JSON array or JSON Lines, json-stream.ts) or lmarena's Kaggle-style CSV (kaggle-csv.ts).
 */
import { KAGGLE_HEADER_MARK, KaggleCsvReader } from "./kaggle-csv";
import { BattleSplitter, type ParsedItem, parseItem } from "./json-stream";

export interface BattleLogReader {
  push(text: string): ParsedItem[];
  end(): ParsedItem[];
}

/** Past this much text with no line end, the log is not the CSV (whose header is one short line). */
const MAX_FIRST_LINE = 64 * 1024;

/** Whether a log's first line is the Kaggle CSV's header (a JSON line may name the column too, but starts with { or [). */
export function isKaggleHeader(firstLine: string): boolean {
  return firstLine.includes(KAGGLE_HEADER_MARK) && !/^[\s\ufeff]*[[{]/.test(firstLine);
}

function jsonReader(): BattleLogReader {
  const splitter = new BattleSplitter();
  return { push: (text) => splitter.push(text).map(parseItem), end: () => splitter.end().map(parseItem) };
}

/**
 * Reads a log as `contentType` says (`text/csv` is the CSV) or, for any other type, as its first line shows:
 * the CSV's header names `winner_model_a`; anything else is JSON. `offset` rows came before this text.
 */
export function battleLogReader(contentType: string | undefined, offset: number): BattleLogReader {
  if (/^text\/csv\b/i.test(contentType?.trim() ?? "")) return new KaggleCsvReader(offset);
  let reader: BattleLogReader | null = null;
  let start = "";
  const decide = (whole: boolean): BattleLogReader | null => {
    const newline = start.indexOf("\n");
    if (newline === -1 && !whole && start.length < MAX_FIRST_LINE) return null;
    return isKaggleHeader(newline === -1 ? start : start.slice(0, newline))
      ? new KaggleCsvReader(offset)
      : jsonReader();
  };
  return {
    push(text) {
      if (reader) return reader.push(text);
      start += text;
      reader = decide(false);
      if (!reader) return [];
      const held = start;
      start = "";
      return reader.push(held);
    },
    end() {
      if (!reader) {
        reader = decide(true)!;
        const held = start;
        start = "";
        return [...reader.push(held), ...reader.end()];
      }
      return reader.end();
    },
  };
}
