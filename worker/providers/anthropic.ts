/** Anthropic through the official SDK: streamed Messages for answers, forced tool use for reviews. */
import Anthropic from "@anthropic-ai/sdk";
import { brokenStream, streamError, toProviderError, type VendorContext } from "./sdk-errors";
import {
  ProviderError,
  type Generation,
  type GenerateRequest,
  type Provider,
  type ReviewOutput,
  type ReviewRequest,
} from "./types";

/** Anthropic requires max_tokens; this is what a call without maxTokens asks for. */
export const ANTHROPIC_DEFAULT_MAX_TOKENS = 4096;

const REVIEW_TOOL = "submit_review";

export function createAnthropicProvider(cfg: { apiKey: string; baseURL?: string }): Provider {
  const client = new Anthropic({ apiKey: cfg.apiKey, baseURL: cfg.baseURL ?? null, maxRetries: 0 });
  const ctx: VendorContext = {
    vendor: "Anthropic",
    keyVar: "ANTHROPIC_API_KEY",
    baseUrlVar: "ANTHROPIC_BASE_URL",
    apiKey: cfg.apiKey,
  };

  return {
    id: "anthropic",
    listModels: async () => [],
    generate: (req, onDelta) => generate(client, ctx, req, onDelta),
    review: (req) => review(client, ctx, req),
    async test(signal) {
      try {
        await client.models.list({ limit: 1 }, { signal });
      } catch (err) {
        throw toProviderError(err, { ...ctx, signal });
      }
    },
  };
}

/**
 * The API version SDK 1.x speaks (2026-10-21) has no sampling parameters: any temperature is a 400.
 * Saying so up front lets the room drop it and record the drop, without a wasted call.
 */
function refuseTemperature(req: { model: string; temperature?: number }) {
  if (req.temperature === undefined) return;
  const message = `Anthropic does not accept temperature for model "${req.model}"; leave it unset for Anthropic models.`;
  throw new ProviderError("unsupported_param", message, { status: 400, param: "temperature" });
}

async function generate(
  client: Anthropic,
  base: VendorContext,
  req: GenerateRequest,
  onDelta: (text: string) => void,
): Promise<Generation> {
  const ctx = { ...base, model: req.model, signal: req.signal };
  refuseTemperature(req);
  let text = "";
  let tokensIn: number | null = null;
  let tokensOut: number | null = null;
  let stopReason: string | null = null;
  let stopped = false;
  try {
    const stream = await client.messages.create(
      {
        model: req.model,
        max_tokens: req.maxTokens ?? ANTHROPIC_DEFAULT_MAX_TOKENS,
        messages: req.messages,
        ...(req.system ? { system: req.system } : {}),
        stream: true,
      },
      { signal: req.signal },
    );
    for await (const event of stream) {
      if (event.type === "message_start") {
        tokensIn = inputTokens(event.message.usage);
        tokensOut = event.message.usage.output_tokens;
      } else if (event.type === "content_block_delta" && event.delta.type === "text_delta") {
        text += event.delta.text;
        onDelta(event.delta.text);
      } else if (event.type === "message_delta") {
        stopReason = event.delta.stop_reason ?? stopReason;
        tokensOut = event.usage.output_tokens;
        tokensIn = inputTokens(event.usage) ?? tokensIn;
      } else if (event.type === "message_stop") {
        stopped = true;
      }
    }
  } catch (err) {
    throw streamError(err, ctx, text !== "");
  }
  // The SDK ends the loop quietly when the signal aborts mid-stream.
  if (req.signal.aborted) throw toProviderError(req.signal.reason, ctx);
  if (!stopped) throw brokenStream(ctx);
  return {
    text,
    tokensIn,
    tokensOut,
    finishReason: stopReason,
    truncated: stopReason === "max_tokens" || stopReason === "model_context_window_exceeded",
  };
}

async function review(client: Anthropic, base: VendorContext, req: ReviewRequest): Promise<ReviewOutput> {
  const ctx = { ...base, model: req.model, signal: req.signal };
  refuseTemperature(req);
  try {
    const message = await client.messages.create(
      {
        model: req.model,
        max_tokens: req.maxTokens ?? ANTHROPIC_DEFAULT_MAX_TOKENS,
        system: req.system,
        messages: [{ role: "user", content: req.prompt }],
        tools: [
          {
            name: REVIEW_TOOL,
            description: "Submit your review of the answers.",
            input_schema: req.schema as Anthropic.Tool.InputSchema,
          },
        ],
        tool_choice: { type: "tool", name: REVIEW_TOOL },
      },
      { signal: req.signal },
    );
    const call = message.content.find((block) => block.type === "tool_use" && block.name === REVIEW_TOOL);
    const text = message.content.flatMap((block) => (block.type === "text" ? [block.text] : [])).join("");
    const input: unknown = call?.type === "tool_use" ? call.input : undefined;
    return {
      raw: input === undefined ? text : typeof input === "string" ? input : JSON.stringify(input),
      tokensIn: inputTokens(message.usage),
      tokensOut: message.usage.output_tokens,
    };
  } catch (err) {
    throw toProviderError(err, ctx);
  }
}

/** Cached prompt tokens are reported apart from input_tokens; all of them were read. */
function inputTokens(usage: {
  input_tokens?: number | null;
  cache_creation_input_tokens?: number | null;
  cache_read_input_tokens?: number | null;
}): number | null {
  if (usage.input_tokens == null) return null;
  return usage.input_tokens + (usage.cache_creation_input_tokens ?? 0) + (usage.cache_read_input_tokens ?? 0);
}
