import { env } from "cloudflare:test";
import { afterEach, describe, expect, inject, it, vi } from "vitest";
import { ANTHROPIC_DEFAULT_MAX_TOKENS, createAnthropicProvider } from "../../worker/providers/anthropic";
import { createGoogleProvider } from "../../worker/providers/google";
import { createOpenAIProvider } from "../../worker/providers/openai";
import { createOpenAICompatibleProvider } from "../../worker/providers/openai-compatible";
import { retryAfter } from "../../worker/providers/sdk-errors";
import { ProviderError, type Provider } from "../../worker/providers/types";
import {
  callsFor,
  modelsListCalls,
  scriptModel,
  scriptModelsList,
  waitForCalls,
  type JsonBody,
} from "../helpers/stub-client";

const stub = inject("stubUrl");

const SCHEMA = {
  type: "object",
  additionalProperties: false,
  required: ["ranking", "confidence"],
  properties: {
    ranking: { type: "array", items: { type: "string", enum: ["A", "B", "C"] } },
    confidence: { type: "number", minimum: 0, maximum: 1 },
  },
};

const TEXT = "One two three four five six seven eight nine ten.";
const CHUNKS = ["One two three ", "four five six ", "seven eight nine ", "ten."];

interface Vendor {
  id: "openai" | "anthropic" | "google" | "compat";
  /** as error messages name it */
  name: string;
  make(apiKey?: string): Provider;
  key: string;
  /** the credential header as the SDK sends it */
  credential: Record<string, string>;
  stop: string;
  truncatedStop: string;
  authMessage: string;
  /** where a request carries its system prompt and output limit */
  sent(body: JsonBody): { system: unknown; maxTokens: unknown };
  /** the part of a review request that asks for structured output */
  structured(body: JsonBody): unknown;
}

const VENDORS: Vendor[] = [
  {
    id: "openai",
    name: "OpenAI",
    make: (apiKey = env.OPENAI_API_KEY!) => createOpenAIProvider({ apiKey, baseURL: env.OPENAI_BASE_URL }),
    key: env.OPENAI_API_KEY!,
    credential: { authorization: `Bearer ${env.OPENAI_API_KEY}` },
    stop: "stop",
    truncatedStop: "length",
    authMessage:
      "OpenAI rejected the API key (401). Check OPENAI_API_KEY in .dev.vars, or the Worker secret when deployed.",
    sent: (b) => ({ system: b.messages[0], maxTokens: b.max_completion_tokens }),
    structured: (b) => b.response_format,
  },
  {
    id: "anthropic",
    name: "Anthropic",
    make: (apiKey = env.ANTHROPIC_API_KEY!) => createAnthropicProvider({ apiKey, baseURL: env.ANTHROPIC_BASE_URL }),
    key: env.ANTHROPIC_API_KEY!,
    credential: { authorization: `Bearer ${env.ANTHROPIC_API_KEY}` },
    stop: "end_turn",
    truncatedStop: "max_tokens",
    authMessage:
      "Anthropic rejected the API key (401). Check ANTHROPIC_API_KEY in .dev.vars, or the Worker secret when deployed.",
    sent: (b) => ({ system: b.system, maxTokens: b.max_tokens }),
    structured: (b) => ({ tools: b.tools, tool_choice: b.tool_choice }),
  },
  {
    id: "google",
    name: "Google",
    make: (apiKey = env.GOOGLE_API_KEY!) => createGoogleProvider({ apiKey, baseURL: env.GOOGLE_BASE_URL }),
    key: env.GOOGLE_API_KEY!,
    credential: { "x-goog-api-key": env.GOOGLE_API_KEY! },
    stop: "STOP",
    truncatedStop: "MAX_TOKENS",
    authMessage:
      "Google rejected the API key (401). Check GOOGLE_API_KEY (or GEMINI_API_KEY) in .dev.vars, or the Worker secret when deployed.",
    sent: (b) => ({ system: b.systemInstruction, maxTokens: b.generationConfig.maxOutputTokens }),
    structured: (b) => {
      const { responseMimeType, responseJsonSchema } = b.generationConfig;
      return { responseMimeType, responseJsonSchema };
    },
  },
  {
    id: "compat",
    name: "the OpenAI-compatible server",
    make: (apiKey = "compat-key-0000") =>
      createOpenAICompatibleProvider({ baseURL: env.OPENAI_COMPATIBLE_BASE_URL!, apiKey, models: [] }),
    key: "compat-key-0000",
    credential: { authorization: "Bearer compat-key-0000" },
    stop: "stop",
    truncatedStop: "length",
    authMessage:
      "The OpenAI-compatible server rejected the API key (401). Check OPENAI_COMPATIBLE_API_KEY in .dev.vars, or the Worker secret when deployed.",
    sent: (b) => ({ system: b.messages[0], maxTokens: b.max_tokens }),
    structured: (b) => b.response_format,
  },
];

