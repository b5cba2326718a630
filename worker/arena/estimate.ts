/**
 * What an arena request could cost at most, before any call: each side reading its whole conversation and
 * writing its full output allowance, and each judge reading both conversations twice (sides swapped).
 * The same list-price upper bound as a council run's, so the spend caps treat both alike.
 */
import { ASSUMED_MAX_TOKENS, priceCalls, REVIEW_PROMPT_TOKENS, REVIEW_TOKENS_PER_ANSWER, tokensOf, type RunEstimate } from "../council/estimate";
import type { ComparisonForEstimate } from "../db/spend-queries";
import type { ArenaParams, Side } from "../shared/arena";

type Env = { QUORUM_PRICES?: string };

/** A conversation as the estimate needs it: sizes only. */
type Conversation = Pick<ComparisonForEstimate, "models" | "params" | "promptChars" | "sideChars">;

const SIDES: Side[] = ["left", "right"];

function estimate(env: Env, c: Conversation, sides: Side[], judges: string[]): RunEstimate {
  const { charge, total } = priceCalls(env);
  const system = c.params.systemPrompt?.length ?? 0;
  const maxOut = c.params.maxTokens ?? ASSUMED_MAX_TOKENS;
  for (const side of sides) charge(c.models[side], tokensOf(c.promptChars + c.sideChars[side] + system), maxOut);
  // A judge reads every prompt and both sides' replies, which are at most their output allowance this turn.
  const read = REVIEW_PROMPT_TOKENS + tokensOf(c.promptChars) + SIDES.reduce((n, side) => n + tokensOf(c.sideChars[side]) + (sides.includes(side) ? maxOut : 0), 0);
  for (const judge of judges) charge(judge, 2 * read, 2 * 2 * REVIEW_TOKENS_PER_ANSWER);
  return total();
}

/** A new comparison: both sides answer the prompt, then any judges asked for after the first vote. */
export function estimateComparison(env: Env, init: { models: { left: string; right: string }; prompt: string; params: ArenaParams; judges: string[] }): RunEstimate {
  return estimate(env, { models: init.models, params: init.params, promptChars: init.prompt.length, sideChars: { left: 0, right: 0 } }, SIDES, init.judges);
}

/** The next turn: both sides read their whole conversation and the new message. */
export function estimateTurn(env: Env, c: ComparisonForEstimate, content: string): RunEstimate {
  return estimate(env, { ...c, promptChars: c.promptChars + content.length }, SIDES, []);
}

/** Asking the failed side(s) of the latest turn again (at most both). */
export function estimateRetry(env: Env, c: ComparisonForEstimate): RunEstimate {
  return estimate(env, c, SIDES, []);
}

/** Judges comparing the two conversations as they stand. */
export function estimateJudges(env: Env, c: ComparisonForEstimate, judges: string[]): RunEstimate {
  return estimate(env, c, [], judges);
}
