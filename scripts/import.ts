// `npm run import -- FILE`: streams a Chatbot Arena battle log (JSON array or JSON Lines) or lmarena's Kaggle-style
// CSV of any size to a running Quorum in chunks, so neither side ever holds the whole file and a failed run can be
// resumed.
import { closeSync, createReadStream, openSync, readSync, statSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import { parseArgs } from "node:util";
import { CsvSplitter, CsvSyntaxError, csvRecordText, type CsvRecord } from "../worker/battles/csv-stream";
import { BattleSplitter, notValidJson, type SplitItem } from "../worker/battles/json-stream";
import { KaggleCsvReader } from "../worker/battles/kaggle-csv";
import { isKaggleHeader } from "../worker/battles/log-reader";

const USAGE = `Usage: npm run import -- FILE [options]

Imports FastChat clean battles (a JSON array, or JSON Lines), or lmarena's Kaggle-style CSV (known by its
header line), into Quorum as source "import".

Options:
  --url URL        the Quorum server (default http://127.0.0.1:8787)
  --chunk N        items per request, at most the server's QUORUM_IMPORT_MAX_LINES (default 5000)
  --token T        sent as "Authorization: Bearer T" (default: env QUORUM_TOKEN)
  --from N         skip the first N items (to resume a stopped import)
  --import-id ID   reuse the import id of a stopped run, so nothing is written twice
  --help           show this text

Items are numbered from 1 in file order; blank lines are not counted. A CSV's items are its rows after the
header; its structure is checked before anything is sent, so a broken CSV imports nothing.`;

const MAX_IN_FLIGHT = 2;
const MAX_ATTEMPTS = 5;
const REQUEST_TIMEOUT_MS = 120_000;
const MAX_WAIT_MS = 60_000;
const SHOWN_ERRORS = 10;
// Tests shorten the backoff; a person never needs to.
const RETRY_BASE_MS = Number(process.env.QUORUM_IMPORT_RETRY_MS ?? 500);

interface Options {
  file: string;
  url: string;
  chunk: number;
  token: string | null;
  from: number;
  importId: string;
}
interface ItemError {
  line: number;
  message: string;
}
interface Report {
  accepted: number;
  rejected: number;
  errors: ItemError[];
}

class Stop extends Error {}

function usageError(message: string): never {
  console.error(`${message}\n\n${USAGE}`);
  process.exit(2);
}

function count(value: string | undefined, flag: string, fallback: number, min: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n < min)
    usageError(`${flag} must be a whole number of at least ${min}; got "${value}"`);
  return n;
}

function parseCommandLine() {
  try {
    return parseArgs({
      allowPositionals: true,
      options: {
        url: { type: "string" },
        chunk: { type: "string" },
        token: { type: "string" },
        from: { type: "string" },
        "import-id": { type: "string" },
        help: { type: "boolean" },
      },
    });
  } catch (error) {
    return usageError(error instanceof Error ? error.message : String(error));
  }
}

function readOptions(): Options {
  const { values, positionals } = parseCommandLine();
  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  if (positionals.length !== 1)
    usageError(
      positionals.length === 0
        ? "Which file? Give the battle log to import."
        : `Give one file; got ${positionals.length}.`,
    );
  const url = (values.url ?? "http://127.0.0.1:8787").replace(/\/+$/, "");
  if (!/^https?:\/\/[^/]/.test(url)) usageError(`--url must start with http:// or https://; got "${url}"`);
  const importId = values["import-id"] ?? crypto.randomUUID();
  if (!/^[\w-]{1,100}$/.test(importId)) usageError(`--import-id must be letters, digits, - or _; got "${importId}"`);
  return {
    file: positionals[0],
    url,
    chunk: count(values.chunk, "--chunk", 5000, 1),
    token: values.token ?? process.env.QUORUM_TOKEN ?? null,
    from: count(values.from, "--from", 0, 0),
    importId,
  };
}

function asReport(body: unknown): Report | null {
  if (typeof body !== "object" || body === null) return null;
  const { accepted, rejected, errors } = body as Record<string, unknown>;
  if (typeof accepted !== "number" || typeof rejected !== "number") return null;
  const list = Array.isArray(errors) ? errors : [];
  return {
    accepted,
    rejected,
    errors: list.filter((e): e is ItemError => typeof e?.line === "number" && typeof e?.message === "string"),
  };
}