const vendor = (id: Vendor["id"]) => VENDORS.find((v) => v.id === id)!;

const EXPECTED_SYSTEM: Record<Vendor["id"], unknown> = {
  openai: { role: "system", content: "Be brief." },
  compat: { role: "system", content: "Be brief." },
  anthropic: "Be brief.",
  google: { parts: [{ text: "Be brief." }], role: "user" },
};

const EXPECTED_STRUCTURED: Record<Vendor["id"], unknown> = {
  openai: { type: "json_schema", json_schema: { name: "review", strict: true, schema: SCHEMA } },
  compat: { type: "json_schema", json_schema: { name: "review", strict: true, schema: SCHEMA } },
  anthropic: {
    tools: [{ name: "submit_review", description: "Submit your review of the answers.", input_schema: SCHEMA }],
    tool_choice: { type: "tool", name: "submit_review" },
  },
  google: { responseMimeType: "application/json", responseJsonSchema: SCHEMA },
};

function ask(model: string, signal = new AbortController().signal) {
  return {
    model,
    system: "Be brief.",
    messages: [{ role: "user" as const, content: "Count to ten." }],
    maxTokens: 300,
    signal,
  };
}

function reviewOf(model: string, signal = new AbortController().signal) {
  return { model, system: "You review answers.", prompt: "Rank answers A, B and C as JSON.", schema: SCHEMA, signal };
}

/** Runs a call that must fail and returns its ProviderError. */
async function failure(call: Promise<unknown>): Promise<ProviderError> {
  const err = await call.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ProviderError);
  return err as ProviderError;
}

