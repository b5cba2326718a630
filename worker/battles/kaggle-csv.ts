/**
 * lmarena's Kaggle-style CSV (`lmsys-arena-human-preference-55k`): one battle a row, with the prompt and both
 * responses as JSON arrays of strings (one per turn) and the outcome one-hot in three columns. Each row becomes
 * a clean battle (fastchat.ts checks it as it checks any other): the conversations in FastChat's
 * `conversation_a`/`conversation_b` shape, and, as the file has no timestamps, `tstamp` = the row's number, so
 * file order is time order.
 */
import { CsvSplitter, CsvSyntaxError, type CsvRecord } from "./csv-stream";
import { describeValue, parseBattle } from "./fastchat";
import type { ParsedItem } from "./json-stream";

/** The one-hot outcome columns, and the winner each stands for. */
const WINNER_COLUMNS = [
  ["winner_model_a", "model_a"],
  ["winner_model_b", "model_b"],
  ["winner_tie", "tie"],
] as const;
const REQUIRED = ["model_a", "model_b", "prompt", "response_a", "response_b", ...WINNER_COLUMNS.map(([c]) => c)];
/** The column that marks the CSV's header line (log-reader.ts tells the CSV from JSON by it). */
export const KAGGLE_HEADER_MARK = "winner_model_a";

class Invalid extends Error {}

/** A JSON array of turns' texts, null entries (a missing reply) read as empty text. */
function turns(fields: Record<string, string>, column: string): string[] {
  let value: unknown = null;
  try {
    value = JSON.parse(fields[column]);
  } catch {
    // reported below, as any other value that is not an array of strings
  }
  if (!Array.isArray(value) || value.some((t) => t !== null && typeof t !== "string"))
    throw new Invalid(`${column} must be a JSON array of strings, one per turn; got ${describeValue(fields[column])}`);
  return value.map((t: string | null) => t ?? "");
}

function winner(fields: Record<string, string>): string {
  const values = WINNER_COLUMNS.map(([column]) => fields[column]);
  if (!values.every((v) => v === "0" || v === "1") || values.filter((v) => v === "1").length !== 1)
    throw new Invalid(
      `exactly one of winner_model_a, winner_model_b and winner_tie must be 1 and the others 0; got ${values.map(describeValue).join(", ")}`,
    );
  return WINNER_COLUMNS[values.indexOf("1")][1];
}

/** One row as the clean battle it stands for. */
function cleanBattleOf(fields: Record<string, string>, tstamp: number): Record<string, unknown> {
  const prompt = turns(fields, "prompt");
  const [a, b] = [turns(fields, "response_a"), turns(fields, "response_b")];
  if (prompt.length === 0) throw new Invalid("prompt holds no turn");
  if (a.length !== prompt.length || b.length !== prompt.length)
    throw new Invalid(
      `prompt, response_a and response_b must hold as many turns each; got ${prompt.length}, ${a.length} and ${b.length}`,
    );
  const conversation = (replies: string[]) =>
    prompt.flatMap((content, k) => [
      { role: "user", content },
      { role: "assistant", content: replies[k] },
    ]);
  return {
    model_a: fields.model_a,
    model_b: fields.model_b,
    winner: winner(fields),
    tstamp,
    question_id: fields.id || null,
    turn: prompt.length,
    conversation_a: conversation(a),
    conversation_b: conversation(b),
  };
}

/**
 * Feed text with push(), then call end() once. Rows are numbered from 1 after the header (`line` in the items);
 * `offset` rows came before this text (a chunk of a larger file), so row n's tstamp is offset + n. Text that is
 * not CSV, or a header or row that does not fit the format, throws CsvSyntaxError (nothing after it can be
 * trusted); a well-formed row that is not a battle is an item with its error, as a JSON line is.
 */
export class KaggleCsvReader {
  private readonly splitter = new CsvSplitter();
  private columns: string[] | null = null;
  private rows = 0;

  constructor(private readonly offset: number) {}

  push(text: string): ParsedItem[] {
    return this.read(this.splitter.push(text));
  }

  end(): ParsedItem[] {
    const items = this.read(this.splitter.end());
    if (this.columns === null) throw new CsvSyntaxError(1, "the file is empty: it needs a header line");
    return items;
  }

  private read(records: CsvRecord[]): ParsedItem[] {
    const items: ParsedItem[] = [];
    for (const record of records) {
      if (this.columns === null) this.columns = header(record);
      else items.push(this.row(record));
    }
    return items;
  }

  private row(record: CsvRecord): ParsedItem {
    const columns = this.columns!;
    if (record.fields.length !== columns.length)
      throw new CsvSyntaxError(
        record.line,
        `the row has ${record.fields.length} fields where the header has ${columns.length} (a field holding commas or line breaks must be in double quotes)`,
      );
    const line = ++this.rows;
    const fields = Object.fromEntries(columns.map((c, k) => [c, record.fields[k]]));
    try {
      const parsed = parseBattle(cleanBattleOf(fields, this.offset + line));
      return parsed.ok ? { line, battle: parsed.battle } : { line, error: parsed.error };
    } catch (error) {
      if (error instanceof Invalid) return { line, error: error.message };
      throw error;
    }
  }
}

function header(record: CsvRecord): string[] {
  const columns = record.fields.map((f) => f.trim());
  const missing = REQUIRED.filter((c) => !columns.includes(c));
  if (missing.length)
    throw new CsvSyntaxError(
      record.line,
      `the header lacks ${missing.join(", ")}: lmarena's CSV has id,model_a,model_b,prompt,response_a,response_b,winner_model_a,winner_model_b,winner_tie`,
    );
  const twice = columns.find((c, k) => columns.indexOf(c) !== k);
  if (twice !== undefined) throw new CsvSyntaxError(record.line, `the header names ${twice} twice`);
  return columns;
}