/** The server's error message and details, or the raw start of a body that isn't our error shape (a proxy's HTML page, say). */
async function serverError(res: Response): Promise<{ message: string; details: unknown }> {
  const text = await res.text().catch(() => "");
  try {
    const error: unknown = JSON.parse(text)?.error;
    if (typeof error === "object" && error !== null && typeof (error as { message?: unknown }).message === "string")
      return { message: (error as { message: string }).message, details: (error as { details?: unknown }).details };
  } catch {
    // not JSON: fall through
  }
  return { message: text.slice(0, 200).replace(/\s+/g, " ").trim() || res.statusText, details: undefined };
}

function retryAfterMs(header: string | null): number | null {
  if (header === null) return null;
  const ms = /^\d+$/.test(header.trim()) ? Number(header) * 1000 : Date.parse(header) - Date.now();
  return Number.isFinite(ms) ? Math.min(Math.max(ms, 0), MAX_WAIT_MS) : null;
}

function refusal(status: number, message: string, size: number): string {
  if (status === 413) return `${message} — try a smaller --chunk, e.g. --chunk ${Math.max(1, Math.floor(size / 2))}`;
  if (status === 401 || status === 403) return `${message} — pass --token or set QUORUM_TOKEN`;
  return message;
}

const fmt = (n: number) => Math.round(n).toLocaleString("en-US");
const range = (offset: number, size: number) => `items ${fmt(offset + 1)}–${fmt(offset + size)}`;

const opts = readOptions();
const tty = process.stderr.isTTY === true;
const interrupt = new AbortController();
process.once("SIGINT", () => interrupt.abort());

function note(message: string): void {
  process.stderr.write(`${tty ? "\r\x1b[K" : ""}${message}\n`);
}

/** POSTs one chunk, retrying network errors, 429 and 5xx with exponential backoff; throws Stop when it gives up. */
async function postChunk(offset: number, lines: string[]): Promise<Report> {
  const headers: Record<string, string> = { "content-type": csvHeader === null ? "application/x-ndjson" : "text/csv" };
  if (opts.token !== null) headers.authorization = `Bearer ${opts.token}`;
  const target = `${opts.url}/api/battles/import?importId=${encodeURIComponent(opts.importId)}&offset=${offset}`;
  // Each CSV chunk carries the header, so the server reads it like a whole file whose rows start after `offset`.
  const body = `${csvHeader === null ? "" : `${csvHeader}\n`}${lines.join("\n")}\n`;
  for (let attempt = 1; ; attempt++) {
    let why: string;
    let wait = Math.min(RETRY_BASE_MS * 2 ** (attempt - 1), MAX_WAIT_MS);
    try {
      const res = await fetch(target, {
        method: "POST",
        headers,
        body,
        signal: AbortSignal.any([interrupt.signal, AbortSignal.timeout(REQUEST_TIMEOUT_MS)]),
      });
      if (res.ok) {
        const report = asReport(await res.json().catch(() => null));
        if (report === null)
          throw new Stop(
            `the server's answer to ${range(offset, lines.length)} is not an import report — is ${opts.url} a Quorum server?`,
          );
        return report;
      }
      const { message, details } = await serverError(res);
      // A chunk none of whose lines is a battle (422) is rejected whole, with the same report: the import goes on.
      const rejectedWhole = res.status === 422 ? asReport(details) : null;
      if (rejectedWhole) return rejectedWhole;
      if (res.status !== 429 && res.status < 500)
        throw new Stop(
          `the server refused ${range(offset, lines.length)} (HTTP ${res.status}): ${refusal(res.status, message, lines.length)}`,
        );
      why = `HTTP ${res.status}: ${message}`;
      wait = retryAfterMs(res.headers.get("retry-after")) ?? wait;
    } catch (error) {
      if (error instanceof Stop) throw error;
      if (interrupt.signal.aborted) throw new Stop("interrupted");
      why =
        error instanceof Error
          ? `${error.message}${error.cause instanceof Error ? ` (${error.cause.message})` : ""}`
          : String(error);
    }
    if (attempt === MAX_ATTEMPTS)
      throw new Stop(`gave up on ${range(offset, lines.length)} after ${MAX_ATTEMPTS} attempts; last: ${why}`);
    note(
      `retrying ${range(offset, lines.length)} in ${(wait / 1000).toFixed(1)} s (attempt ${attempt + 1} of ${MAX_ATTEMPTS}; ${why})`,
    );
    await sleep(wait, undefined, { signal: interrupt.signal }).catch(() => undefined);
    if (interrupt.signal.aborted) throw new Stop("interrupted");
  }
}