describe.each(VENDORS)("the $id adapter", (v) => {
  const model = (what: string) => `prov-${v.id}-${what}`;

  it("streams an answer in several deltas that add up to the returned text, with the tokens used", async () => {
    await scriptModel(stub, model("stream"), [{ text: TEXT, tokensIn: 11, tokensOut: 10 }]);
    const deltas: string[] = [];
    const result = await v.make().generate(ask(model("stream")), (d) => deltas.push(d));
    expect(deltas).toEqual(CHUNKS);
    expect(result).toEqual({ text: TEXT, tokensIn: 11, tokensOut: 10, finishReason: v.stop, truncated: false });

    const [call] = await callsFor(stub, model("stream"));
    expect(call.kind).toBe("answer");
    expect(call.authorization).toEqual(v.credential);
    expect(v.sent(call.body)).toEqual({ system: EXPECTED_SYSTEM[v.id], maxTokens: 300 });
  });

  it("marks an answer that hit the output limit as truncated", async () => {
    await scriptModel(stub, model("truncated"), [{ text: TEXT, truncated: true }]);
    const result = await v.make().generate(ask(model("truncated")), () => {});
    expect(result.truncated).toBe(true);
    expect(result.finishReason).toBe(v.truncatedStop);
    expect(result.text).toBe(TEXT);
  });

  it("returns the scripted review raw, asked for with the vendor's structured output", async () => {
    const review = { ranking: ["C", "A", "B"], confidence: 0.6 };
    await scriptModel(stub, model("review"), [{ review, tokensIn: 120, tokensOut: 30 }]);
    const out = await v.make().review(reviewOf(model("review")));
    expect(JSON.parse(out.raw)).toEqual(review);
    expect(out.tokensIn).toBe(120);
    expect(out.tokensOut).toBe(30);

    const calls = await callsFor(stub, model("review"));
    expect(calls.map((c) => c.kind)).toEqual(["review"]);
    expect(v.structured(calls[0].body)).toEqual(EXPECTED_STRUCTURED[v.id]);
  });

  it("passes invalid review output through untouched for the council to judge", async () => {
    await scriptModel(stub, model("invalid-review"), [{ review: { ranking: "not a list" } }]);
    const out = await v.make().review(reviewOf(model("invalid-review")));
    expect(out.raw).toBe('{"ranking":"not a list"}');
  });

  it("reports a 500 as a server error the room may retry", async () => {
    await scriptModel(stub, model("500"), [{ status: 500 }]);
    const err = await failure(v.make().generate(ask(model("500")), () => {}));
    expect(err.kind).toBe("server");
    expect(err.status).toBe(500);
    expect(err.retryable).toBe(true);
  });

  it("reports a 429 as a rate limit with the wait from retry-after", async () => {
    await scriptModel(stub, model("429"), [{ status: 429, retryAfter: 7 }]);
    const err = await failure(v.make().generate(ask(model("429")), () => {}));
    expect(err.kind).toBe("rate_limit");
    expect(err.status).toBe(429);
    expect(err.retryAfterMs).toBe(7000);
  });

  it("reports a 401 as an auth error whose message names the setting and never the key", async () => {
    await scriptModel(stub, model("401"), [{ status: 401 }]);
    const err = await failure(v.make().generate(ask(model("401")), () => {}));
    expect(err.kind).toBe("auth");
    expect(err.message).toBe(v.authMessage);
    expect(err.message).not.toContain(v.key);
  });

  it("scrubs the key even from a vendor message that echoes it", async () => {
    await scriptModel(stub, model("400-echo"), [{ status: 400, errorMessage: `bad request from key ${v.key}` }]);
    const err = await failure(v.make().generate(ask(model("400-echo")), () => {}));
    expect(err.kind).toBe("bad_request");
    expect(err.message).not.toContain(v.key);
    expect(err.message).toContain("bad request from key [redacted]");
  });

  it("reports an unknown model as not_found", async () => {
    await scriptModel(stub, model("404"), [{ status: 404 }]);
    const err = await failure(v.make().generate(ask(model("404")), () => {}));
    expect(err.kind).toBe("not_found");
    expect(err.message).toContain(`model "${model("404")}"`);
  });

  it("reports an abort of a call the server never answers as aborted", async () => {
    await scriptModel(stub, model("hang"), [{ hang: true }]);
    const controller = new AbortController();
    const pending = failure(v.make().generate(ask(model("hang"), controller.signal), () => {}));
    await waitForCalls(stub, model("hang"), 1, 5_000);
    controller.abort();
    expect((await pending).kind).toBe("aborted");
  });

  it("reports an abort in the middle of a stream as aborted, not as a short answer", async () => {
    await scriptModel(stub, model("abort-mid"), [{ text: TEXT, chunkDelayMs: 50 }]);
    const controller = new AbortController();
    const deltas: string[] = [];
    const err = await failure(
      v.make().generate(ask(model("abort-mid"), controller.signal), (d) => {
        deltas.push(d);
        controller.abort();
      }),
    );
    expect(err.kind).toBe("aborted");
    expect(deltas).toEqual([CHUNKS[0]]);
  });

  it("reports a stream cut off mid-answer as a network error, after delivering the text so far", async () => {
    await scriptModel(stub, model("broken"), [{ text: TEXT, breakAfterChunks: 2 }]);
    const deltas: string[] = [];
    const err = await failure(v.make().generate(ask(model("broken")), (d) => deltas.push(d)));
    expect(err.kind).toBe("network");
    expect(err.retryable).toBe(true);
    expect(err.message).toBe(
      `The stream from ${v.name} broke off before the answer was complete (Network connection lost.). Try again.`,
    );
    expect(deltas).toEqual(CHUNKS.slice(0, 2));
  });

  it("reports an error event inside the stream as a server error", async () => {
    await scriptModel(stub, model("stream-error"), [{ text: TEXT, errorAfterChunks: 1 }]);
    const deltas: string[] = [];
    const err = await failure(v.make().generate(ask(model("stream-error")), (d) => deltas.push(d)));
    expect(err.kind).toBe("server");
    expect(deltas).toEqual(CHUNKS.slice(0, 1));
  });
});

