/**
 * The tests' provider stub (same wire protocols, same `respond`), run in the bench's own process with two
 * additions: a standing latency profile per model and call kind (answers stream, reviews don't), and the
 * moment each marked chunk was handed to the socket, so live latency can be measured end to end.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { anthropic } from "../../test/helpers/stub/anthropic";
import { google } from "../../test/helpers/stub/google";
import { readJson, sendJson } from "../../test/helpers/stub/http";
import { openai } from "../../test/helpers/stub/openai";
import { respond } from "../../test/helpers/stub/respond";
import { StubState } from "../../test/helpers/stub/state";
import type { RecordedCall, Step } from "../../test/helpers/stub/types";
import type { Request } from "../../test/helpers/stub/vendor";

const VENDORS = [anthropic, google, openai];

/** What every call of one model does, by kind; a function gives each call a step of its own. */
export interface Profile {
  answer: Step | (() => Step);
  review: Step | (() => Step);
}

/** Chunk markers: `mk<stream>n<index>z`, one per streamed chunk (see markedText). */
export const MARKER = /mk(\d+)n(\d+)z/g;

class BenchState extends StubState {
  readonly profiles = new Map<string, Profile>();
  readonly counts = new Map<string, number>();
  /** set synchronously before each `respond`, which takes its step before its first await */
  kind: "answer" | "review" | "models" = "answer";
  /** each request's kind, for the watch list */
  readonly lastKind = new WeakMap<IncomingMessage, "answer" | "review" | "models">();

  override nextStep(model: string): Step {
    const p = this.profiles.get(model) ?? this.profiles.get("*");
    if (!p || this.kind === "models") return super.nextStep(model);
    const step = this.kind === "review" ? p.review : p.answer;
    return typeof step === "function" ? step() : step;
  }

  // The tests' state keeps every request body; thousands of calls would only fill memory.
  override record(model: string, _call: RecordedCall): void {
    this.counts.set(model, (this.counts.get(model) ?? 0) + 1);
  }
}

export interface BenchStub {
  url: string;
  setProfile(model: string, profile: Profile): void;
  /** when the chunk carrying this marker was written to its socket (performance.now()) */
  sentAt(marker: string): number | undefined;
  calls(model: string): number;
  /** Notes every provider call from now until `stop()`: when its request arrived and its response ended. */
  watch(): { calls: WatchedCall[]; stop(): void };
  close(): Promise<void>;
}

export interface WatchedCall {
  kind: "answer" | "review" | "models";
  /** performance.now() when the request's head arrived, and when the last byte of the response was handed over */
  arrived: number;
  ended: number;
}

export async function startBenchStub(): Promise<BenchStub> {
  const state = new BenchState();
  const sent = new Map<string, number>();
  let watching: WatchedCall[] | null = null;
  const server = createServer({ noDelay: true }, (req, res) => {
    const arrived = performance.now();
    const watched = watching;
    if (watched)
      res.once("finish", () => {
        if (res.statusCode < 300)
          watched.push({ kind: state.lastKind.get(req) ?? "models", arrived, ended: performance.now() });
      });
    handle(state, sent, req, res).catch((err: unknown) => {
      if (!res.headersSent) sendJson(res, 500, { error: { message: `stub failure: ${String(err)}` } });
      else res.destroy();
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", resolve);
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    setProfile: (model, profile) => void state.profiles.set(model, profile),
    sentAt: (marker) => sent.get(marker),
    calls: (model) => state.counts.get(model) ?? 0,
    watch: () => {
      const calls: WatchedCall[] = [];
      watching = calls;
      const stop = () => {
        if (watching === calls) watching = null;
      };
      return { calls, stop };
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function handle(state: BenchState, sent: Map<string, number>, req: IncomingMessage, res: ServerResponse) {
  const url = new URL(req.url ?? "/", "http://stub");
  const method = req.method ?? "GET";
  const body = method === "GET" ? null : await readJson(req);
  stampMarkers(res, sent);
  const request: Request = {
    method,
    url,
    headers: req.headers,
    body,
    credential: String(req.headers.authorization ?? "").replace(/^Bearer\s+/i, ""),
  };
  for (const vendor of VENDORS) {
    const call = vendor.parse(request);
    if (!call) continue;
    state.kind = call.kind;
    state.lastKind.set(req, call.kind);
    return respond(state, vendor, call, request, res);
  }
  sendJson(res, 404, { error: { message: `the bench stub does not serve ${method} ${url.pathname}` } });
}

/** Notes the time each marker is handed to the socket (the moment "the provider sent the chunk"). */
function stampMarkers(res: ServerResponse, sent: Map<string, number>) {
  const write = res.write.bind(res) as (...args: unknown[]) => boolean;
  (res as unknown as { write: (...args: unknown[]) => boolean }).write = (...args: unknown[]) => {
    const chunk = args[0];
    const text = typeof chunk === "string" ? chunk : Buffer.isBuffer(chunk) ? chunk.toString("utf8") : "";
    const now = performance.now();
    for (const m of text.matchAll(MARKER)) if (!sent.has(m[0])) sent.set(m[0], now);
    return write(...args);
  };
}

let streams = 0;

/**
 * A text of `chunks` three-word pieces (the stub streams three words per chunk), each carrying a marker
 * unique to this stream and piece.
 */
export function markedText(chunks: number): string {
  const id = ++streams;
  return `${Array.from({ length: chunks }, (_, i) => `mk${id}n${i}z lorem ipsum`).join(" ")} `;
}

/** The markers in a piece of received text. */
export function markersIn(text: string): string[] {
  return [...text.matchAll(MARKER)].map((m) => m[0]);
}
