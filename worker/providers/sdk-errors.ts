/** Turns whatever an SDK throws into a ProviderError the room can act on, with a message a person can act on. */
import Anthropic from "@anthropic-ai/sdk";
import { ApiError as GoogleApiError } from "@google/genai";
import OpenAI from "openai";
import { ProviderError, type ProviderErrorKind } from "./types";

/** Who we were talking to, so messages can say which setting to fix. */
export interface VendorContext {
  /** as a person would name it mid-sentence: "OpenAI", "Anthropic", "Google", "the OpenAI-compatible server" */
  vendor: string;
  /** the .dev.vars variable holding the key */
  keyVar: string;
  /** the .dev.vars variable holding the base URL */
  baseUrlVar: string;
  /** the configured key, scrubbed from every message */
  apiKey?: string;
  model?: string;
  signal?: AbortSignal;
  /** headers of the last response, for SDKs whose errors don't carry them (@google/genai) */
  responseHeaders?: Headers | null;
}

interface Facts {
  status: number | null;
  /** the vendor's own explanation, or the transport's */
  detail: string;
  headers: Headers | null;
  /** vendor error type or code: "server_error", "overloaded_error", "UNAVAILABLE", "unsupported_parameter" … */
  type: string | null;
  /** the request field a 400 names (OpenAI's `param`) */
  param: string | null;
  /** Google's RetryInfo.retryDelay, in ms */
  retryDelayMs: number | null;
}

const TOKEN_FIELDS = /\b(max_tokens|max_completion_tokens|max_output_tokens|maxOutputTokens|max_new_tokens)\b/;
const UNSUPPORTED =
  /unsupported|not supported|does not support|isn't supported|deprecated|not allowed|not permitted|extra inputs|unknown (name|parameter|field)|unrecognized/i;

/** Maps an SDK, fetch or stream error to a ProviderError; never lets the configured key through. */
export function toProviderError(err: unknown, ctx: VendorContext): ProviderError {
  const e = classify(err, ctx);
  return new ProviderError(e.kind, scrub(e.message, ctx.apiKey), {
    status: e.status ?? null,
    retryAfterMs: e.retryAfterMs ?? null,
    param: e.param ?? null,
  });
}

/** Removes the key (and any bearer token) from text meant for people, as a last line of defence. */
export function scrub(text: string, apiKey?: string): string {
  let out = text.replace(/Bearer\s+[\w.~+/=-]+/gi, "Bearer [redacted]");
  if (apiKey && apiKey.length >= 4) out = out.split(apiKey).join("[redacted]");
  return out;
}

/** The error for a stream that stopped before the vendor said it was finished; the deltas sent so far stand. */
export function brokenStream(ctx: VendorContext, detail?: string): ProviderError {
  const why = detail ? ` (${short(detail)})` : "";
  return new ProviderError(
    "network",
    scrub(`The stream from ${ctx.vendor} broke off before the answer was complete${why}. Try again.`, ctx.apiKey),
  );
}

/** Like toProviderError, but a connection lost after some text arrived is reported as a broken stream. */
export function streamError(err: unknown, ctx: VendorContext, receivedText: boolean): ProviderError {
  const mapped = toProviderError(err, ctx);
  if (mapped.kind !== "network" || !receivedText) return mapped;
  return brokenStream(ctx, err instanceof Error ? err.message : String(err));
}

interface Classified {
  kind: ProviderErrorKind;
  message: string;
  status?: number | null;
  retryAfterMs?: number | null;
  param?: "temperature" | "maxTokens" | null;
}

function classify(err: unknown, ctx: VendorContext): Classified {
  if (ctx.signal?.aborted) return aborted(ctx);
  if (err instanceof ProviderError) return err;
  if (err instanceof OpenAI.APIUserAbortError || err instanceof Anthropic.APIUserAbortError || isAbortError(err))
    return aborted(ctx);
  if (err instanceof OpenAI.APIConnectionTimeoutError || err instanceof Anthropic.APIConnectionTimeoutError) {
    return {
      kind: "timeout",
      message: `${cap(ctx.vendor)} did not answer in time. Try again, or check ${ctx.baseUrlVar}.`,
    };
  }
  const facts = readFacts(err, ctx);
  if (facts === null) {
    const detail = err instanceof Error ? err.message : String(err);
    const message = `Lost the connection to ${ctx.vendor} (${short(detail)}). Check the network and ${ctx.baseUrlVar}, then try again.`;
    return { kind: "network", message };
  }
  return byStatus(facts, ctx);
}

function aborted(ctx: VendorContext): Classified {
  const reason: unknown = ctx.signal?.reason;
  if (asRecord(reason).name === "TimeoutError") {
    return { kind: "timeout", message: `${cap(ctx.vendor)} did not finish in time; the call was stopped.` };
  }
  return { kind: "aborted", message: `The call to ${ctx.vendor} was cancelled.` };
}

