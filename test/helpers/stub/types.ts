/** Shapes shared by the provider stub (Node) and the helpers tests use to script it (workerd). */

export type StubProtocol = "openai" | "compat" | "anthropic" | "google";
export type StubCallKind = "answer" | "review" | "models";

/** What one call to a model does; every field is optional and an empty step is a normal answer. */
export interface Step {
  /** answer with this HTTP error status and the vendor's own error JSON */
  status?: number;
  /** replaces the vendor's default error message (e.g. to name an unsupported parameter) */
  errorMessage?: string;
  /** makes a 400 name this request field as unsupported, as the vendor would ("temperature", "max_tokens") */
  errorParam?: string;
  /** seconds, sent as `retry-after` */
  retryAfter?: number;
  /** milliseconds, sent as `retry-after-ms` */
  retryAfterMs?: number;
  /** Google only: RetryInfo.retryDelay in the error body ("30s"), which is how Gemini says when to retry */
  retryDelay?: string;
  /** accept the call and never answer until the client goes away */
  hang?: boolean;
  /** answer only after `POST /__stub/release {key}` */
  holdKey?: string;
  /** before the first byte */
  delayMs?: number;
  /** between streamed chunks */
  chunkDelayMs?: number;
  /** the answer text, streamed in several chunks */
  text?: string;
  /** the review output: an object is sent as JSON, a string exactly as given (so tests can send invalid output) */
  review?: unknown;
  /** destroy the socket after this many content chunks */
  breakAfterChunks?: number;
  /** end the response cleanly after this many content chunks, leaving out the vendor's closing events */
  endAfterChunks?: number;
  /** after this many content chunks, send the vendor's in-stream error event (status from `status`, else a server error) */
  errorAfterChunks?: number;
  /** stop as if the output limit was hit (length / max_tokens / MAX_TOKENS) */
  truncated?: boolean;
  /** leave usage out of the response, as some OpenAI-compatible servers do */
  noUsage?: boolean;
  tokensIn?: number;
  tokensOut?: number;
  /** for model-list calls: the model names to list */
  models?: string[];
}

/**
 * A parsed JSON request body, typed so a test can walk into it (`body.response_format.type`) and assert on
 * what it finds; the leaves are really strings, numbers, booleans or null.
 */
export interface JsonBody {
  readonly [key: string]: JsonBody;
}

export interface RecordedCall {
  protocol: StubProtocol;
  kind: StubCallKind;
  method: string;
  path: string;
  /** the parsed JSON request body (null for GET) */
  body: JsonBody;
  /** the credential headers as sent: authorization, x-api-key, x-goog-api-key */
  authorization: Record<string, string>;
  /**
   * when the call arrived and when its connection closed, as places in one order of every arrival and close the
   * stub saw (not times): calls overlap when one opened before the other closed. `closed` is null while it is open.
   */
  opened: number;
  closed: number | null;
}

/** Model-list calls carry no model name, so their steps and calls are filed under the API key used. */
export const modelsListName = (apiKey: string) => `models-list:${apiKey}`;