const started = performance.now();
const fileSize = (() => {
  try {
    return statSync(opts.file).size;
  } catch (error) {
    return usageError(`Cannot read ${opts.file}: ${error instanceof Error ? error.message : String(error)}`);
  }
})();
const readFile = () => createReadStream(opts.file, { encoding: "utf8", highWaterMark: 256 * 1024 });

/** The file's first line (up to 64 KB of it), which tells lmarena's CSV from a clean-battle log. */
function firstLine(): string {
  const fd = openSync(opts.file, "r");
  try {
    const buffer = Buffer.alloc(64 * 1024);
    const text = buffer.subarray(0, readSync(fd, buffer, 0, buffer.length, 0)).toString("utf8");
    return text.split("\n", 1)[0];
  } finally {
    closeSync(fd);
  }
}

/** The CSV's header as sent with every chunk; null for a clean-battle log. */
let csvHeader: string | null = null;
const csv = isKaggleHeader(firstLine());

/** Reads the whole CSV once before sending any of it: broken structure stops the import with nothing written. */
async function checkCsv(): Promise<void> {
  const reader = new KaggleCsvReader(0);
  try {
    for await (const text of readFile() as AsyncIterable<string>) reader.push(text);
    reader.end();
  } catch (error) {
    if (!(error instanceof CsvSyntaxError)) throw error;
    console.error(
      `${opts.file} is not well-formed CSV at ${error.message}. Nothing was imported; fix that line and run the import again.`,
    );
    process.exit(1);
  }
}

/** The CSV's rows after the header as items numbered from 1, each re-written as one CSV record. */
function csvItems() {
  const splitter = new CsvSplitter();
  let row = 0;
  const items = (records: CsvRecord[]): SplitItem[] =>
    records.flatMap((r) => {
      if (csvHeader === null) {
        csvHeader = csvRecordText(r.fields);
        return [];
      }
      return [{ line: ++row, text: csvRecordText(r.fields) }];
    });
  return { push: (text: string) => items(splitter.push(text)), end: () => items(splitter.end()) };
}

if (csv) await checkCsv();
const stream = readFile();
const totals = { sent: 0, accepted: 0, rejected: 0, done: 0, chunks: 0 };
const firstErrors: ItemError[] = [];
const failedOffsets: number[] = [];
const inFlight = new Set<Promise<void>>();
let stopReason: string | null = null;
let handledThrough = opts.from; // items before this number are sent, skipped or rejected here
let batch: string[] = [];
let batchOffset = 0;

function keepError(error: ItemError): void {
  firstErrors.push(error);
  firstErrors.sort((a, b) => a.line - b.line);
  if (firstErrors.length > SHOWN_ERRORS) firstErrors.pop();
}

function progressLine(): string {
  const rate = totals.done / ((performance.now() - started) / 1000);
  const share = fileSize === 0 ? 1 : Math.min(1, stream.bytesRead / fileSize);
  const bar = tty ? `[${"#".repeat(Math.round(share * 20)).padEnd(20, ".")}] ` : "";
  return `${bar}${Math.floor(share * 100)}% · sent ${fmt(totals.sent)} · accepted ${fmt(totals.accepted)} · rejected ${fmt(totals.rejected)} · ${fmt(rate)} items/s`;
}

function dispatch(): void {
  const lines = batch;
  const offset = batchOffset;
  batch = [];
  totals.sent += lines.length;
  handledThrough = offset + lines.length;
  const task = postChunk(offset, lines).then(
    (report) => {
      totals.accepted += report.accepted;
      totals.rejected += report.rejected;
      totals.done += lines.length;
      report.errors.forEach(keepError);
      if (++totals.chunks % 10 === 0 && !tty) note(`import: ${fmt(totals.chunks)} chunks, ${progressLine()}`);
    },
    (error: unknown) => {
      failedOffsets.push(offset);
      stopReason ??= error instanceof Error ? error.message : String(error);
    },
  );
  const tracked = task.finally(() => inFlight.delete(tracked));
  inFlight.add(tracked);
}

