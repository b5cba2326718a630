/**
 * Splits a battle log arriving in text chunks into its top-level items, so neither the CLI nor the Worker ever
 * holds a whole file: JSON Lines give one item per non-blank line; a JSON array (first non-blank character `[`)
 * gives one item per element, found by tracking depth and string state across chunk boundaries, with each run of
 * whitespace between tokens folded to one space so every item's text is a single line (JSON Lines-ready).
 */
import { describeValue, type ImportedBattle, parseBattle } from "./fastchat";

/**
 * One top-level item. `line` is its 1-based item number: blank lines are not counted, so a retried or resumed
 * import numbers every item the same way. `error` marks text that cannot be an item (see BattleSplitter).
 */
export interface SplitItem {
  line: number;
  text: string;
  error?: string;
}

export interface ParsedItem {
  line: number;
  battle?: ImportedBattle;
  error?: string;
}

/** Arena's logs with whole conversations run to tens of KB an item; this bounds memory on a broken file. */
const MAX_ITEM_CHARS = 1 << 20;

const SPACE = 0x20;
const NEWLINE = 0x0a;
const RETURN = 0x0d;
const TAB = 0x09;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const NOT_BLANK = /[^ \t\r\n]/;
const GARBAGE_QUOTE_CHARS = 40;

/** Index of the quote that closes a string whose text starts at `from` (no escape pending there), or -1. */
function stringEnd(chunk: string, from: number): number {
  for (let q = chunk.indexOf('"', from); q !== -1; q = chunk.indexOf('"', q + 1)) {
    let slashes = 0;
    while (q - slashes - 1 >= from && chunk.charCodeAt(q - slashes - 1) === BACKSLASH) slashes++;
    if (slashes % 2 === 0) return q;
  }
  return -1;
}

/** Whether a string still open at the end of the chunk ends on a pending backslash escape. */
function endsEscaped(chunk: string, from: number, escapedAtFrom: boolean): boolean {
  const start = escapedAtFrom ? from + 1 : from;
  let slashes = 0;
  while (chunk.length - slashes - 1 >= start && chunk.charCodeAt(chunk.length - slashes - 1) === BACKSLASH) slashes++;
  return slashes % 2 === 1;
}

type Mode = "detect" | "lines" | "array" | "after" | "done";

/**
 * Feed chunks with push(), then call end() once. Malformed structure comes back as an item with `error` set and
 * its own number: an item longer than maxItemChars, an empty array element, text after the closing `]` (reported
 * by end(), the rest ignored), an array the file never closes.
 */
export class BattleSplitter {
  private mode: Mode = "detect";
  private count = 0;
  private pending = "";
  private overflow = false;
  private depth = 0;
  private inString = false;
  private escaped = false;
  private afterBlank = false;
  private afterComma = false;
  private started = false;

  constructor(private readonly maxItemChars = MAX_ITEM_CHARS) {}

  push(chunk: string): SplitItem[] {
    const out: SplitItem[] = [];
    let from = 0;
    if (this.mode === "detect") {
      // Windows tools often start UTF-8 files with a byte-order mark, which JSON.parse rejects.
      if (!this.started && chunk.charCodeAt(0) === 0xfeff) from = 1;
      if (chunk.length > 0) this.started = true;
      const first = chunk.slice(from).search(NOT_BLANK);
      if (first === -1) return out;
      from += first;
      if (chunk.charCodeAt(from) === OPEN_BRACKET) {
        this.mode = "array";
        from += 1;
      } else this.mode = "lines";
    }
    if (this.mode === "lines") this.pushLines(chunk, from, out);
    else if (this.mode === "array") this.pushArray(chunk, from, out);
    else if (this.mode === "after") this.pushAfter(chunk, from);
    return out;
  }

  end(): SplitItem[] {
    const out: SplitItem[] = [];
    if (this.mode === "lines") this.finishLine(out);
    else if (this.mode === "after" && this.pending !== "") {
      this.emitError(
        out,
        this.pending,
        `unexpected text after the closing ] of the array: ${describeValue(this.pending)}`,
      );
    } else if (this.mode === "array") {
      const rest = this.pending.trim();
      if (this.overflow) this.emitOverflow(out);
      else if (rest !== "" && (this.inString || this.depth > 0))
        this.emitError(out, rest, "the file ends inside this item: the array is never closed with ]");
      else {
        if (rest !== "") this.emit(out, rest);
        this.emitError(out, "", "the array is never closed: the file ends without ]");
      }
    }
    this.mode = "done";
    this.pending = "";
    return out;
  }

  private append(text: string): void {
    if (this.overflow) return;
    if (this.pending.length + text.length > this.maxItemChars) {
      this.overflow = true;
      this.pending = "";
    } else this.pending += text;
  }

  private emit(out: SplitItem[], text: string): void {
    out.push({ line: ++this.count, text });
  }

