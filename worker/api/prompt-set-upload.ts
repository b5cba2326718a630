/**
 * A prompt set's upload body (JSON Lines or CSV), read as it streams: past the 1 MiB cap of JSON bodies
 * (body-cap.ts lets this route's body through) up to its own, MAX_PROMPT_SET_UPLOAD_BYTES. Every line is checked
 * before anything is stored; one bad line and the whole upload is refused, with the lines to fix.
 */
import { ItemCollector, type LineError, TooManyItems } from "../prompt-sets/collect";
import { CsvSyntaxError, itemReader } from "../prompt-sets/readers";
import { MAX_PROMPT_SET_UPLOAD_BYTES, type PromptSetFormat } from "../shared/constants";
import type { PromptSetItem } from "../shared/prompt-set";
import { discardRest } from "./body-cap";
import { ApiError } from "./errors";

const MIB = 1024 * 1024;

export const uploadTooLarge = () =>
  new ApiError(
    413,
    "too_large",
    `This upload is larger than ${MAX_PROMPT_SET_UPLOAD_BYTES / MIB} MiB, the most one prompt set upload takes. Split the file into sets of that size or less.`,
  );

/** The refusal of an upload with bad lines: the first in the message, the first few in details. */
export function badLines(errors: LineError[], count: number): ApiError {
  const [first] = errors;
  const stored = count > 1 ? `${count.toLocaleString("en")} lines are wrong, so nothing` : "Nothing";
  return new ApiError(
    422,
    "invalid_prompt_set",
    `line ${first.line}: ${first.message}. ${stored} was stored: fix the lines listed in details.errors and send the file again.`,
    { errors, rejected: count },
  );
}

const JSON_LINES_TYPES = new Set([
  "application/x-ndjson",
  "application/jsonl",
  "application/json-lines",
  "application/json",
]);

/** The format asked for in the query, else the one the Content-Type names, else null: the body shows which. */
export function uploadFormat(
  asked: PromptSetFormat | undefined,
  contentType: string | undefined,
): PromptSetFormat | null {
  if (asked) return asked;
  const type = contentType?.split(";")[0].trim().toLowerCase() ?? "";
  if (type === "text/csv") return "csv";
  return JSON_LINES_TYPES.has(type) ? "jsonl" : null;
}

/** Reads and checks the whole body; throws the refusal when anything in it is wrong, so nothing is stored then. */
export async function readUpload(
  body: ReadableStream<Uint8Array> | null,
  format: PromptSetFormat | null,
): Promise<PromptSetItem[]> {
  const out = new ItemCollector();
  const reader = itemReader(format, out);
  const decoder = new TextDecoder();
  try {
    if (body) {
      const stream = body.getReader();
      let bytes = 0;
      try {
        for (;;) {
          const { done, value } = await stream.read();
          if (done) break;
          bytes += value.byteLength;
          if (bytes > MAX_PROMPT_SET_UPLOAD_BYTES) throw uploadTooLarge();
          reader.push(decoder.decode(value, { stream: true }));
        }
      } catch (err) {
        // Refused midway: the rest is read and dropped, so the client, still sending, gets the answer, not a reset.
        await discardRest(stream);
        throw err;
      }
    }
    reader.push(decoder.decode());
    reader.end();
  } catch (err) {
    if (err instanceof TooManyItems) throw new ApiError(422, "too_many_items", `${err.message}; nothing was stored.`);
    // Nothing after broken CSV can be trusted to split right: that one line is what to fix first.
    if (err instanceof CsvSyntaxError)
      throw badLines([{ line: err.line, message: err.message.replace(/^line \d+: /, "") }], 1);
    throw err;
  }
  if (out.errorCount) throw badLines(out.errors, out.errorCount);
  if (!out.items.length)
    throw new ApiError(
      400,
      "empty_prompt_set",
      'The upload holds no items: send JSON Lines (one {"prompt": "…"} a line) or CSV with a header naming a prompt column and at least one row.',
    );
  return out.items;
}
