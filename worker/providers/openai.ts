/** OpenAI through the official SDK: streamed Chat Completions for answers, json_schema output for reviews. */
import OpenAI from "openai";
import type {
  ChatCompletionCreateParamsNonStreaming,
  ChatCompletionMessageParam,
} from "openai/resources/chat/completions";
import { brokenStream, streamError, toProviderError, type VendorContext } from "./sdk-errors";
import type { ChatMessage, Generation, GenerateRequest, Provider, ReviewOutput, ReviewRequest } from "./types";

export interface ChatDialect {
  ctx: VendorContext;
  /** OpenAI wants max_completion_tokens; most compatible servers only know max_tokens */
  maxTokensField: "max_completion_tokens" | "max_tokens";
  /** whether a stream that ends without a finish reason counts as broken (compatible servers vary) */
  requireFinish: boolean;
}

/**
 * A client that reads nothing from the environment: with nodejs_compat, process.env mirrors the Worker's
 * bindings, and the SDK would otherwise pick up OPENAI_API_KEY for a compatible server.
 */
export function openAIClient(apiKey: string | undefined, baseURL: string | undefined): OpenAI {
  return new OpenAI({
    apiKey: apiKey ?? "none",
    baseURL: baseURL ?? null,
    organization: null,
    project: null,
    adminAPIKey: null,
    webhookSecret: null,
    maxRetries: 0,
    // No key: send no Authorization header at all rather than a made-up one.
    defaultHeaders: apiKey ? undefined : { Authorization: null },
  });
}

export function createOpenAIProvider(cfg: { apiKey: string; baseURL?: string }): Provider {
  const client = openAIClient(cfg.apiKey, cfg.baseURL);
  const ctx: VendorContext = {
    vendor: "OpenAI",
    keyVar: "OPENAI_API_KEY",
    baseUrlVar: "OPENAI_BASE_URL",
    apiKey: cfg.apiKey,
  };
  const dialect: ChatDialect = { ctx, maxTokensField: "max_completion_tokens", requireFinish: true };
  return {
    id: "openai",
    listModels: async () => [],
    generate: (req, onDelta) => streamChat(client, dialect, req, onDelta),
    review: (req) =>
      reviewJson(client, dialect, req, {
        type: "json_schema",
        json_schema: { name: "review", strict: true, schema: req.schema },
      }),
    test: (signal) => listModelIds(client, { ...ctx, signal }).then(() => undefined),
  };
}

export function chatMessages(system: string | undefined, messages: ChatMessage[]): ChatCompletionMessageParam[] {
  return [...(system ? [{ role: "system" as const, content: system }] : []), ...messages];
}

function sampling(dialect: ChatDialect, req: { temperature?: number; maxTokens?: number }) {
  return {
    ...(req.temperature !== undefined ? { temperature: req.temperature } : {}),
    ...(req.maxTokens !== undefined ? { [dialect.maxTokensField]: req.maxTokens } : {}),
  };
}

/** Streams one answer, calling onDelta per chunk; usage comes from the final chunk when the server sends it. */
export async function streamChat(
  client: OpenAI,
  dialect: ChatDialect,
  req: GenerateRequest,
  onDelta: (text: string) => void,
): Promise<Generation> {
  const ctx = { ...dialect.ctx, model: req.model, signal: req.signal };
  let text = "";
  let finishReason: string | null = null;
  let usage: OpenAI.CompletionUsage | null = null;
  try {
    const stream = await client.chat.completions.create(
      {
        model: req.model,
        messages: chatMessages(req.system, req.messages),
        stream: true,
        stream_options: { include_usage: true },
        ...sampling(dialect, req),
      },
      { signal: req.signal },
    );
    for await (const chunk of stream) {
      const choice = chunk.choices[0];
      const delta = choice?.delta?.content;
      if (delta) {
        text += delta;
        onDelta(delta);
      }
      if (choice?.finish_reason) finishReason = choice.finish_reason;
      if (chunk.usage) usage = chunk.usage;
    }
  } catch (err) {
    throw streamError(err, ctx, text !== "");
  }
  // The SDK ends the loop quietly when the signal aborts mid-stream.
  if (req.signal.aborted) throw toProviderError(req.signal.reason, ctx);
  if (finishReason === null && dialect.requireFinish) throw brokenStream(ctx);
  return {
    text,
    tokensIn: usage?.prompt_tokens ?? null,
    tokensOut: usage?.completion_tokens ?? null,
    finishReason,
    truncated: finishReason === "length",
  };
}

type ResponseFormat = NonNullable<ChatCompletionCreateParamsNonStreaming["response_format"]>;

/** One non-streamed structured-output call; the raw text is returned exactly as the model wrote it. */
export async function reviewJson(
  client: OpenAI,
  dialect: ChatDialect,
  req: ReviewRequest,
  format: ResponseFormat,
  system = req.system,
): Promise<ReviewOutput> {
  const ctx = { ...dialect.ctx, model: req.model, signal: req.signal };
  try {
    const res = await client.chat.completions.create(
      {
        model: req.model,
        messages: chatMessages(system, [{ role: "user", content: req.prompt }]),
        response_format: format,
        ...sampling(dialect, req),
      },
      { signal: req.signal },
    );
    const message = res.choices[0]?.message;
    return {
      raw: message?.content ?? message?.refusal ?? "",
      tokensIn: res.usage?.prompt_tokens ?? null,
      tokensOut: res.usage?.completion_tokens ?? null,
    };
  } catch (err) {
    throw toProviderError(err, ctx);
  }
}

export async function listModelIds(client: OpenAI, ctx: VendorContext): Promise<string[]> {
  try {
    const ids: string[] = [];
    for await (const model of client.models.list({ signal: ctx.signal })) ids.push(model.id);
    return ids;
  } catch (err) {
    throw toProviderError(err, ctx);
  }
}
