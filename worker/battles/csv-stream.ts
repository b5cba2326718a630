/**
 * Splits CSV arriving in text chunks into records (RFC 4180 as pandas and spreadsheets write it): fields
 * separated by commas, a field in double quotes may hold commas, line breaks and quotes doubled (""), and
 * records end at LF, CRLF or a lone CR. A chunk may end anywhere — inside a quoted field, between the two
 * quotes of a doubled quote, between CR and LF — so neither the CLI nor the Worker ever holds a whole file.
 */

/** One record: its fields, and the 1-based line of the text it starts on (a quoted field may span lines). */
export interface CsvRecord {
  line: number;
  fields: string[];
}

/** Text that is not CSV: where, and what is wrong. Nothing after it can be trusted to split right. */
export class CsvSyntaxError extends Error {
  constructor(
    readonly line: number,
    message: string,
  ) {
    super(`line ${line}: ${message}`);
    this.name = "CsvSyntaxError";
  }
}

/** A conversation row of lmarena's datasets runs to tens of KB; this bounds memory on a broken file. */
const MAX_RECORD_CHARS = 1 << 22;

/** Where the splitter is within a field. */
const State = {
  /** at the start of a field, nothing of it read */
  FieldStart: 0,
  Unquoted: 1,
  Quoted: 2,
  /** a quote inside a quoted field: a doubled quote or the field's end, as the next character says */
  QuoteInQuoted: 3,
} as const;
type State = (typeof State)[keyof typeof State];

const QUOTE = 0x22;
const COMMA = 0x2c;
const NEWLINE = 0x0a;
const RETURN = 0x0d;

/** Feed chunks with push(), then call end() once; either throws CsvSyntaxError on text that is not CSV. */
export class CsvSplitter {
  private state: State = State.FieldStart;
  private fields: string[] = [];
  private parts: string[] = [];
  private chars = 0;
  private line = 1;
  private recordLine = 1;
  /** the record has begun (a blank line has not) */
  private begun = false;
  /** a CR ended the last record: a LF right after it belongs to it */
  private afterReturn = false;
  /** a quoted field's text so far ended on a CR: a LF starting the next piece ends the same line break */
  private afterQuotedReturn = false;
  private started = false;

  constructor(private readonly maxRecordChars = MAX_RECORD_CHARS) {}

  push(chunk: string): CsvRecord[] {
    const out: CsvRecord[] = [];
    let i = 0;
    // Windows tools often start UTF-8 files with a byte-order mark.
    if (!this.started && chunk.length > 0) {
      this.started = true;
      if (chunk.charCodeAt(0) === 0xfeff) i = 1;
    }
    if (this.afterReturn && i < chunk.length) {
      this.afterReturn = false;
      if (chunk.charCodeAt(i) === NEWLINE) i++;
    }
    while (i < chunk.length) {
      if (this.state === State.Quoted) {
        const quote = chunk.indexOf('"', i);
        const end = quote === -1 ? chunk.length : quote;
        this.take(chunk, i, end);
        if (quote === -1) return out;
        this.state = State.QuoteInQuoted;
        i = quote + 1;
        continue;
      }
      const c = chunk.charCodeAt(i);
      if (this.state === State.QuoteInQuoted) {
        if (c === QUOTE) {
          this.take(chunk, i, i + 1);
          this.state = State.Quoted;
          i++;
          continue;
        }
        if (c !== COMMA && c !== NEWLINE && c !== RETURN)
          throw new CsvSyntaxError(
            this.line,
            'text after a field\'s closing quote (a quote inside a field is doubled: "")',
          );
      }
      if (this.state === State.FieldStart && c === QUOTE) {
        this.begun = true;
        this.state = State.Quoted;
        i++;
        continue;
      }
      // Unquoted text runs to the next comma, line end or (an error) quote.
      let j = i;
      if (this.state !== State.QuoteInQuoted)
        while (j < chunk.length) {
          const d = chunk.charCodeAt(j);
          if (d === COMMA || d === NEWLINE || d === RETURN || d === QUOTE) break;
          j++;
        }
      if (j > i) {
        this.begun = true;
        this.state = State.Unquoted;
        this.take(chunk, i, j);
      }
      if (j === chunk.length) return out;
      const d = chunk.charCodeAt(j);
      if (d === QUOTE)
        throw new CsvSyntaxError(
          this.line,
          "a quote inside a field that does not start with one (quote the whole field)",
        );
      if (d === COMMA) {
        this.begun = true;
        this.endField();
        i = j + 1;
        continue;
      }
      // A line end: the record ends here, unless it is a blank line.
      if (this.begun) {
        this.endField();
        out.push({ line: this.recordLine, fields: this.fields });
      }
      this.fields = [];
      this.chars = 0;
      this.begun = false;
      this.state = State.FieldStart;
      this.line++;
      this.recordLine = this.line;
      i = j + 1;
      if (d === RETURN) {
        if (i === chunk.length) this.afterReturn = true;
        else if (chunk.charCodeAt(i) === NEWLINE) i++;
      }
    }
    return out;
  }

  end(): CsvRecord[] {
    if (this.state === State.Quoted)
      throw new CsvSyntaxError(
        this.recordLine,
        "the text ends inside a quoted field of the record that starts on this line",
      );
    if (!this.begun) return [];
    this.endField();
    const last = { line: this.recordLine, fields: this.fields };
    this.fields = [];
    this.begun = false;
    return [last];
  }

  /** Adds chunk[from, to) to the field being read, counting the line breaks a quoted field holds. */
  private take(chunk: string, from: number, to: number): void {
    if (to <= from) return;
    this.chars += to - from;
    if (this.chars > this.maxRecordChars)
      throw new CsvSyntaxError(this.recordLine, `the record is longer than ${this.maxRecordChars} characters`);
    const text = chunk.slice(from, to);
    if (this.state === State.Quoted) this.line += lineBreaks(text, this.afterQuotedReturn);
    this.afterQuotedReturn = text.charCodeAt(text.length - 1) === RETURN;
    this.parts.push(text);
  }

  private endField(): void {
    this.fields.push(this.parts.length === 1 ? this.parts[0] : this.parts.join(""));
    this.parts = [];
    this.afterQuotedReturn = false;
    this.state = State.FieldStart;
  }
}

/** Line breaks in `text` (LF, CRLF and lone CR each one), a LF first in it not counted when a CR came just before. */
function lineBreaks(text: string, afterReturn: boolean): number {
  let n = 0;
  for (let k = text.indexOf("\r"); k !== -1; k = text.indexOf("\r", k + 1)) n++;
  for (let k = text.indexOf("\n"); k !== -1; k = text.indexOf("\n", k + 1))
    if (!(k === 0 ? afterReturn : text.charCodeAt(k - 1) === RETURN)) n++;
  return n;
}

/** A record as one CSV line: a field holding a comma, quote or line break goes in quotes, its quotes doubled. */
export function csvRecordText(fields: readonly string[]): string {
  return fields.map((f) => (/[",\r\n]/.test(f) ? `"${f.replaceAll('"', '""')}"` : f)).join(",");
}
