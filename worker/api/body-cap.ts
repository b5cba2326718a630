/**
 * Request bodies: JSON only, and at most 1 MiB (the longest question is 50,000 characters). The battle
 * import and the prompt set upload read their own, larger bodies as they stream and set their own limits.
 */
import type { Context, Next } from "hono";
import { createMiddleware } from "hono/factory";
import { errorBody } from "./errors";

export const MAX_BODY_BYTES = 1024 * 1024;

/**
 * The routes that read their own bodies as they stream, in formats of their own, under limits of their own; by
 * method too, since another method's route may match the same path (`PUT /api/prompt-sets/:id` takes JSON).
 */
export const STREAMED_BODY_ROUTES: readonly { method: string; path: string }[] = [
  { method: "POST", path: "/api/battles/import" },
  { method: "POST", path: "/api/prompt-sets/upload" },
  { method: "PUT", path: "/api/prompt-sets/:id/upload" },
];
const streamed = STREAMED_BODY_ROUTES.map((r) => ({
  method: r.method,
  path: new RegExp(`^${r.path.replace(/:\w+/g, "[^/]+")}$`),
}));
const streamsItsBody = (method: string, path: string) => streamed.some((r) => r.method === method && r.path.test(path));

/** How much more of a body refused midway is read and dropped before the connection is given up. */
const DISCARD_MAX_BYTES = 256 * 1024 * 1024;

/**
 * Reads the rest of a body refused midway and drops it. A Worker that stops reading (or cancels) a body
 * its client is still sending has the connection reset under it, and clients such as Node's fetch then
 * report ECONNRESET instead of the 413; one far past any sensible size is cut off all the same.
 */
export async function discardRest(reader: ReadableStreamDefaultReader<Uint8Array>): Promise<void> {
  let bytes = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    bytes += value.byteLength;
    if (bytes > DISCARD_MAX_BYTES) return reader.cancel();
  }
}

const tooLarge = (c: Context) =>
  c.json(
    errorBody(
      "too_large",
      `The request body is larger than ${MAX_BODY_BYTES / 1024} KB. Send a shorter question, prompt or message.`,
    ),
    413,
  );

/** Hono's bodyLimit, but a streamed body refused midway is read to its end (see discardRest). */
async function limit(c: Context, next: Next) {
  const raw = c.req.raw;
  if (!raw.body) return next();
  if (raw.headers.has("Content-Length") && !raw.headers.has("Transfer-Encoding"))
    return Number(raw.headers.get("Content-Length")) > MAX_BODY_BYTES ? tooLarge(c) : next();
  const reader = raw.body.getReader();
  const parts: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_BODY_BYTES) {
      await discardRest(reader);
      return tooLarge(c);
    }
    parts.push(value);
  }
  const body = new Uint8Array(size);
  let at = 0;
  for (const part of parts) {
    body.set(part, at);
    at += part.byteLength;
  }
  c.req.raw = new Request(raw, { body });
  return next();
}

/** The media types Hono's validator parses as JSON; anything else (application/json-seq too) is a 415, never read as `{}`. */
const JSON_TYPE = /^application\/([\w.-]+\+)?json\s*(;|$)/i;

const hasBody = (req: Request) =>
  (req.headers.get("Content-Length") ?? "0") !== "0" || req.headers.has("Transfer-Encoding");

export const bodyCap = createMiddleware<{ Bindings: Env }>(async (c, next) => {
  if (streamsItsBody(c.req.method, c.req.path) || c.req.method === "GET" || c.req.method === "HEAD") return next();
  const type = c.req.header("Content-Type") ?? "";
  if (hasBody(c.req.raw) && !JSON_TYPE.test(type))
    return c.json(
      errorBody(
        "unsupported_media_type",
        `Send JSON with Content-Type: application/json (got ${type ? `"${type.slice(0, 80)}"` : "none"}).`,
      ),
      415,
    );
  return limit(c, next);
});