describe.each(VENDORS.filter((v) => v.id !== "compat"))("the $id adapter, on a stream that ends early", (v) => {
  it("reports a stream that ends without the vendor's closing event as broken", async () => {
    const model = `prov-${v.id}-ends-early`;
    await scriptModel(stub, model, [{ text: TEXT, endAfterChunks: 2 }]);
    const deltas: string[] = [];
    const err = await failure(v.make().generate(ask(model), (d) => deltas.push(d)));
    expect(err.kind).toBe("network");
    expect(err.message).toBe(`The stream from ${v.name} broke off before the answer was complete. Try again.`);
    expect(deltas).toEqual(CHUNKS.slice(0, 2));
  });
});

describe("reading how long to wait before retrying", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("takes retry-after-ms as milliseconds, before retry-after", () => {
    expect(retryAfter(new Headers({ "retry-after-ms": "250", "retry-after": "9" }))).toBe(250);
  });

  it("takes retry-after as seconds, fractions included", () => {
    expect(retryAfter(new Headers({ "retry-after": "1.5" }))).toBe(1500);
  });

  it("takes retry-after as an HTTP date, counting from now", () => {
    vi.useFakeTimers({ now: Date.parse("2026-01-02T03:04:05Z") });
    expect(retryAfter(new Headers({ "retry-after": "Fri, 02 Jan 2026 03:04:35 GMT" }))).toBe(30_000);
    expect(retryAfter(new Headers({ "retry-after": "Fri, 02 Jan 2026 03:00:00 GMT" }))).toBe(0);
  });

  it("gives null when there is no usable header", () => {
    expect(retryAfter(new Headers({ "retry-after": "soon" }))).toBeNull();
    expect(retryAfter(new Headers())).toBeNull();
  });
});

describe("the OpenAI adapter", () => {
  it("reads retry-after-ms before retry-after", async () => {
    await scriptModel(stub, "prov-openai-429-ms", [{ status: 429, retryAfter: 9, retryAfterMs: 1500 }]);
    const err = await failure(
      vendor("openai")
        .make()
        .generate(ask("prov-openai-429-ms"), () => {}),
    );
    expect(err.retryAfterMs).toBe(1500);
  });

  it("turns a 400 that names temperature into unsupported_param for temperature", async () => {
    await scriptModel(stub, "prov-openai-no-temp", [{ status: 400, errorParam: "temperature" }]);
    const err = await failure(
      vendor("openai")
        .make()
        .generate({ ...ask("prov-openai-no-temp"), temperature: 0.2 }, () => {}),
    );
    expect(err.kind).toBe("unsupported_param");
    expect(err.param).toBe("temperature");
    const [call] = await callsFor(stub, "prov-openai-no-temp");
    expect(call.body.temperature).toBe(0.2);
  });

  it("turns a 400 that names max_tokens into unsupported_param for maxTokens", async () => {
    await scriptModel(stub, "prov-openai-no-max", [{ status: 400, errorParam: "max_tokens" }]);
    const err = await failure(
      vendor("openai")
        .make()
        .generate(ask("prov-openai-no-max"), () => {}),
    );
    expect(err.kind).toBe("unsupported_param");
    expect(err.param).toBe("maxTokens");
  });

  it("asks for usage in the stream and leaves out parameters that were not given", async () => {
    await scriptModel(stub, "prov-openai-shape", [{}]);
    await vendor("openai")
      .make()
      .generate(
        {
          model: "prov-openai-shape",
          messages: [{ role: "user", content: "Hi" }],
          signal: new AbortController().signal,
        },
        () => {},
      );
    const [call] = await callsFor(stub, "prov-openai-shape");
    expect(call.body).toEqual({
      model: "prov-openai-shape",
      messages: [{ role: "user", content: "Hi" }],
      stream: true,
      stream_options: { include_usage: true },
    });
  });

  it("tests the key with a models list call", async () => {
    await vendor("openai").make("sk-test-openai-list").test(new AbortController().signal);
    const calls = await modelsListCalls(stub, "sk-test-openai-list");
    expect(calls.map((c) => `${c.method} ${c.path}`)).toEqual(["GET /v1/models"]);
  });

  it("reports a rejected key from the test call as auth", async () => {
    await scriptModelsList(stub, "sk-test-openai-bad", [{ status: 401 }]);
    const err = await failure(vendor("openai").make("sk-test-openai-bad").test(new AbortController().signal));
    expect(err.kind).toBe("auth");
    expect(err.message).not.toContain("sk-test-openai-bad");
  });

  it("leaves the model list to the catalog", async () => {
    expect(await vendor("openai").make().listModels()).toEqual([]);
  });
});