function byStatus(f: Facts, ctx: VendorContext): Classified {
  const { status } = f;
  const shown = status === null ? "" : ` (${status})`;
  const said = f.detail ? ` ${cap(ctx.vendor)} said: "${short(f.detail)}"` : "";
  const model = ctx.model ? ` model "${ctx.model}"` : "";
  if (status === 429 || f.type === "rate_limit_error" || f.type === "RESOURCE_EXHAUSTED") {
    const retryAfterMs = retryAfter(f.headers ?? ctx.responseHeaders ?? null) ?? f.retryDelayMs;
    const when = retryAfterMs === null ? "wait a little" : `wait ${Math.ceil(retryAfterMs / 1000)} s`;
    const message = `${cap(ctx.vendor)} is rate-limiting requests${shown}; ${when} and try again, or lower the run's concurrency.`;
    return { kind: "rate_limit", status, retryAfterMs, message };
  }
  // Gemini answers a bad key with 400 API_KEY_INVALID rather than 401.
  if (status === 401 || status === 403 || (status === 400 && /API_KEY_INVALID|API key not valid/i.test(f.detail))) {
    const what =
      status === 403 ? "refused the API key (403); it may lack access to this model" : `rejected the API key${shown}`;
    return {
      kind: "auth",
      status,
      message: `${cap(ctx.vendor)} ${what}. Check ${ctx.keyVar} in .dev.vars, or the Worker secret when deployed.`,
    };
  }
  if (status === 404) {
    const message = `${cap(ctx.vendor)} does not know${model || " this endpoint"}${shown}. Check the model name and ${ctx.baseUrlVar}.${said}`;
    return { kind: "not_found", status, message };
  }
  if (status !== null && status >= 400 && status < 500 && status !== 408) {
    const param = unsupportedParam(f);
    if (param) {
      const field = param === "maxTokens" ? "a token limit (maxTokens)" : "temperature";
      const message = `${cap(ctx.vendor)} does not accept ${field} for${model || " this model"}${shown}; leave it unset for this model.${said}`;
      return { kind: "unsupported_param", status, param, message };
    }
    return { kind: "bad_request", status, message: `${cap(ctx.vendor)} rejected the request${shown}.${said}` };
  }
  // 5xx, 529, 408 and errors sent inside a stream (no status) are the vendor's trouble, worth another try.
  const what = status === 529 || f.type === "overloaded_error" ? "is overloaded" : "had a server error";
  return { kind: "server", status, message: `${cap(ctx.vendor)} ${what}${shown}; try again in a moment.${said}` };
}

function unsupportedParam(f: Facts): "temperature" | "maxTokens" | null {
  const named = f.param ?? "";
  const text = `${named} ${f.detail}`;
  const flagged = /unsupported_(parameter|value)/.test(f.type ?? "") || UNSUPPORTED.test(f.detail);
  if (!flagged && !named) return null;
  if (/\btemperature\b/.test(text)) return "temperature";
  if (TOKEN_FIELDS.test(text)) return "maxTokens";
  return null;
}

/** `retry-after-ms`, else `retry-after` as seconds or an HTTP date. */
export function retryAfter(headers: Headers | null): number | null {
  if (!headers) return null;
  const ms = Number.parseFloat(headers.get("retry-after-ms") ?? "");
  if (Number.isFinite(ms) && ms >= 0) return Math.round(ms);
  const value = headers.get("retry-after");
  if (!value) return null;
  const seconds = Number(value);
  if (value.trim() !== "" && Number.isFinite(seconds)) return seconds >= 0 ? Math.round(seconds * 1000) : null;
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, date - Date.now());
}

/** Status, headers and the vendor's words from each SDK's error class; null for transport failures. */
function readFacts(err: unknown, ctx: VendorContext): Facts | null {
  if (err instanceof OpenAI.APIError && !(err instanceof OpenAI.APIConnectionError)) {
    const body = asRecord(err.error);
    return {
      status: err.status ?? null,
      detail: String(body.message ?? err.message),
      headers: err.headers ?? null,
      type: err.code ?? err.type ?? null,
      param: err.param ?? null,
      retryDelayMs: null,
    };
  }
  if (err instanceof Anthropic.APIError && !(err instanceof Anthropic.APIConnectionError)) {
    return {
      status: err.status ?? null,
      detail: err.apiMessage ?? err.message,
      headers: err.headers ?? null,
      type: err.type ?? null,
      param: null,
      retryDelayMs: null,
    };
  }
  if (err instanceof GoogleApiError) {
    const body = asRecord(asRecord(parseJsonIn(err.message)).error);
    return {
      status: err.status,
      detail: String(body.message ?? err.message),
      headers: ctx.responseHeaders ?? null,
      type: typeof body.status === "string" ? body.status : null,
      param: null,
      retryDelayMs: googleRetryDelay(body.details),
    };
  }
  return null;
}

/** Google puts RetryInfo ({ retryDelay: "30s" }) in the error's details. */
function googleRetryDelay(details: unknown): number | null {
  if (!Array.isArray(details)) return null;
  for (const d of details) {
    const delay = asRecord(d).retryDelay;
    const match = typeof delay === "string" ? /^([\d.]+)s$/.exec(delay) : null;
    if (match) return Math.round(Number(match[1]) * 1000);
  }
  return null;
}

function parseJsonIn(text: string): unknown {
  const start = text.indexOf("{");
  if (start < 0) return null;
  try {
    return JSON.parse(text.slice(start));
  } catch {
    return null;
  }
}

const asRecord = (v: unknown): Record<string, unknown> =>
  v && typeof v === "object" ? (v as Record<string, unknown>) : {};

// DOMException is not an Error subclass everywhere, so look at the name only.
const isAbortError = (err: unknown) => {
  const name = asRecord(err).name;
  return name === "AbortError" || name === "TimeoutError";
};

const cap = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

const short = (text: string) => {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > 300 ? `${line.slice(0, 297)}…` : line;
};
