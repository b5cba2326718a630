/**
 * The most an evaluation could cost, before it starts: every answer call writing its full output allowance, every
 * judge call reading two such answers, every council review reading all the answers it ranks (judge calls and
 * reviews asked twice, as invalid output is). From list
 * prices, so the spend caps refuse it before any provider call; figured per item, so the money set aside can
 * be given back item by item as items finish.
 */
import {
  ASSUMED_MAX_TOKENS,
  priceCalls,
  REVIEW_PROMPT_TOKENS,
  REVIEW_TOKENS_PER_ANSWER,
  type RunEstimate,
  STRUCTURED_ROUNDS,
  tokensOf,
} from "../council/estimate";
import type { ConfigVars } from "../shared/config";
import type { ModelParams } from "../shared/run";
import { callsOfItem, judgeModelOf, type PairwisePlan } from "./plan";

/** the judge's instructions and the fences around what it reads */
export const JUDGE_PROMPT_TOKENS = 700;
/** a judge's reasons and verdict: arena-hard-auto's judges write their own answer first */
export const JUDGE_OUTPUT_TOKENS = 1500;

export interface EstimatedItem {
  prompt: string;
  reference: string | null;
  turns: { content: string }[] | null;
}

export interface EstimatePlan extends PairwisePlan {
  /** each contestant's parameters (a preset's system prompt and limits), by contestant id */
  params: Record<string, ModelParams>;
  /** the evaluation's own output allowance, for contestants with none of their own */
  maxTokens: number | null;
}

/** One item's most. */
export function estimateItem(env: ConfigVars, plan: EstimatePlan, item: EstimatedItem): RunEstimate {
  const { charge, total } = priceCalls(env);
  const prompt = tokensOf(item.prompt) + (item.turns ?? []).reduce((n, t) => n + tokensOf(t.content), 0);
  const maxOut = (id: string) => plan.params[id]?.maxTokens ?? plan.maxTokens ?? ASSUMED_MAX_TOKENS;
  const modelOf = new Map(plan.contestants.map((c) => [c.id, c.modelId]));
  const calls = callsOfItem(plan, "estimate");
  for (const a of calls.answers)
    charge(
      modelOf.get(a.contestant)!,
      prompt + tokensOf(plan.params[a.contestant]?.systemPrompt ?? ""),
      maxOut(a.contestant),
    );
  const read = JUDGE_PROMPT_TOKENS + prompt + tokensOf(item.reference ?? "");
  for (const j of calls.judges)
    charge(
      judgeModelOf(plan, j.judge),
      STRUCTURED_ROUNDS *
        (read + tokensOf(plan.params[j.judge]?.systemPrompt ?? "") + maxOut(j.first) + maxOut(j.second)),
      STRUCTURED_ROUNDS * JUDGE_OUTPUT_TOKENS,
    );
  for (const v of calls.reviews) {
    // A contestant reviewing the others leaves its own answer out; a judge reads them all (an upper bound).
    const judged = plan.judges.length ? plan.contestants : plan.contestants.filter((c) => c.id !== v.reviewer);
    const reads = judged.reduce((n, c) => n + maxOut(c.id), 0);
    const system = tokensOf(plan.params[v.reviewer]?.systemPrompt ?? "");
    charge(
      modelOf.get(v.reviewer) ?? judgeModelOf(plan, v.reviewer),
      STRUCTURED_ROUNDS * (REVIEW_PROMPT_TOKENS + system + prompt + reads),
      STRUCTURED_ROUNDS * REVIEW_TOKENS_PER_ANSWER * judged.length,
    );
  }
  return total();
}

/** Every item's most, and their sum. */
export function estimateEvaluation(
  env: ConfigVars,
  plan: EstimatePlan,
  items: EstimatedItem[],
): RunEstimate & { perItem: number[] } {
  const unpriced = new Set<string>();
  const perItem = items.map((item) => {
    const e = estimateItem(env, plan, item);
    for (const m of e.unpriced) unpriced.add(m);
    return e.usd;
  });
  return { usd: perItem.reduce((a, b) => a + b, 0), unpriced: [...unpriced], perItem };
}
