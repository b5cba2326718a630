/** OpenAI Chat Completions, as the `openai` SDK speaks it; under /compat/v1 the same acts as an Ollama-like server. */
import { findEmbeddedSchema } from "./review";
import { sseData } from "./http";
import { asObject, CREATED, type ParsedCall, type Reply, type Vendor } from "./vendor";
import type { Step } from "./types";

const PREFIXES = [
  ["/compat/v1", "compat"],
  ["/v1", "openai"],
] as const;

export const openai: Vendor = {
  parse({ method, url, headers, body, credential }) {
    const match = PREFIXES.find(([prefix]) => url.pathname.startsWith(`${prefix}/`));
    if (!match) return null;
    const [prefix, protocol] = match;
    const rest = url.pathname.slice(prefix.length);
    if (method === "GET" && rest === "/models" && !headers["anthropic-version"]) {
      return {
        protocol,
        kind: "models",
        model: `models-list:${credential}`,
        stream: false,
        schema: null,
        wantsUsage: false,
      };
    }
    if (method !== "POST" || rest !== "/chat/completions") return null;
    const b = asObject(body);
    const format = asObject(b.response_format);
    const review = format.type === "json_schema" || format.type === "json_object";
    const schema =
      format.type === "json_schema"
        ? asObject(format.json_schema).schema
        : review
          ? findEmbeddedSchema(
              (Array.isArray(b.messages) ? b.messages : []).map((m) => String(asObject(m).content ?? "")),
            )
          : null;
    return {
      protocol,
      kind: review ? "review" : "answer",
      model: String(b.model),
      stream: b.stream === true,
      schema,
      wantsUsage: asObject(b.stream_options).include_usage === true,
    };
  },

  error(status, step, call, credential) {
    const [type, code, message] = describe(status, step, call, credential);
    return { error: { message: step.errorMessage ?? message, type, param: step.errorParam ?? null, code } };
  },

  streamError(status) {
    return sseData({
      error: {
        message: "The server had an error while processing your request.",
        type: "server_error",
        param: null,
        code: String(status),
      },
    });
  },

  json(call, reply) {
    return {
      id: "chatcmpl-stub",
      object: "chat.completion",
      created: CREATED,
      model: call.model,
      choices: [
        {
          index: 0,
          message: { role: "assistant", content: reply.text, refusal: null },
          logprobs: null,
          finish_reason: finish(reply),
        },
      ],
      ...(reply.noUsage ? {} : { usage: usage(reply) }),
    };
  },

  frames(call, reply, chunks) {
    const withUsage = call.wantsUsage && !reply.noUsage;
    const chunk = (delta: object, finishReason: string | null) =>
      sseData({
        id: "chatcmpl-stub",
        object: "chat.completion.chunk",
        created: CREATED,
        model: call.model,
        choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
        ...(withUsage ? { usage: null } : {}),
      });
    const usageChunk = sseData({
      id: "chatcmpl-stub",
      object: "chat.completion.chunk",
      created: CREATED,
      model: call.model,
      choices: [],
      usage: usage(reply),
    });
    return {
      head: [chunk({ role: "assistant", content: "" }, null)],
      chunks: chunks.map((content) => chunk({ content }, null)),
      tail: [chunk({}, finish(reply)), ...(withUsage ? [usageChunk] : []), "data: [DONE]\n\n"],
    };
  },

  models(names) {
    return { object: "list", data: names.map((id) => ({ id, object: "model", created: CREATED, owned_by: "stub" })) };
  },
};

const finish = (reply: Reply) => (reply.truncated ? "length" : "stop");
const usage = (reply: Reply) => ({
  prompt_tokens: reply.tokensIn,
  completion_tokens: reply.tokensOut,
  total_tokens: reply.tokensIn + reply.tokensOut,
});

function describe(
  status: number,
  step: Step,
  call: ParsedCall,
  credential: string,
): [type: string, code: string | null, message: string] {
  if (status === 400 && step.errorParam) {
    return [
      "invalid_request_error",
      "unsupported_parameter",
      `Unsupported parameter: '${step.errorParam}' is not supported with this model.`,
    ];
  }
  if (status === 400) return ["invalid_request_error", null, "Invalid request."];
  // Real OpenAI masks most of the key; the stub echoes it whole so tests prove adapters scrub it.
  if (status === 401) return ["invalid_request_error", "invalid_api_key", `Incorrect API key provided: ${credential}.`];
  if (status === 403)
    return ["invalid_request_error", "model_not_allowed", "You are not allowed to sample from this model."];
  if (status === 404)
    return [
      "invalid_request_error",
      "model_not_found",
      `The model \`${call.model}\` does not exist or you do not have access to it.`,
    ];
  if (status === 429)
    return ["requests", "rate_limit_exceeded", "Rate limit reached for requests. Please try again later."];
  return ["server_error", null, "The server had an error while processing your request. Sorry about that!"];
}
