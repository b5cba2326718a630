/** The one error shape of the API: `{ error: { code, message, details? } }`. */
import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { HTTPException } from "hono/http-exception";
import { logError } from "../rooms/log";
import { ConfigInvalid } from "../shared/config";

export class ApiError extends Error {
  constructor(
    readonly status: ContentfulStatusCode,
    readonly code: string,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
  }
}

export const notFound = (what: string) => new ApiError(404, "not_found", `${what} not found.`);

export function errorBody(code: string, message: string, details?: unknown) {
  return { error: details === undefined ? { code, message } : { code, message, details } };
}

/**
 * Storage that failed, most often because the disk is full. D1 and Durable Object storage name SQLITE_FULL
 * where the error reaches the Worker as it is; workerd (so `wrangler dev`) hides it, as it hides any failure
 * of its own, behind "internal error; reference = …" and prints the cause (SQLITE_FULL) in its output.
 */
function storageFailure(err: Error): { full: true } | { full: false; reference: string } | null {
  for (let e: unknown = err, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    if (/SQLITE_FULL|database or disk is full/i.test(e.message)) return { full: true };
    const hidden = /^internal error; reference = (\w+)/.exec(e.message);
    if (hidden) return { full: false, reference: hidden[1]! };
  }
  return null;
}

const STORAGE_FULL =
  "The server's disk is full (its database answered SQLITE_FULL), so this could not be done. Free some space on the disk that holds the Worker's state (.wrangler/state under `npm start`), or delete old runs and comparisons, then try again.";

const runtimeFailure = (reference: string) =>
  `The server's storage failed (runtime error reference ${reference}), which under \`npm start\` almost always means the disk is full: wrangler's output then shows SQLITE_FULL. Free some space on the disk that holds .wrangler/state, then try again; if the disk isn't full, wrangler's output names what failed.`;

export function onError(err: Error, c: Context) {
  if (err instanceof ApiError) return c.json(errorBody(err.code, err.message, err.details), err.status);
  if (err instanceof ConfigInvalid)
    return c.json(errorBody("config_invalid", err.message, { problems: err.problems }), 503);
  if (err instanceof HTTPException) {
    const status = err.status as ContentfulStatusCode;
    return c.json(errorBody(status === 400 ? "bad_request" : "http_error", err.message || "Bad request."), status);
  }
  logError("unhandled error", err);
  const storage = storageFailure(err);
  if (storage)
    return c.json(
      storage.full
        ? errorBody("storage_full", STORAGE_FULL)
        : errorBody("storage_unavailable", runtimeFailure(storage.reference)),
      503,
    );
  return c.json(
    errorBody(
      "internal",
      "Something went wrong on the server. Try again; if it keeps happening, check the wrangler output.",
    ),
    500,
  );
}
