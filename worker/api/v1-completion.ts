/**
 * One chat completion on /v1: the conversation in Quorum's terms, the call through the rooms' own streamed reply
 * (rooms/reply.ts: adapter, deadline, retries, dropped parameters), and the answer in OpenAI's shapes, streamed
 * as server-sent events or whole. Its cost is kept as a `v1` spend entry and its hold settled when it ends.
 */
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { ASSUMED_MAX_TOKENS, priceCalls, tokensOf, type RunEstimate } from "../council/estimate";
import { openDb } from "../db/queries";
import { settleCall } from "../db/spend-queries";
import type { ChatMessage, ProviderErrorKind } from "../providers/types";
import { logCall } from "../rooms/log";
import { type Reply, streamReply } from "../rooms/reply";
import { settings } from "../shared/config";
import type { ChatCompletionInput } from "../shared/requests";
import { ApiError } from "./errors";
import { openAiError } from "./v1-errors";
import { recordV1Thread } from "./v1-thread";

export interface CompletionCall {
  /** `chatcmpl-…`: the response's id, and the item its hold and spend entry name */
  id: string;
  modelId: string;
  system?: string;
  messages: ChatMessage[];
  temperature?: number;
  maxTokens?: number;
  /** the money set aside for it under a spend cap (api/spend.ts), settled when it ends; null without a cap */
  holdId: string | null;
}

type Part = { type: string; text?: string };
const textOf = (content: string | Part[] | null | undefined) =>
  typeof content === "string" ? content : (content ?? []).map((p) => p.text ?? "").join("");

/** System and developer messages become the system prompt (in order); the rest the conversation. */
export function conversationOf(input: ChatCompletionInput): { system?: string; messages: ChatMessage[] } {
  const system: string[] = [];
  const messages: ChatMessage[] = [];
  for (const m of input.messages) {
    const text = textOf(m.content);
    if (m.role === "system" || m.role === "developer") system.push(text);
    else if (m.role === "user" || m.role === "assistant") messages.push({ role: m.role, content: text });
  }
  if (!messages.some((m) => m.role === "user"))
    throw new ApiError(400, "invalid_request", "messages needs at least one user message.", { param: "messages" });
  return { system: system.length ? system.join("\n\n") : undefined, messages };
}

/** The most the call could cost: every message read, and the whole output allowance written. */
export function estimateCall(env: Env, call: Omit<CompletionCall, "holdId" | "id">): RunEstimate {
  const { charge, total } = priceCalls(env);
  const read = call.messages.reduce((n, m) => n + tokensOf(m.content), tokensOf(call.system ?? ""));
  charge(call.modelId, read, call.maxTokens ?? ASSUMED_MAX_TOKENS);
  return total();
}

/** How a provider's failure reaches the client: its status, and a code that says whose fault it was. */
const FAILURES: Record<ProviderErrorKind | "unknown", [ContentfulStatusCode, string]> = {
  rate_limit: [429, "upstream_rate_limited"],
  server: [502, "upstream_error"],
  network: [502, "upstream_unreachable"],
  timeout: [504, "upstream_timeout"],
  auth: [502, "upstream_auth"],
  not_found: [404, "model_not_found"],
  bad_request: [400, "upstream_bad_request"],
  unsupported_param: [400, "upstream_bad_request"],
  aborted: [502, "aborted"],
  empty: [502, "empty_reply"],
  unknown: [502, "upstream_error"],
};

type Failed = Extract<Reply, { ok: false }>;
const failureOf = (reply: Failed) => FAILURES[reply.kind ?? "unknown"];

/** A failure before anything was sent: an HTTP error like any other (the adapters' messages never hold a key). */
const failure = (reply: Failed) => {
  const [status, code] = failureOf(reply);
  return new ApiError(status, code, `The model's provider failed: ${reply.error}`);
};

type Usage = { prompt_tokens: number; completion_tokens: number; total_tokens: number };
const usageOf = (reply: Extract<Reply, { ok: true }>): Usage => {
  const [input, output] = [reply.generation.tokensIn ?? 0, reply.generation.tokensOut ?? 0];
  return { prompt_tokens: input, completion_tokens: output, total_tokens: input + output };
};
const finishOf = (reply: Extract<Reply, { ok: true }>) => (reply.generation.truncated ? "length" : "stop");

