/**
 * The most a goal battle could cost, before it starts: every turn up to the limit, each side reading its whole
 * conversation so far and writing its full output allowance, the simulated user (model mode) doing the same for
 * each side, the goal check (when a judge model is named) reading each side's conversation, and the outcome judge
 * reading both in both orders — structured calls maybe asked twice. The same list-price upper bound as a council
 * run's. Both sides are charged at the higher of the two contestants' prices, so the amount set aside says nothing
 * about which is on which side.
 */
import {
  ASSUMED_MAX_TOKENS,
  priceCalls,
  REVIEW_PROMPT_TOKENS,
  REVIEW_TOKENS_PER_ANSWER,
  STRUCTURED_ROUNDS,
  tokensOf,
  type Price,
  type RunEstimate,
} from "../council/estimate";
import type { ConfigVars } from "../shared/config";
import { GOAL_SIDES } from "../shared/constants";

export interface GoalBattlePlan {
  /** the two contestants' models, as they are called */
  models: [string, string];
  /** the price both sides are charged at (poolPrices of the two) */
  blind: Price;
  systemPrompt: string;
  goal: string;
  persona: string | null;
  /** the model playing the user, null for a script */
  userModelId: string | null;
  scriptChars: number;
  judgeModelId: string | null;
  maxTurns: number;
  maxTokens: number | null;
}

export function goalBattleEstimate(env: ConfigVars, p: GoalBattlePlan): RunEstimate {
  const { charge, total } = priceCalls(env);
  const out = p.maxTokens ?? ASSUMED_MAX_TOKENS;
  const framing = tokensOf(p.systemPrompt) + tokensOf(p.goal) + tokensOf(p.persona ?? "") + 200;
  // A turn adds a user message and a reply to each side's conversation: at most `out` each, or the script's longest.
  const perTurn = 2 * out + tokensOf(p.scriptChars);
  for (let turn = 1; turn <= p.maxTurns; turn++) {
    const read = framing + turn * perTurn;
    for (const [i] of GOAL_SIDES.entries()) {
      charge(p.models[i], read, out, p.blind);
      if (p.userModelId) charge(p.userModelId, read, out);
      if (p.judgeModelId)
        charge(
          p.judgeModelId,
          STRUCTURED_ROUNDS * (REVIEW_PROMPT_TOKENS + read),
          STRUCTURED_ROUNDS * REVIEW_TOKENS_PER_ANSWER,
        );
    }
  }
  if (p.judgeModelId) {
    const both = REVIEW_PROMPT_TOKENS + 2 * (framing + p.maxTurns * perTurn);
    charge(p.judgeModelId, 2 * STRUCTURED_ROUNDS * both, 2 * STRUCTURED_ROUNDS * REVIEW_TOKENS_PER_ANSWER);
  }
  return total();
}
