/** Anthropic Messages, as `@anthropic-ai/sdk` speaks it: named SSE events, forced tool use for reviews. */
import { sseEvent } from "./http";
import type { Step } from "./types";
import { asObject, type ParsedCall, type Reply, type Vendor } from "./vendor";

const ERROR_TYPES: Record<number, string> = {
  400: "invalid_request_error",
  401: "authentication_error",
  403: "permission_error",
  404: "not_found_error",
  413: "request_too_large",
  429: "rate_limit_error",
  529: "overloaded_error",
};

export const anthropic: Vendor = {
  parse({ method, url, headers, body, credential }) {
    if (method === "GET" && url.pathname === "/v1/models" && headers["anthropic-version"]) {
      return {
        protocol: "anthropic",
        kind: "models",
        model: `models-list:${credential}`,
        stream: false,
        schema: null,
        wantsUsage: false,
      };
    }
    if (method !== "POST" || url.pathname !== "/v1/messages") return null;
    const b = asObject(body);
    const choice = asObject(b.tool_choice);
    const forced = choice.type === "tool" ? choice.name : undefined;
    const tool = (Array.isArray(b.tools) ? b.tools : []).map(asObject).find((t) => t.name === forced);
    return {
      protocol: "anthropic",
      kind: forced ? "review" : "answer",
      model: String(b.model),
      stream: b.stream === true,
      schema: tool?.input_schema ?? null,
      wantsUsage: false,
    };
  },

  error(status, step, call, credential) {
    const type = ERROR_TYPES[status] ?? "api_error";
    return {
      type: "error",
      error: { type, message: step.errorMessage ?? message(status, step, call, credential) },
      request_id: "req_stub",
    };
  },

  streamError(status) {
    const type = ERROR_TYPES[status] ?? "api_error";
    return sseEvent("error", {
      type: "error",
      error: { type, message: type === "overloaded_error" ? "Overloaded" : "Internal server error" },
    });
  },

  json(call, reply) {
    return {
      ...messageShell(call, reply),
      content: [block(call, reply, true)],
      stop_reason: stopReason(call, reply),
      usage: usage(reply),
    };
  },

  frames(call, reply, chunks) {
    const delta = (piece: string) =>
      call.kind === "review" ? { type: "input_json_delta", partial_json: piece } : { type: "text_delta", text: piece };
    return {
      head: [
        sseEvent("message_start", {
          type: "message_start",
          message: {
            ...messageShell(call, reply),
            content: [],
            stop_reason: null,
            usage: { input_tokens: reply.tokensIn, output_tokens: 1 },
          },
        }),
        sseEvent("content_block_start", {
          type: "content_block_start",
          index: 0,
          content_block: block(call, reply, false),
        }),
        sseEvent("ping", { type: "ping" }),
      ],
      chunks: chunks.map((piece) =>
        sseEvent("content_block_delta", { type: "content_block_delta", index: 0, delta: delta(piece) }),
      ),
      tail: [
        sseEvent("content_block_stop", { type: "content_block_stop", index: 0 }),
        sseEvent("message_delta", {
          type: "message_delta",
          delta: { stop_reason: stopReason(call, reply), stop_sequence: null },
          usage: { output_tokens: reply.tokensOut },
        }),
        sseEvent("message_stop", { type: "message_stop" }),
      ],
    };
  },

  models(names) {
    const data = names.map((id) => ({ type: "model", id, display_name: id, created_at: "2025-01-01T00:00:00Z" }));
    return { data, has_more: false, first_id: data[0]?.id ?? null, last_id: data.at(-1)?.id ?? null };
  },
};

function message(status: number, step: Step, call: ParsedCall, credential: string): string {
  if (status === 400 && step.errorParam) return `${step.errorParam}: Extra inputs are not permitted`;
  // The real API does not echo the key; the stub does, so tests prove adapters scrub it.
  if (status === 401) return `invalid x-api-key: ${credential}`;
  if (status === 404) return `model: ${call.model}`;
  if (status === 429) return "This request would exceed your organization's rate limit. Please try again later.";
  if (status === 529) return "Overloaded";
  if (status >= 500) return "Internal server error";
  return "Invalid request.";
}

const messageShell = (call: ParsedCall, reply: Reply) => ({
  id: "msg_stub",
  type: "message",
  role: "assistant",
  model: call.model,
  stop_sequence: null,
  usage: usage(reply),
});

const usage = (reply: Reply) => ({ input_tokens: reply.tokensIn, output_tokens: reply.tokensOut });

const stopReason = (call: ParsedCall, reply: Reply) =>
  reply.truncated ? "max_tokens" : call.kind === "review" ? "tool_use" : "end_turn";

/** A review is a tool_use block whose input is the review; streamed, the input arrives as JSON deltas. */
function block(call: ParsedCall, reply: Reply, complete: boolean) {
  if (call.kind !== "review") return { type: "text", text: complete ? reply.text : "" };
  return { type: "tool_use", id: "toolu_stub", name: "submit_review", input: complete ? reply.review : {} };
}
