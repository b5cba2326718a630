/**
 * Models Quorum suggests for each vendor, with list prices in US dollars per million tokens
 * (input / output, as the vendors publish them). Any other model name is accepted too;
 * its cost is then shown as unknown.
 */
import type { ModelInfo, ProviderId } from "./types";

type Entry = [name: string, displayName: string, priceIn: number, priceOut: number, contextTokens: number];

const VENDOR_MODELS: Record<"openai" | "anthropic" | "google", Entry[]> = {
  openai: [
    ["gpt-5", "GPT-5", 1.25, 10, 400_000],
    ["gpt-5-mini", "GPT-5 mini", 0.25, 2, 400_000],
    ["gpt-4.1", "GPT-4.1", 2, 8, 1_047_576],
    ["gpt-4.1-mini", "GPT-4.1 mini", 0.4, 1.6, 1_047_576],
    ["gpt-4o", "GPT-4o", 2.5, 10, 128_000],
    ["gpt-4o-mini", "GPT-4o mini", 0.15, 0.6, 128_000],
    ["o4-mini", "o4-mini", 1.1, 4.4, 200_000],
  ],
  anthropic: [
    ["claude-opus-4-1", "Claude Opus 4.1", 15, 75, 200_000],
    ["claude-sonnet-4-5", "Claude Sonnet 4.5", 3, 15, 200_000],
    ["claude-haiku-4-5", "Claude Haiku 4.5", 1, 5, 200_000],
    ["claude-3-5-haiku-latest", "Claude Haiku 3.5", 0.8, 4, 200_000],
  ],
  google: [
    ["gemini-2.5-pro", "Gemini 2.5 Pro", 1.25, 10, 1_048_576],
    ["gemini-2.5-flash", "Gemini 2.5 Flash", 0.3, 2.5, 1_048_576],
    ["gemini-2.5-flash-lite", "Gemini 2.5 Flash-Lite", 0.1, 0.4, 1_048_576],
  ],
};

export function vendorCatalog(provider: "openai" | "anthropic" | "google"): ModelInfo[] {
  return VENDOR_MODELS[provider].map(([name, displayName, priceIn, priceOut, contextTokens]) => ({
    id: `${provider}:${name}`,
    provider,
    name,
    displayName,
    priceIn,
    priceOut,
    contextTokens,
  }));
}

const byId = new Map<string, ModelInfo>(
  (["openai", "anthropic", "google"] as const).flatMap((p) => vendorCatalog(p)).map((m) => [m.id, m]),
);

/** Catalog facts for a model id, or a plain entry for a model the catalog doesn't know. */
export function describeModel(id: string, provider: ProviderId, name: string, extra: ModelInfo[] = []): ModelInfo {
  return (
    byId.get(id) ??
    extra.find((m) => m.id === id) ?? {
      id,
      provider,
      name,
      displayName: name,
      priceIn: null,
      priceOut: null,
      contextTokens: null,
    }
  );
}

/** Estimated cost in US dollars, or null when the price or the token counts are unknown. */
export function estimateCost(model: ModelInfo, tokensIn: number | null, tokensOut: number | null): number | null {
  if (model.demo) return 0;
  if (model.priceIn === null || model.priceOut === null || tokensIn === null || tokensOut === null) return null;
  return (tokensIn * model.priceIn + tokensOut * model.priceOut) / 1_000_000;
}