describe("the Anthropic adapter", () => {
  it("asks for 4096 tokens when no maxTokens is given", async () => {
    await scriptModel(stub, "prov-anthropic-default-max", [{}]);
    await vendor("anthropic")
      .make()
      .generate(
        {
          model: "prov-anthropic-default-max",
          messages: [{ role: "user", content: "Hi" }],
          signal: new AbortController().signal,
        },
        () => {},
      );
    const [call] = await callsFor(stub, "prov-anthropic-default-max");
    expect(ANTHROPIC_DEFAULT_MAX_TOKENS).toBe(4096);
    expect(call.body).toEqual({
      model: "prov-anthropic-default-max",
      max_tokens: 4096,
      messages: [{ role: "user", content: "Hi" }],
      stream: true,
    });
  });

  it("refuses temperature without calling, since the API version the SDK speaks has none", async () => {
    const err = await failure(
      vendor("anthropic")
        .make()
        .generate({ ...ask("prov-anthropic-temp"), temperature: 0.3 }, () => {}),
    );
    expect(err.kind).toBe("unsupported_param");
    expect(err.param).toBe("temperature");
    expect(await callsFor(stub, "prov-anthropic-temp")).toEqual([]);
  });

  it("reports 529 overloaded as a server error", async () => {
    await scriptModel(stub, "prov-anthropic-529", [{ status: 529 }]);
    const err = await failure(
      vendor("anthropic")
        .make()
        .generate(ask("prov-anthropic-529"), () => {}),
    );
    expect(err.kind).toBe("server");
    expect(err.status).toBe(529);
    expect(err.message).toBe('Anthropic is overloaded (529); try again in a moment. Anthropic said: "Overloaded"');
  });

  it("tests the key with a models list call", async () => {
    await vendor("anthropic").make("sk-ant-test-list").test(new AbortController().signal);
    const calls = await modelsListCalls(stub, "sk-ant-test-list");
    expect(calls.map((c) => `${c.method} ${c.path}`)).toEqual(["GET /v1/models?limit=1"]);
  });
});

