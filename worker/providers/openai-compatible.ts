/** Any server that speaks OpenAI's Chat Completions (Ollama, LM Studio, vLLM, llama.cpp …) through the openai SDK. */
import { listModelIds, openAIClient, reviewJson, streamChat, type ChatDialect } from "./openai";
import type { VendorContext } from "./sdk-errors";
import { ProviderError, type ModelInfo, type Provider, type ReviewOutput, type ReviewRequest } from "./types";

const DISCOVERY_TIMEOUT_MS = 5_000;

/** `models` empty → the server's own list from GET {baseURL}/models. */
export function createOpenAICompatibleProvider(cfg: { baseURL: string; apiKey?: string; models: string[] }): Provider {
  const client = openAIClient(cfg.apiKey, cfg.baseURL);
  const ctx: VendorContext = {
    vendor: "the OpenAI-compatible server",
    keyVar: "OPENAI_COMPATIBLE_API_KEY",
    baseUrlVar: "OPENAI_COMPATIBLE_BASE_URL",
    apiKey: cfg.apiKey,
  };
  // Servers vary: max_tokens is the field they all know, and some never send a finish reason.
  const dialect: ChatDialect = { ctx, maxTokensField: "max_tokens", requireFinish: false };

  return {
    id: "openai-compatible",
    async listModels() {
      // A local server that is down or stuck must not hold up the model list for long.
      const names =
        cfg.models.length > 0
          ? cfg.models
          : await listModelIds(client, { ...ctx, signal: AbortSignal.timeout(DISCOVERY_TIMEOUT_MS) });
      return names.map(modelInfo);
    },
    generate: (req, onDelta) => streamChat(client, dialect, req, onDelta),
    review: (req) => review(req),
    test: (signal) => listModelIds(client, { ...ctx, signal }).then(() => undefined),
  };

  /** json_schema first; a server that rejects it (400 or 422) gets JSON mode with the schema written into the prompt. */
  async function review(req: ReviewRequest): Promise<ReviewOutput> {
    try {
      return await reviewJson(client, dialect, req, {
        type: "json_schema",
        json_schema: { name: "review", strict: true, schema: req.schema },
      });
    } catch (err) {
      if (!(err instanceof ProviderError) || err.kind !== "bad_request" || (err.status !== 400 && err.status !== 422))
        throw err;
    }
    const system = `${req.system}\n\nReply with one JSON object, and nothing else, that matches this JSON Schema:\n${JSON.stringify(req.schema)}`;
    return reviewJson(client, dialect, req, { type: "json_object" }, system);
  }
}

function modelInfo(name: string): ModelInfo {
  return {
    id: `openai-compatible:${name}`,
    provider: "openai-compatible",
    name,
    displayName: name,
    priceIn: null,
    priceOut: null,
    contextTokens: null,
  };
}
