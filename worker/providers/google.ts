/** Gemini through @google/genai: streamed generateContent for answers, responseJsonSchema for reviews. */
import { GoogleGenAI, type Content, type GenerateContentConfig, type GenerateContentResponse } from "@google/genai";
import { brokenStream, streamError, toProviderError, type VendorContext } from "./sdk-errors";
import type { ChatMessage, Generation, GenerateRequest, Provider, ReviewOutput, ReviewRequest } from "./types";

export function createGoogleProvider(cfg: { apiKey: string; baseURL?: string }): Provider {
  // @google/genai retries nothing unless httpOptions.retryOptions is set, and we never set it.
  // SDK 3.x talks to the v1 API by default, which has rejected parts of the SDK's own payload
  // (googleapis/js-genai#1746); v1beta is where systemInstruction and responseJsonSchema are known to work.
  const ai = new GoogleGenAI({
    apiKey: cfg.apiKey,
    apiVersion: "v1beta",
    ...(cfg.baseURL ? { httpOptions: { baseUrl: cfg.baseURL } } : {}),
  });
  const ctx: VendorContext = {
    vendor: "Google",
    keyVar: "GOOGLE_API_KEY (or GEMINI_API_KEY)",
    baseUrlVar: "GOOGLE_BASE_URL",
    apiKey: cfg.apiKey,
  };

  return {
    id: "google",
    listModels: async () => [],
    generate: (req, onDelta) => generate(ai, ctx, req, onDelta),
    review: (req) => review(ai, ctx, req),
    async test(signal) {
      const seen = watchHeaders();
      try {
        await ai.models.list({ config: { pageSize: 1, abortSignal: signal, httpOptions: { fetch: seen.fetch } } });
      } catch (err) {
        throw toProviderError(err, { ...ctx, signal, responseHeaders: seen.headers });
      }
    },
  };
}

/**
 * ApiError carries no headers, so each call goes through a fetch that keeps the response's headers
 * (for retry-after on a 429).
 */
function watchHeaders() {
  const seen: { headers: Headers | null; fetch: typeof fetch } = {
    headers: null,
    fetch: async (input, init) => {
      const res = await fetch(input, init);
      seen.headers = res.headers;
      return res;
    },
  };
  return seen;
}

function contents(messages: ChatMessage[]): Content[] {
  return messages.map((m) => ({ role: m.role === "assistant" ? "model" : "user", parts: [{ text: m.content }] }));
}

function config(
  req: { system?: string; temperature?: number; maxTokens?: number; signal: AbortSignal },
  fetchFn: typeof fetch,
): GenerateContentConfig {
  return {
    ...(req.system ? { systemInstruction: req.system } : {}),
    ...(req.temperature !== undefined ? { temperature: req.temperature } : {}),
    ...(req.maxTokens !== undefined ? { maxOutputTokens: req.maxTokens } : {}),
    abortSignal: req.signal,
    httpOptions: { fetch: fetchFn },
  };
}

/** Text parts only; thoughts (when a model shares them) are not part of the answer. */
function textOf(chunk: GenerateContentResponse): string {
  const parts = chunk.candidates?.[0]?.content?.parts ?? [];
  return parts.map((p) => (p.thought ? "" : (p.text ?? ""))).join("");
}

function tokens(usage: GenerateContentResponse["usageMetadata"] | null) {
  if (!usage) return { tokensIn: null, tokensOut: null };
  // Thinking tokens are billed as output.
  const { candidatesTokenCount: answer, thoughtsTokenCount: thoughts } = usage;
  const tokensOut = answer === undefined && thoughts === undefined ? null : (answer ?? 0) + (thoughts ?? 0);
  return { tokensIn: usage.promptTokenCount ?? null, tokensOut };
}

async function generate(
  ai: GoogleGenAI,
  base: VendorContext,
  req: GenerateRequest,
  onDelta: (text: string) => void,
): Promise<Generation> {
  const seen = watchHeaders();
  const ctx = () => ({ ...base, model: req.model, signal: req.signal, responseHeaders: seen.headers });
  let text = "";
  let finishReason: string | null = null;
  let usage: GenerateContentResponse["usageMetadata"] | null = null;
  try {
    const stream = await ai.models.generateContentStream({
      model: req.model,
      contents: contents(req.messages),
      config: config(req, seen.fetch),
    });
    for await (const chunk of stream) {
      const delta = textOf(chunk);
      if (delta) {
        text += delta;
        onDelta(delta);
      }
      finishReason = chunk.candidates?.[0]?.finishReason ?? finishReason;
      usage = chunk.usageMetadata ?? usage;
    }
  } catch (err) {
    throw streamError(err, ctx(), text !== "");
  }
  if (req.signal.aborted) throw toProviderError(req.signal.reason, ctx());
  if (finishReason === null) throw brokenStream(ctx());
  return { text, ...tokens(usage), finishReason, truncated: finishReason === "MAX_TOKENS" };
}

async function review(ai: GoogleGenAI, base: VendorContext, req: ReviewRequest): Promise<ReviewOutput> {
  const seen = watchHeaders();
  try {
    const res = await ai.models.generateContent({
      model: req.model,
      contents: contents([{ role: "user", content: req.prompt }]),
      config: { ...config(req, seen.fetch), responseMimeType: "application/json", responseJsonSchema: req.schema },
    });
    return { raw: textOf(res), ...tokens(res.usageMetadata ?? null) };
  } catch (err) {
    throw toProviderError(err, { ...base, model: req.model, signal: req.signal, responseHeaders: seen.headers });
  }
}
