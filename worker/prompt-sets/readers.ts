/**
 * Uploaded prompt sets as they stream in: JSON Lines (one item a line) or CSV (a header naming the columns, then
 * one item a row, RFC 4180 quoting as battles/csv-stream.ts reads it). Line numbers are the file's own lines,
 * blank ones counted, so an error points where an editor does; a CSV row is numbered by the line it starts on.
 */
import { CsvSplitter, CsvSyntaxError, type CsvRecord } from "../battles/csv-stream";
import { notValidJson } from "../battles/json-stream";
import { PROMPT_SET_FIELDS, type PromptSetFormat } from "../shared/constants";
import type { ItemCollector } from "./collect";

export interface ItemReader {
  push(text: string): void;
  end(): void;
}

/** A line or CSV record past this can't be one item (see collect.ts's size bound); it bounds memory on a broken file. */
const MAX_LINE_CHARS = 4 * 1024 * 1024;

/** JSON Lines: each non-blank line one JSON object. */
class JsonLinesReader implements ItemReader {
  private pending = "";
  private line = 1;
  private overflow = false;
  private started = false;

  constructor(private readonly out: ItemCollector) {}

  push(text: string): void {
    // Windows tools often start UTF-8 files with a byte-order mark, which JSON.parse rejects.
    if (!this.started && text.length) {
      this.started = true;
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    }
    let from = 0;
    for (let nl = text.indexOf("\n", from); nl !== -1; nl = text.indexOf("\n", from)) {
      this.append(text.slice(from, nl));
      this.finishLine();
      from = nl + 1;
    }
    this.append(text.slice(from));
  }

  end(): void {
    this.finishLine();
  }

  private append(text: string): void {
    if (this.overflow) return;
    if (this.pending.length + text.length > MAX_LINE_CHARS) {
      this.overflow = true;
      this.pending = "";
    } else this.pending += text;
  }

  private finishLine(): void {
    const line = this.line++;
    const text = this.pending.trim();
    this.pending = "";
    if (this.overflow) {
      this.overflow = false;
      this.out.reject(line, `the line is longer than ${MAX_LINE_CHARS.toLocaleString("en")} characters`);
      return;
    }
    if (!text) return;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      this.out.reject(line, notValidJson(error));
      return;
    }
    if (typeof value !== "object" || value === null || Array.isArray(value)) {
      this.out.reject(line, 'each line is one JSON object, e.g. {"prompt": "…"}');
      return;
    }
    this.out.add(line, value);
  }
}

/** CSV with a header: `prompt` required; `id`, `category`, `reference` and `turns` (a JSON array) optional. */
class CsvItemReader implements ItemReader {
  private readonly splitter = new CsvSplitter(MAX_LINE_CHARS);
  private columns: string[] | null = null;

  constructor(private readonly out: ItemCollector) {}

  push(text: string): void {
    this.take(() => this.splitter.push(text));
  }

  end(): void {
    this.take(() => this.splitter.end());
  }

  private take(read: () => CsvRecord[]): void {
    for (const record of read()) {
      if (this.columns) this.row(record);
      else this.columns = this.header(record);
    }
  }

  private header(record: CsvRecord): string[] {
    const columns = record.fields.map((f) => f.trim().toLowerCase());
    const unknown = columns.filter((c) => !(PROMPT_SET_FIELDS as readonly string[]).includes(c));
    const twice = columns.find((c, k) => columns.indexOf(c) !== k);
    const problem = !columns.includes("prompt")
      ? `the header has no prompt column (it names the columns: prompt, and optionally ${PROMPT_SET_FIELDS.filter((f) => f !== "prompt").join(", ")}); got ${columns.join(",").slice(0, 200)}`
      : unknown.length
        ? `unknown column${unknown.length > 1 ? "s" : ""} ${unknown.map((c) => `"${c.slice(0, 40)}"`).join(", ")} in the header (the columns are ${PROMPT_SET_FIELDS.join(", ")})`
        : twice
          ? `the header names the column "${twice}" twice`
          : null;
    // Rows can't be read right under a wrong header: this is the only error reported.
    if (problem) throw new CsvSyntaxError(record.line, problem);
    return columns;
  }

  private row(record: CsvRecord): void {
    const columns = this.columns!;
    if (record.fields.length !== columns.length) {
      this.out.reject(
        record.line,
        `the row has ${record.fields.length} field${record.fields.length === 1 ? "" : "s"}, the header ${columns.length} (a field holding a comma or a line break goes in double quotes)`,
      );
      return;
    }
    const value: Record<string, unknown> = {};
    columns.forEach((column, k) => {
      const field = record.fields[k];
      // An empty cell leaves the field out, as a JSON line without the key does.
      if (field !== "" || column === "prompt") value[column] = field;
    });
    if (typeof value.turns === "string") {
      try {
        value.turns = JSON.parse(value.turns);
      } catch (error) {
        this.out.reject(record.line, `turns is ${notValidJson(error)}`);
        return;
      }
    }
    this.out.add(record.line, value);
  }
}

/**
 * A reader for `format`, or, when it is null, for what the body shows: JSON Lines when its first non-blank character
 * is `{`, CSV otherwise (a header starts with a column name).
 */
export function itemReader(format: PromptSetFormat | null, out: ItemCollector): ItemReader {
  if (format) return format === "csv" ? new CsvItemReader(out) : new JsonLinesReader(out);
  let reader: ItemReader | null = null;
  let held = "";
  return {
    push(text) {
      if (reader) return reader.push(text);
      held += text;
      const first = held.replace(/^\ufeff/, "").search(/\S/);
      if (first === -1) return;
      reader = held.replace(/^\ufeff/, "")[first] === "{" ? new JsonLinesReader(out) : new CsvItemReader(out);
      reader.push(held);
      held = "";
    },
    end() {
      reader ??= new JsonLinesReader(out);
      if (held) reader.push(held);
      reader.end();
    },
  };
}

export { CsvSyntaxError };
