/**
 * What a call cost: the catalog's list prices, unless QUORUM_PRICES sets a model's own
 * (`openai-compatible:llama3.2=0:0,openai:gpt-4o=2.5:10`, US dollars per million input:output tokens),
 * so local models read as free and new models as what they really cost.
 */
import { estimateCost } from "./catalog";
import { modelInfo } from "./registry";
import type { ModelInfo } from "./types";
import { type ConfigVars, settings } from "../shared/config";

/** The catalog entry with any price QUORUM_PRICES sets for it. */
export function pricedModel(env: ConfigVars, info: ModelInfo): ModelInfo {
  const own = settings(env).prices.get(info.id);
  return own ? { ...info, ...own } : info;
}

export function costOf(
  env: ConfigVars,
  modelId: string,
  tokensIn: number | null,
  tokensOut: number | null,
): number | null {
  const info = modelInfo(modelId);
  return info ? estimateCost(pricedModel(env, info), tokensIn, tokensOut) : null;
}
