/** What each wire protocol must provide so one flow (steps, holds, errors, streaming) serves all of them. */
import type { IncomingHttpHeaders } from "node:http";
import type { Frames } from "./http";
import type { Step, StubCallKind, StubProtocol } from "./types";

export interface ParsedCall {
  protocol: StubProtocol;
  kind: StubCallKind;
  /** the name steps and calls are filed under */
  model: string;
  stream: boolean;
  /** the review schema the request carries, if any */
  schema: unknown;
  /** OpenAI's stream_options.include_usage */
  wantsUsage: boolean;
}

export interface Reply {
  /** the answer text, or the review as JSON text */
  text: string;
  /** the review value as scripted (object or raw string) — Anthropic sends it as tool input */
  review: unknown;
  tokensIn: number;
  tokensOut: number;
  truncated: boolean;
  noUsage: boolean;
}

export interface Request {
  method: string;
  url: URL;
  headers: IncomingHttpHeaders;
  body: unknown;
  /** the API key the client presented, if any */
  credential: string;
}

export interface Vendor {
  /** recognises a request in this vendor's protocol; null when it is not one */
  parse(req: Request): ParsedCall | null;
  error(status: number, step: Step, call: ParsedCall, credential: string): unknown;
  /** the in-stream error event for `status` */
  streamError(status: number): string;
  json(call: ParsedCall, reply: Reply): unknown;
  frames(call: ParsedCall, reply: Reply, chunks: string[]): Omit<Frames, "error">;
  models(names: string[]): unknown;
}

export const CREATED = 1_760_000_000;

export type JsonObject = Record<string, unknown>;
export const asObject = (v: unknown): JsonObject =>
  v && typeof v === "object" && !Array.isArray(v) ? (v as JsonObject) : {};
