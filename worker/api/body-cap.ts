/**
 * Request bodies: JSON only, and at most 1 MiB (the longest question is 50,000 characters). The battle
 * import reads its own, larger body as it streams and sets its own limit.
 */
import { bodyLimit } from "hono/body-limit";
import { createMiddleware } from "hono/factory";
import { errorBody } from "./errors";

export const MAX_BODY_BYTES = 1024 * 1024;

const limit = bodyLimit({
  maxSize: MAX_BODY_BYTES,
  onError: (c) => c.json(errorBody("too_large", `The request body is larger than ${MAX_BODY_BYTES / 1024} KB. Send a shorter question, prompt or message.`), 413),
});

/** The media types Hono's validator parses as JSON; anything else (application/json-seq too) is a 415, never read as `{}`. */
const JSON_TYPE = /^application\/([\w.-]+\+)?json\s*(;|$)/i;

const hasBody = (req: Request) => (req.headers.get("Content-Length") ?? "0") !== "0" || req.headers.has("Transfer-Encoding");

export const bodyCap = createMiddleware<{ Bindings: Env }>(async (c, next) => {
  if (c.req.path === "/api/battles/import" || c.req.method === "GET" || c.req.method === "HEAD") return next();
  const type = c.req.header("Content-Type") ?? "";
  if (hasBody(c.req.raw) && !JSON_TYPE.test(type))
    return c.json(errorBody("unsupported_media_type", `Send JSON with Content-Type: application/json (got ${type ? `"${type.slice(0, 80)}"` : "none"}).`), 415);
  return limit(c, next);
});
