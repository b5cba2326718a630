/**
 * What a council run could cost at most, before it starts: every model answering with its full output
 * allowance, every reviewer reading all the answers, and the synthesis. An upper bound from list prices,
 * so a spend cap refuses a run before any provider is called.
 */
import { pricedModel } from "../providers/pricing";
import { modelInfo } from "../providers/registry";
import type { CreateRunInput } from "../shared/requests";

/** output allowance assumed for a model with no maxTokens set */
export const ASSUMED_MAX_TOKENS = 4096;
/** review JSON per answer judged, and the review instructions */
export const REVIEW_TOKENS_PER_ANSWER = 400;
export const REVIEW_PROMPT_TOKENS = 800;

/** A generous count: about three characters a token, so the bound stays an upper bound. */
export const tokensOf = (text: string | number) => Math.ceil((typeof text === "number" ? text : text.length) / 3);

export interface RunEstimate {
  /** US dollars for the models with a price */
  usd: number;
  /** models whose price is unknown, left out of the figure */
  unpriced: string[];
}

/** Adds up calls at their models' list prices; demo models are free, models with no price are named apart. */
export function priceCalls(env: { QUORUM_PRICES?: string }): { charge: (modelId: string, tokensIn: number, tokensOut: number) => void; total: () => RunEstimate } {
  const unpriced = new Set<string>();
  let usd = 0;
  const charge = (modelId: string, tokensIn: number, tokensOut: number) => {
    const info = modelInfo(modelId);
    const priced = info && pricedModel(env, info);
    if (!priced || priced.demo) return;
    if (priced.priceIn === null || priced.priceOut === null) return void unpriced.add(modelId);
    usd += (tokensIn * priced.priceIn + tokensOut * priced.priceOut) / 1_000_000;
  };
  return { charge, total: () => ({ usd, unpriced: [...unpriced] }) };
}

export function estimateRunCost(env: { QUORUM_PRICES?: string }, input: CreateRunInput): RunEstimate {
  const s = input.settings;
  const question = tokensOf(input.question) + tokensOf(s.systemPrompt ?? "");
  const maxOut = (params?: { maxTokens?: number }) => params?.maxTokens ?? s.maxTokens ?? ASSUMED_MAX_TOKENS;
  const answersOut = input.models.reduce((n, m) => n + maxOut(m.params), 0);
  const reviewed = s.autoEvaluate && input.models.length > 1;
  const { charge, total } = priceCalls(env);
  for (const m of input.models) {
    charge(m.id, question + tokensOf(m.params?.systemPrompt ?? ""), maxOut(m.params));
    if (reviewed) charge(m.id, REVIEW_PROMPT_TOKENS + question + answersOut, REVIEW_TOKENS_PER_ANSWER * input.models.length);
  }
  if (s.synthesis && reviewed) charge(s.synthesis.modelId, question + answersOut + REVIEW_TOKENS_PER_ANSWER * input.models.length ** 2, maxOut());
  return total();
}