/** Sends the pending batch once a slot is free, keeping at most MAX_IN_FLIGHT chunks on the wire. */
async function flush(): Promise<void> {
  while (inFlight.size >= MAX_IN_FLIGHT) await Promise.race(inFlight);
  if (batch.length > 0 && stopReason === null) dispatch();
}

function localError(line: number, message: string): void {
  totals.rejected++;
  totals.done++;
  handledThrough = line;
  keepError({ line, message });
}

/** Each chunk's items must be numbered offset+1… on the server, so an item rejected here ends the chunk before it. */
async function take(item: SplitItem): Promise<void> {
  if (item.line <= opts.from) return;
  let text = item.text;
  if (!csv && item.error === undefined && text.includes("\n")) {
    // The splitter folds whitespace between tokens, so a newline left here sits inside a string (not JSON) and
    // would break the chunk's lines; JSON.parse names the problem, and re-serialising covers any other case.
    try {
      text = JSON.stringify(JSON.parse(text));
    } catch (error) {
      item = { ...item, error: notValidJson(error) };
    }
  }
  if (item.error !== undefined) {
    if (batch.length > 0) await flush();
    localError(item.line, item.error);
    return;
  }
  if (batch.length === 0) batchOffset = item.line - 1;
  batch.push(text);
  if (batch.length >= opts.chunk) await flush();
}

const ticker = tty ? setInterval(() => process.stderr.write(`\r\x1b[K${progressLine()}`), 250) : null;
const splitter = csv ? csvItems() : new BattleSplitter();
try {
  for await (const text of stream as AsyncIterable<string>) {
    for (const item of splitter.push(text)) if (stopReason === null) await take(item);
    if (stopReason !== null || interrupt.signal.aborted) break;
  }
  for (const item of splitter.end()) if (stopReason === null) await take(item);
  if (stopReason === null) await flush();
} catch (error) {
  stopReason ??= `cannot read ${opts.file}: ${error instanceof Error ? error.message : String(error)}`;
}
stream.destroy();
await Promise.all(inFlight);
if (interrupt.signal.aborted) stopReason ??= "interrupted";
if (ticker !== null) clearInterval(ticker);
if (tty) process.stderr.write("\r\x1b[K");

const seconds = (performance.now() - started) / 1000;
const resumeFrom = Math.min(handledThrough, ...failedOffsets);
const summary = [
  `${stopReason === null ? "Imported" : "Stopped importing"} ${opts.file} as import ${opts.importId}`,
  `  accepted  ${fmt(totals.accepted)}`,
  `  rejected  ${fmt(totals.rejected)}`,
  ...(opts.from > 0 ? [`  skipped   ${fmt(opts.from)} (--from)`] : []),
  ...(firstErrors.length > 0 ? [`  first errors:`, ...firstErrors.map((e) => `    item ${e.line}: ${e.message}`)] : []),
  `  elapsed   ${seconds.toFixed(1)} s, ${fmt(totals.done / seconds)} items/s`,
];
console.log(summary.join("\n"));
if (stopReason !== null) {
  const same = `${opts.url === "http://127.0.0.1:8787" ? "" : ` --url ${opts.url}`}${opts.chunk === 5000 ? "" : ` --chunk ${opts.chunk}`}`;
  const file = /[\s"'$\\]/.test(opts.file) ? `'${opts.file.replaceAll("'", "'\\''")}'` : opts.file;
  const done = resumeFrom === 0 ? "No item is done yet." : `Items 1–${fmt(resumeFrom)} are done.`;
  console.error(`Stopped: ${stopReason}.
${done} To resume without writing anything twice:
  npm run import -- ${file}${same} --from ${resumeFrom} --import-id ${opts.importId}`);
} else if (totals.accepted === 0) console.error("Nothing was accepted.");
process.exit(stopReason === null && totals.accepted > 0 ? 0 : 1);
