/**
 * What a call cost: the catalog's list prices, unless QUORUM_PRICES sets a model's own
 * (`openai-compatible:llama3.2=0:0,openai:gpt-4o=2.5:10`, US dollars per million input:output tokens),
 * so local models read as free and new models as what they really cost.
 */
import { estimateCost } from "./catalog";
import { modelInfo } from "./registry";
import type { ModelInfo } from "./types";

export interface Price {
  priceIn: number;
  priceOut: number;
}

/** Entries that don't parse are left out: the model then keeps its catalog price, or none. */
export function parsePrices(raw: string | undefined): Map<string, Price> {
  const prices = new Map<string, Price>();
  for (const entry of (raw ?? "").split(",")) {
    const at = entry.lastIndexOf("=");
    if (at <= 0) continue;
    const [input, output, ...rest] = entry
      .slice(at + 1)
      .split(":")
      .map((x) => x.trim());
    const [priceIn, priceOut] = [Number(input), Number(output)];
    if (rest.length || input === "" || output === "" || !(priceIn >= 0) || !(priceOut >= 0)) continue;
    prices.set(entry.slice(0, at).trim(), { priceIn, priceOut });
  }
  return prices;
}

/** The catalog entry with any price QUORUM_PRICES sets for it. */
export function pricedModel(env: { QUORUM_PRICES?: string }, info: ModelInfo): ModelInfo {
  const own = parsePrices(env.QUORUM_PRICES).get(info.id);
  return own ? { ...info, ...own } : info;
}

export function costOf(
  env: { QUORUM_PRICES?: string },
  modelId: string,
  tokensIn: number | null,
  tokensOut: number | null,
): number | null {
  const info = modelInfo(modelId);
  return info ? estimateCost(pricedModel(env, info), tokensIn, tokensOut) : null;
}