  private emitError(out: SplitItem[], text: string, error: string): void {
    out.push({ line: ++this.count, text, error });
  }

  private emitOverflow(out: SplitItem[]): void {
    this.overflow = false;
    this.emitError(out, "", `the item is longer than ${this.maxItemChars} characters`);
  }

  private pushLines(chunk: string, from: number, out: SplitItem[]): void {
    let start = from;
    for (let nl = chunk.indexOf("\n", start); nl !== -1; nl = chunk.indexOf("\n", start)) {
      this.append(chunk.slice(start, nl));
      this.finishLine(out);
      start = nl + 1;
    }
    if (start < chunk.length) this.append(chunk.slice(start));
  }

  private finishLine(out: SplitItem[]): void {
    if (this.overflow) this.emitOverflow(out);
    else {
      const line = this.pending.endsWith("\r") ? this.pending.slice(0, -1) : this.pending;
      if (NOT_BLANK.test(line)) this.emit(out, line);
    }
    this.pending = "";
  }

  private pushArray(chunk: string, from: number, out: SplitItem[]): void {
    // Locals, not fields, in the hot loop: V8 keeps them in registers, which tells on arrays of hundreds of megabytes.
    let { depth, inString, escaped, afterBlank } = this;
    let start = from;
    let closedAt = -1;
    for (let i = from; i < chunk.length; i++) {
      if (inString) {
        const end = stringEnd(chunk, escaped ? i + 1 : i);
        escaped = end < 0 && endsEscaped(chunk, i, escaped);
        if (end < 0) break;
        inString = false;
        i = end;
        continue;
      }
      const c = chunk.charCodeAt(i);
      if (c === SPACE || c === NEWLINE || c === RETURN || c === TAB) {
        // Each run of whitespace becomes one space, so a pretty-printed element comes out on one line, unparsed.
        if (afterBlank) {
          if (start < i) this.append(chunk.slice(start, i));
          start = i + 1;
        } else if (c !== SPACE) {
          this.append(`${chunk.slice(start, i)} `);
          start = i + 1;
        }
        afterBlank = true;
        continue;
      }
      afterBlank = false;
      if (c === QUOTE) inString = true;
      else if (c === OPEN_BRACE || c === OPEN_BRACKET) depth++;
      // A stray `}` at depth 0 stays in the element for JSON.parse to reject; it must not end the array.
      else if (c === CLOSE_BRACE) depth = Math.max(0, depth - 1);
      else if (c === CLOSE_BRACKET && depth > 0) depth--;
      else if (c === COMMA && depth === 0) {
        this.append(chunk.slice(start, i));
        this.finishElement(out, false);
        start = i + 1;
      } else if (c === CLOSE_BRACKET) {
        closedAt = i;
        break;
      }
    }
    this.depth = depth;
    this.inString = inString;
    this.escaped = escaped;
    this.afterBlank = afterBlank;
    if (closedAt === -1) {
      this.append(chunk.slice(start));
      return;
    }
    this.append(chunk.slice(start, closedAt));
    this.finishElement(out, true);
    this.mode = "after";
    this.pushAfter(chunk, closedAt + 1);
  }

  private finishElement(out: SplitItem[], closing: boolean): void {
    const text = this.pending.trim();
    this.pending = "";
    if (this.overflow) this.emitOverflow(out);
    else if (text !== "") this.emit(out, text);
    else if (!closing) this.emitError(out, "", "the item is empty: two commas in a row, or a comma right after [");
    else if (this.afterComma)
      this.emitError(out, "", "a comma right before the closing ] (trailing commas are not JSON)");
    this.afterComma = !closing;
  }

  // Keeps the first characters of trailing text so end() can quote them the same way however the file was cut.
  private pushAfter(chunk: string, from: number): void {
    if (this.pending === "") {
      const at = chunk.slice(from).search(NOT_BLANK);
      if (at === -1) return;
      from += at;
    }
    this.pending += chunk.slice(from, from + GARBAGE_QUOTE_CHARS - this.pending.length);
  }
}

/** JSON.parse's complaint on one line: V8 quotes the bad text, newlines included, and reports list one error a line. */
export function notValidJson(error: unknown): string {
  const message = (error instanceof Error ? error.message : String(error)).replace(/\s+/g, " ").trim();
  return `not valid JSON: ${message.length > 200 ? `${message.slice(0, 200)}…` : message}`;
}

/** JSON.parse plus parseBattle for one split item; the error (if any) is ready for an import report. */
export function parseItem(item: SplitItem): ParsedItem {
  if (item.error !== undefined) return { line: item.line, error: item.error };
  let value: unknown;
  try {
    value = JSON.parse(item.text);
  } catch (error) {
    return { line: item.line, error: notValidJson(error) };
  }
  const parsed = parseBattle(value);
  return parsed.ok ? { line: item.line, battle: parsed.battle } : { line: item.line, error: parsed.error };
}