/** Keeps what the call cost and settles its hold: the spend page's `endpoint` feature. */
async function settle(env: Env, call: CompletionCall, reply: Reply): Promise<void> {
  logCall(env, {
    run: call.id,
    step: "v1",
    model: call.modelId,
    status: reply.ok ? "done" : "failed",
    latencyMs: reply.latencyMs,
    attempts: reply.attempts,
    error: reply.ok ? null : reply.error,
  });
  const entry = reply.ok
    ? {
        kind: "v1" as const,
        itemId: call.id,
        modelId: call.modelId,
        tokensIn: reply.generation.tokensIn,
        tokensOut: reply.generation.tokensOut,
        costUsd: reply.costUsd,
        completedAt: Date.now(),
      }
    : null;
  await Promise.all([settleCall(openDb(env.DB), call.holdId, entry), recordV1Thread(env, call, reply)]);
}

function run(env: Env, call: CompletionCall, cancel: AbortSignal, hooks: Parameters<typeof streamReply>[2]) {
  const { arena, retry } = settings(env);
  return streamReply(
    { env, cancel, policy: { ...retry, maxDelayMs: 30_000 }, timeoutMs: arena.timeoutMs },
    {
      modelId: call.modelId,
      messages: call.messages,
      system: call.system,
      temperature: call.temperature,
      maxTokens: call.maxTokens,
    },
    hooks,
  );
}

const created = () => Math.floor(Date.now() / 1000);

/** The whole answer as one `chat.completion`; a failed call is an HTTP error. */
export async function wholeCompletion(env: Env, call: CompletionCall, waitUntil: (p: Promise<unknown>) => void) {
  const reply = await run(env, call, new AbortController().signal, { onAttempt() {}, onDelta() {} });
  waitUntil(settle(env, call, reply));
  if (!reply.ok) throw failure(reply);
  return {
    id: call.id,
    object: "chat.completion" as const,
    created: created(),
    model: call.modelId,
    choices: [
      {
        index: 0,
        message: { role: "assistant" as const, content: reply.generation.text, refusal: null },
        finish_reason: finishOf(reply),
        logprobs: null,
      },
    ],
    usage: usageOf(reply),
  };
}

const encoder = new TextEncoder();

/**
 * The answer as server-sent events in OpenAI's chunk shape. The response starts with the first token, so a call
 * that fails before it is an HTTP error as when not streaming; one that fails after it ends the stream with an
 * `error` event (what OpenAI's clients raise). A retry after text was sent would repeat it, so the call then
 * stops instead.
 */
export async function streamedCompletion(
  env: Env,
  call: CompletionCall,
  includeUsage: boolean,
  headers: Record<string, string>,
  waitUntil: (p: Promise<unknown>) => void,
): Promise<Response> {
  const cancel = new AbortController();
  const { readable, writable } = new TransformStream<Uint8Array, Uint8Array>();
  const writer = writable.getWriter();
  const stamp = { id: call.id, object: "chat.completion.chunk", created: created(), model: call.modelId };
  // A client that went away fails the write: the provider call stops with it.
  const send = (data: unknown) =>
    void writer
      .write(encoder.encode(`data: ${typeof data === "string" ? data : JSON.stringify(data)}\n\n`))
      .catch(() => cancel.abort());
  const chunk = (delta: { role?: "assistant"; content?: string }, finish: "stop" | "length" | null = null) =>
    send({
      ...stamp,
      choices: [{ index: 0, delta, finish_reason: finish, logprobs: null }],
      ...(includeUsage ? { usage: null } : {}),
    });

  let started = false;
  let firstToken!: () => void;
  const first = new Promise<void>((resolve) => {
    firstToken = resolve;
  });
  const begin = () => {
    if (started) return;
    started = true;
    chunk({ role: "assistant", content: "" });
    firstToken();
  };

  const done = run(env, call, cancel.signal, {
    onAttempt: (attempt) => {
      if (attempt > 1 && started) cancel.abort();
    },
    onDelta: (text) => {
      begin();
      chunk({ content: text });
    },
  }).then(async (reply) => {
    if (reply.ok) {
      begin();
      chunk({}, finishOf(reply));
      if (includeUsage) send({ ...stamp, choices: [], usage: usageOf(reply) });
      send("[DONE]");
    } else if (started) {
      const [status, code] = failureOf(reply);
      send(openAiError(status, code, `The model's provider failed midway: ${reply.error}`));
    }
    writer.close().catch(() => {});
    await settle(env, call, reply);
    return reply;
  });
  waitUntil(done);

  const outcome = await Promise.race([first.then(() => null), done]);
  if (outcome && !outcome.ok && !started) throw failure(outcome);
  return new Response(readable, {
    headers: { ...headers, "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache" },
  });
}
