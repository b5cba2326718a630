/**
 * What an arena request could cost at most, before any call: each side reading its whole conversation and
 * writing its full output allowance, and each judge reading both conversations in both orders (each order
 * maybe asked twice, as invalid output is). The same list-price upper bound as a council run's.
 *
 * Blind work is estimated at `blind` prices, the highest of the pool its pair came from, for both sides:
 * the amount set aside then says nothing about which model is on which side, or which pair was drawn.
 */
import {
  ASSUMED_MAX_TOKENS,
  priceCalls,
  priceOf,
  REVIEW_PROMPT_TOKENS,
  REVIEW_TOKENS_PER_ANSWER,
  STRUCTURED_ROUNDS,
  tokensOf,
  type Price,
  type RunEstimate,
} from "../council/estimate";
import type { ComparisonForEstimate } from "../db/spend-queries";
import type { ArenaParams, Side } from "../shared/arena";
import type { ConfigVars } from "../shared/config";
import { SIDES } from "../shared/constants";

/** A conversation as the estimate needs it: sizes only, and the price blind sides are charged at. */
type Conversation = Pick<ComparisonForEstimate, "models" | "params" | "promptChars" | "sideChars"> & {
  blind: Price | null;
};

/**
 * The highest input and output price among `pool` (demo models cost 0), and the models of it without a
 * price: blind work is charged at these whichever two were drawn.
 */
export function poolPrices(env: ConfigVars, pool: string[]): { price: Price; unpriced: string[] } {
  const price = { priceIn: 0, priceOut: 0 };
  const unpriced: string[] = [];
  for (const id of new Set(pool)) {
    const p = priceOf(env, id);
    if (!p) unpriced.push(id);
    else
      Object.assign(price, {
        priceIn: Math.max(price.priceIn, p.priceIn),
        priceOut: Math.max(price.priceOut, p.priceOut),
      });
  }
  return { price, unpriced };
}

function estimate(env: ConfigVars, c: Conversation, sides: readonly Side[], judges: string[]): RunEstimate {
  const { charge, total } = priceCalls(env);
  const system = c.params.systemPrompt?.length ?? 0;
  const maxOut = c.params.maxTokens ?? ASSUMED_MAX_TOKENS;
  for (const side of sides)
    charge(c.models[side], tokensOf(c.promptChars + c.sideChars[side] + system), maxOut, c.blind ?? undefined);
  // A judge reads every prompt and both sides' replies, which are at most their output allowance this turn.
  const read =
    REVIEW_PROMPT_TOKENS +
    tokensOf(c.promptChars) +
    SIDES.reduce((n, side) => n + tokensOf(c.sideChars[side]) + (sides.includes(side) ? maxOut : 0), 0);
  for (const judge of judges)
    charge(judge, STRUCTURED_ROUNDS * 2 * read, STRUCTURED_ROUNDS * 2 * 2 * REVIEW_TOKENS_PER_ANSWER);
  return total();
}

/** A new comparison: both sides answer the prompt, then any judges asked for after the first vote. */
export function estimateComparison(
  env: ConfigVars,
  init: {
    models: { left: string; right: string };
    prompt: string;
    params: ArenaParams;
    judges: string[];
    blind: Price | null;
  },
): RunEstimate {
  return estimate(
    env,
    {
      models: init.models,
      params: init.params,
      promptChars: init.prompt.length,
      sideChars: { left: 0, right: 0 },
      blind: init.blind,
    },
    SIDES,
    init.judges,
  );
}

/** The next turn: both sides read their whole conversation and the new message. */
export function estimateTurn(
  env: ConfigVars,
  c: ComparisonForEstimate,
  blind: Price | null,
  content: string,
): RunEstimate {
  return estimate(env, { ...c, blind, promptChars: c.promptChars + content.length }, SIDES, []);
}

/** Asking the failed side(s) of the latest turn again: both are counted, so the amount doesn't say which failed. */
export function estimateRetry(env: ConfigVars, c: ComparisonForEstimate, blind: Price | null): RunEstimate {
  return estimate(env, { ...c, blind }, SIDES, []);
}

/** Judges comparing the two conversations as they stand; a judge that is one of the sides is counted all the same. */
export function estimateJudges(env: ConfigVars, c: ComparisonForEstimate, judges: string[]): RunEstimate {
  return estimate(env, { ...c, blind: null }, [], judges);
}
