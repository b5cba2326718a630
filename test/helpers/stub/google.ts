/** The Gemini API as `@google/genai` calls it: /v1beta/models/{model}:generateContent and :streamGenerateContent?alt=sse. */
import { sseData } from "./http";
import type { Step } from "./types";
import { asObject, type ParsedCall, type Reply, type Vendor } from "./vendor";

const STATUS_NAMES: Record<number, string> = {
  400: "INVALID_ARGUMENT",
  401: "UNAUTHENTICATED",
  403: "PERMISSION_DENIED",
  404: "NOT_FOUND",
  429: "RESOURCE_EXHAUSTED",
  500: "INTERNAL",
  503: "UNAVAILABLE",
  504: "DEADLINE_EXCEEDED",
};

export const google: Vendor = {
  // The SDK asks for v1beta when told to and v1 by default; both are served. GET /v1/models is Google's only
  // when the Google key header comes with it (OpenAI's list has the same path).
  parse({ method, url, headers, body, credential }) {
    if (
      method === "GET" &&
      (url.pathname === "/v1beta/models" || (url.pathname === "/v1/models" && headers["x-goog-api-key"]))
    ) {
      return {
        protocol: "google",
        kind: "models",
        model: `models-list:${credential}`,
        stream: false,
        schema: null,
        wantsUsage: false,
      };
    }
    const match = /^\/v1(?:beta)?\/(?:models\/)?(.+):(generateContent|streamGenerateContent)$/.exec(url.pathname);
    if (method !== "POST" || !match) return null;
    const config = asObject(asObject(body).generationConfig);
    const schema = config.responseJsonSchema ?? config.responseSchema ?? null;
    return {
      protocol: "google",
      kind: config.responseMimeType === "application/json" && schema ? "review" : "answer",
      model: decodeURIComponent(match[1]),
      stream: match[2] === "streamGenerateContent",
      schema,
      wantsUsage: false,
    };
  },

  error(status, step, call, credential) {
    const details = step.retryDelay
      ? [{ "@type": "type.googleapis.com/google.rpc.RetryInfo", retryDelay: step.retryDelay }]
      : undefined;
    const text = step.errorMessage ?? message(status, step, call, credential);
    return {
      error: {
        code: status,
        message: text,
        status: STATUS_NAMES[status] ?? "UNKNOWN",
        ...(details ? { details } : {}),
      },
    };
  },

  streamError(status) {
    return sseData({
      error: {
        code: status,
        message: "The model is overloaded. Please try again later.",
        status: STATUS_NAMES[status] ?? "UNKNOWN",
      },
    });
  },

  json(call, reply) {
    return {
      candidates: [candidate(reply.text, finish(reply))],
      usageMetadata: usage(reply),
      modelVersion: call.model,
      responseId: "stub",
    };
  },

  frames(call, reply, chunks) {
    // Like the real API, the last content chunk carries the finish reason and the usage.
    return {
      head: [],
      chunks: chunks.map((text, i) => {
        const last = i === chunks.length - 1;
        return sseData({
          candidates: [candidate(text, last ? finish(reply) : undefined)],
          ...(last ? { usageMetadata: usage(reply) } : {}),
          modelVersion: call.model,
          responseId: "stub",
        });
      }),
      tail: [],
    };
  },

  models(names) {
    return {
      models: names.map((name) => ({
        name: `models/${name}`,
        displayName: name,
        supportedGenerationMethods: ["generateContent"],
      })),
    };
  },
};

function message(status: number, step: Step, call: ParsedCall, credential: string): string {
  if (status === 400 && step.errorParam)
    return `Invalid value at 'generation_config.${step.errorParam}': this parameter is not supported for this model.`;
  // The real API does not echo the key; the stub does, so tests prove adapters scrub it.
  if (status === 401) return `API key not valid (${credential}). Please pass a valid API key.`;
  if (status === 404)
    return `models/${call.model} is not found for API version v1beta, or is not supported for generateContent.`;
  if (status === 429) return "You exceeded your current quota, please check your plan and billing details.";
  if (status >= 500) return "The model is overloaded. Please try again later.";
  return "Request contains an invalid argument.";
}

const candidate = (text: string, finishReason?: string) => ({
  content: { parts: [{ text }], role: "model" },
  ...(finishReason ? { finishReason } : {}),
  index: 0,
});

const finish = (reply: Reply) => (reply.truncated ? "MAX_TOKENS" : "STOP");
const usage = (reply: Reply) => ({
  promptTokenCount: reply.tokensIn,
  candidatesTokenCount: reply.tokensOut,
  totalTokenCount: reply.tokensIn + reply.tokensOut,
});
