/**
 * /v1 speaks OpenAI's error shape, `{ error: { message, type, param, code } }`, because that is what its clients
 * parse. Every protection in front of it (access, config check, 405s, body cap, rate limits, spend) keeps answering
 * in the API's own shape; this middleware, first on /v1, turns any such answer into OpenAI's on the way out, so
 * there is one implementation of each refusal and two spellings of it.
 */
import { createMiddleware } from "hono/factory";

export interface OpenAiError {
  error: { message: string; type: string; param: string | null; code: string | null };
}

/** OpenAI's error `type` for a status (and, for 429, whether it is money rather than pace). */
function typeOf(status: number, code: string | null): string {
  if (status === 401) return "authentication_error";
  if (status === 403) return "permission_error";
  if (status === 404) return "not_found_error";
  if (status === 429) return code === "day_cap" ? "insufficient_quota" : "rate_limit_error";
  if (status === 501) return "not_implemented_error";
  if (status === 502 || status === 504) return "upstream_error";
  if (status >= 500) return "server_error";
  return "invalid_request_error";
}

interface ApiErrorBody {
  error?: { code?: unknown; message?: unknown; details?: { issues?: { path?: unknown }[]; param?: unknown } };
}

/** The request field an API error names: the first validation issue's path, or the `param` a route gave. */
function paramOf(details: NonNullable<ApiErrorBody["error"]>["details"]): string | null {
  const path = details?.issues?.[0]?.path ?? details?.param;
  return typeof path === "string" && path !== "" ? path : null;
}

export function openAiError(status: number, code: string | null, message: string, param: string | null = null) {
  return { error: { message, type: typeOf(status, code), param, code } } satisfies OpenAiError;
}

export const openAiErrors = createMiddleware(async (c, next) => {
  await next();
  const res = c.res;
  if (res.status < 400 || !res.headers.get("content-type")?.startsWith("application/json")) return;
  const body = (await res
    .clone()
    .json()
    .catch(() => ({}))) as ApiErrorBody;
  const code = typeof body.error?.code === "string" ? body.error.code : null;
  const message = typeof body.error?.message === "string" ? body.error.message : `HTTP ${res.status}`;
  c.res = new Response(JSON.stringify(openAiError(res.status, code, message, paramOf(body.error?.details))), {
    status: res.status,
    headers: { "content-type": "application/json" },
  });
});