describe("the Google adapter", () => {
  it("reads the wait from Gemini's RetryInfo when no retry-after header comes", async () => {
    await scriptModel(stub, "prov-google-retryinfo", [{ status: 429, retryDelay: "3.5s" }]);
    const err = await failure(vendor("google").make().review(reviewOf("prov-google-retryinfo")));
    expect(err.kind).toBe("rate_limit");
    expect(err.retryAfterMs).toBe(3500);
  });

  it("treats Gemini's 400 'API key not valid' as an auth error", async () => {
    await scriptModel(stub, "prov-google-bad-key", [
      { status: 400, errorMessage: "API key not valid. Please pass a valid API key." },
    ]);
    const err = await failure(
      vendor("google")
        .make()
        .generate(ask("prov-google-bad-key"), () => {}),
    );
    expect(err.kind).toBe("auth");
  });

  it("sends the conversation as contents with the model's turns as role model", async () => {
    await scriptModel(stub, "prov-google-turns", [{}]);
    const messages = [
      { role: "user" as const, content: "Hi" },
      { role: "assistant" as const, content: "Hello." },
      { role: "user" as const, content: "Go on" },
    ];
    await vendor("google")
      .make()
      .generate(
        { model: "prov-google-turns", messages, temperature: 0.4, signal: new AbortController().signal },
        () => {},
      );
    const [call] = await callsFor(stub, "prov-google-turns");
    expect(call.path).toBe("/v1beta/models/prov-google-turns:streamGenerateContent?alt=sse");
    expect(call.body).toEqual({
      contents: [
        { role: "user", parts: [{ text: "Hi" }] },
        { role: "model", parts: [{ text: "Hello." }] },
        { role: "user", parts: [{ text: "Go on" }] },
      ],
      generationConfig: { temperature: 0.4 },
    });
  });

  it("tests the key with a models list call", async () => {
    await vendor("google").make("test-google-list").test(new AbortController().signal);
    const calls = await modelsListCalls(stub, "test-google-list");
    expect(calls.map((c) => `${c.method} ${c.path}`)).toEqual(["GET /v1beta/models?pageSize=1"]);
  });
});

describe("the stub's defaults", () => {
  it("answers with text that names no model", async () => {
    const result = await vendor("openai")
      .make()
      .generate(ask("prov-stub-default-answer"), () => {});
    expect(result.text).toBe(
      "Here is a careful answer. The main point comes first, then the reasons behind it, and finally a short summary of what to do next.",
    );
    expect(result.tokensIn).toBe(42);
    expect(result.tokensOut).toBe(25);
  });

  it("reviews with the labels in the enum's order, scores of 7, a critique per label and confidence 0.8", async () => {
    const label = { type: "string", enum: ["A", "B"] };
    const schema = {
      type: "object",
      properties: {
        reviews: {
          type: "array",
          items: {
            type: "object",
            properties: {
              label,
              scores: {
                type: "object",
                properties: { correctness: { type: "integer", minimum: 0, maximum: 10 }, overall: { type: "integer" } },
              },
              critique: { type: "string" },
            },
          },
        },
        ranking: { type: "array", items: label },
        confidence: { type: "number", minimum: 0, maximum: 1 },
      },
    };
    const out = await vendor("anthropic")
      .make()
      .review({ ...reviewOf("prov-stub-default-review"), schema });
    expect(JSON.parse(out.raw)).toEqual({
      reviews: [
        {
          label: "A",
          scores: { correctness: 7, overall: 7 },
          critique: "Answer A is clear and mostly correct; one more example would help.",
        },
        {
          label: "B",
          scores: { correctness: 7, overall: 7 },
          critique: "Answer B is clear and mostly correct; one more example would help.",
        },
      ],
      ranking: ["A", "B"],
      confidence: 0.8,
    });
  });
});

