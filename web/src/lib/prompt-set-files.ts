/** Sending a prompt set's file: as a new set, or as the new items of one. */
import { api, call } from "./api";

/** The format a file's name says, or undefined: the server then reads it from the file's first character. */
const formatOf = (file: File) =>
  /\.csv$/i.test(file.name) ? ("csv" as const) : /\.(jsonl|ndjson)$/i.test(file.name) ? ("jsonl" as const) : undefined;

const contentType = (file: File) => (formatOf(file) === "csv" ? "text/csv" : "application/x-ndjson");

export function uploadSet(name: string, file: File) {
  const format = formatOf(file);
  return call(
    api["prompt-sets"].upload.$post(
      { query: { name, ...(format ? { format } : {}) } },
      { init: { body: file }, headers: { "Content-Type": contentType(file) } },
    ),
  );
}

/** Replaces set `id`'s items with the file's (in place while unused, else as its next version). */
export function replaceSetItems(id: string, file: File) {
  const format = formatOf(file);
  return call(
    api["prompt-sets"][":id"].upload.$put(
      { param: { id }, query: format ? { format } : {} },
      { init: { body: file }, headers: { "Content-Type": contentType(file) } },
    ),
  );
}
