/** One vendor call from arrival to last byte: record it, take its step, then hold, hang, delay, fail or answer. */
import type { ServerResponse } from "node:http";
import { chunkText, pause, sendJson, whenGone, writeFrames } from "./http";
import { defaultReview } from "./review";
import type { StubState } from "./state";
import type { JsonBody, RecordedCall, Step } from "./types";
import type { ParsedCall, Reply, Request, Vendor } from "./vendor";

/** Deliberately free of model names: tests assert that none reach review prompts. */
export const DEFAULT_ANSWER =
  "Here is a careful answer. The main point comes first, then the reasons behind it, and finally a short summary of what to do next.";

export const DEFAULT_TOKENS_IN = 42;

const DEFAULT_MODELS: Record<ParsedCall["protocol"], string[]> = {
  openai: ["gpt-stub-large", "gpt-stub-small"],
  compat: ["stub-llama:8b", "stub-qwen:7b"],
  anthropic: ["claude-stub-large"],
  google: ["gemini-stub-pro"],
};

export async function respond(state: StubState, vendor: Vendor, call: ParsedCall, req: Request, res: ServerResponse) {
  const step = state.nextStep(call.model, JSON.stringify(req.body));
  const recorded: RecordedCall = {
    protocol: call.protocol,
    kind: call.kind,
    method: req.method,
    path: req.url.pathname + req.url.search,
    body: req.body as JsonBody,
    authorization: credentialHeaders(req),
    opened: state.tick(),
    closed: null,
  };
  state.record(call.model, recorded);
  const gone = whenGone(res);
  const ended = state.began(call.model);
  void gone.then(() => {
    ended();
    recorded.closed = state.tick();
  });
  if (step.holdKey && !(await state.hold(step.holdKey, gone))) return;
  if (step.hang) return gone;
  if (!(await pause(step.delayMs ?? 0, gone))) return;

  if (step.status && step.errorAfterChunks === undefined) {
    return sendJson(res, step.status, vendor.error(step.status, step, call, req.credential), retryHeaders(step));
  }
  if (call.kind === "models") return sendJson(res, 200, vendor.models(step.models ?? DEFAULT_MODELS[call.protocol]));

  const reply = buildReply(call, step);
  if (!call.stream) {
    const body = JSON.stringify(vendor.json(call, reply));
    if (step.breakAfterChunks === undefined) return sendJson(res, 200, JSON.parse(body));
    res.writeHead(200, { "content-type": "application/json" });
    return void res.write(body.slice(0, body.length / 2), () => res.socket?.destroy());
  }
  const frames = {
    ...vendor.frames(call, reply, chunkText(reply.text)),
    error: vendor.streamError(step.status ?? defaultStreamStatus(call)),
  };
  const { chunkDelayMs = 0, breakAfterChunks, errorAfterChunks, endAfterChunks } = step;
  await writeFrames(res, frames, { chunkDelayMs, breakAfterChunks, errorAfterChunks, endAfterChunks }, gone);
}

function buildReply(call: ParsedCall, step: Step): Reply {
  const review = call.kind === "review" ? (step.review ?? defaultReview(call.schema)) : null;
  const text =
    call.kind === "review"
      ? typeof review === "string"
        ? review
        : JSON.stringify(review)
      : (step.text ?? DEFAULT_ANSWER);
  return {
    text,
    review,
    tokensIn: step.tokensIn ?? DEFAULT_TOKENS_IN,
    tokensOut: step.tokensOut ?? text.split(/\s+/).filter(Boolean).length,
    truncated: step.truncated ?? false,
    noUsage: step.noUsage ?? false,
  };
}

const defaultStreamStatus = (call: ParsedCall) =>
  call.protocol === "anthropic" ? 529 : call.protocol === "google" ? 503 : 500;

function retryHeaders(step: Step): Record<string, string> {
  const headers: Record<string, string> = {};
  if (step.retryAfter !== undefined) headers["retry-after"] = String(step.retryAfter);
  if (step.retryAfterMs !== undefined) headers["retry-after-ms"] = String(step.retryAfterMs);
  return headers;
}

function credentialHeaders(req: Request): Record<string, string> {
  const found: Record<string, string> = {};
  for (const name of ["authorization", "x-api-key", "x-goog-api-key"]) {
    const value = req.headers[name];
    if (typeof value === "string") found[name] = value;
  }
  return found;
}