describe("the OpenAI-compatible adapter", () => {
  const base = () => env.OPENAI_COMPATIBLE_BASE_URL!;

  it("falls back to JSON mode with the schema in the prompt when the server rejects json_schema", async () => {
    const review = { ranking: ["B", "A", "C"], confidence: 0.7 };
    await scriptModel(stub, "prov-compat-fallback", [
      { status: 400, errorMessage: "response_format json_schema is not supported" },
      { review },
    ]);
    const out = await createOpenAICompatibleProvider({ baseURL: base(), models: [] }).review(
      reviewOf("prov-compat-fallback"),
    );
    expect(JSON.parse(out.raw)).toEqual(review);

    const calls = await callsFor(stub, "prov-compat-fallback");
    expect(calls.map((c) => [c.protocol, c.kind, c.body.response_format.type])).toEqual([
      ["compat", "review", "json_schema"],
      ["compat", "review", "json_object"],
    ]);
    expect(calls[1].body.messages[0]).toEqual({
      role: "system",
      content: `You review answers.\n\nReply with one JSON object, and nothing else, that matches this JSON Schema:\n${JSON.stringify(SCHEMA)}`,
    });
  });

  it("gets a default review from the stub in JSON mode, built from the schema in the prompt", async () => {
    await scriptModel(stub, "prov-compat-default-review", [{ status: 400 }]);
    const out = await createOpenAICompatibleProvider({ baseURL: base(), models: [] }).review(
      reviewOf("prov-compat-default-review"),
    );
    expect(JSON.parse(out.raw)).toEqual({ ranking: ["A", "B", "C"], confidence: 0.8 });
  });

  it("reports null tokens when the server sends no usage", async () => {
    await scriptModel(stub, "prov-compat-no-usage", [{ text: TEXT, noUsage: true }]);
    const result = await createOpenAICompatibleProvider({ baseURL: base(), models: [] }).generate(
      ask("prov-compat-no-usage"),
      () => {},
    );
    expect(result).toEqual({ text: TEXT, tokensIn: null, tokensOut: null, finishReason: "stop", truncated: false });
  });

  it("sends no Authorization header when no key is configured, not even OPENAI_API_KEY", async () => {
    await scriptModel(stub, "prov-compat-no-key", [{}]);
    await createOpenAICompatibleProvider({ baseURL: base(), models: [] }).generate(ask("prov-compat-no-key"), () => {});
    const [call] = await callsFor(stub, "prov-compat-no-key");
    expect(call.authorization).toEqual({});
  });

  it("lists its configured models without asking the server", async () => {
    const models = await createOpenAICompatibleProvider({
      baseURL: base(),
      apiKey: "compat-configured",
      models: ["local-llama", "qwen2.5:7b"],
    }).listModels();
    expect(models).toEqual([
      {
        id: "openai-compatible:local-llama",
        provider: "openai-compatible",
        name: "local-llama",
        displayName: "local-llama",
        priceIn: null,
        priceOut: null,
        contextTokens: null,
      },
      {
        id: "openai-compatible:qwen2.5:7b",
        provider: "openai-compatible",
        name: "qwen2.5:7b",
        displayName: "qwen2.5:7b",
        priceIn: null,
        priceOut: null,
        contextTokens: null,
      },
    ]);
    expect(await modelsListCalls(stub, "compat-configured")).toEqual([]);
  });

  it("discovers its models from GET /models when none are configured", async () => {
    await scriptModelsList(stub, "compat-discover", [{ models: ["llama3.2:3b", "mistral:7b"] }]);
    const models = await createOpenAICompatibleProvider({
      baseURL: base(),
      apiKey: "compat-discover",
      models: [],
    }).listModels();
    expect(models.map((m) => m.id)).toEqual(["openai-compatible:llama3.2:3b", "openai-compatible:mistral:7b"]);
    const calls = await modelsListCalls(stub, "compat-discover");
    expect(calls.map((c) => `${c.protocol} ${c.method} ${c.path}`)).toEqual(["compat GET /compat/v1/models"]);
  });

  it("accepts a stream that ends without a finish reason, since some servers never send one", async () => {
    await scriptModel(stub, "prov-compat-no-finish", [{ text: TEXT, endAfterChunks: 4 }]);
    const result = await createOpenAICompatibleProvider({ baseURL: base(), models: [] }).generate(
      ask("prov-compat-no-finish"),
      () => {},
    );
    expect(result).toEqual({ text: TEXT, tokensIn: null, tokensOut: null, finishReason: null, truncated: false });
  });

  it("sends max_tokens rather than max_completion_tokens", async () => {
    await scriptModel(stub, "prov-compat-max", [{}]);
    await createOpenAICompatibleProvider({ baseURL: base(), models: [] }).generate(ask("prov-compat-max"), () => {});
    const [call] = await callsFor(stub, "prov-compat-max");
    expect(call.body.max_tokens).toBe(300);
    expect(call.body.max_completion_tokens).toBeUndefined();
  });
});
