/**
 * What a council request could cost at most, before it starts: every model answering with its full output
 * allowance, every reviewer (the answerers, or the run's own list with its judge-only models) reading all the answers (and asked twice, as invalid output is), and the
 * synthesis. An upper bound from list prices, so the spend caps refuse a request before any provider call.
 */
import { pricedModel } from "../providers/pricing";
import { modelInfo } from "../providers/registry";
import type { CreateRunInput } from "../shared/requests";
import type { ModelParams, RunSettings } from "../shared/run";
import { type ConfigVars, settings } from "../shared/config";

/** output allowance assumed for a model with no maxTokens set */
export const ASSUMED_MAX_TOKENS = 4096;
/**
 * The output allowance a call without maxTokens is sent with: under a spend cap, the one its request was
 * reserved for (a provider's own default may be far larger); without a cap, none (the provider's default).
 */
export function reservedAllowance(env: ConfigVars): number | undefined {
  const caps = settings(env).spend;
  return caps.dayUsd !== null || caps.runUsd !== null ? ASSUMED_MAX_TOKENS : undefined;
}

/** review JSON per answer judged, and the review instructions */
export const REVIEW_TOKENS_PER_ANSWER = 400;
export const REVIEW_PROMPT_TOKENS = 800;
/** a structured call (a review, a judge's verdict) whose output fails validation is asked once more */
export const STRUCTURED_ROUNDS = 2;

/** A generous count: about three characters a token, so the bound stays an upper bound. */
export const tokensOf = (text: string | number) => Math.ceil((typeof text === "number" ? text : text.length) / 3);

export interface RunEstimate {
  /** US dollars for the models with a price */
  usd: number;
  /** models whose price is unknown, left out of the figure */
  unpriced: string[];
}

export interface Price {
  priceIn: number;
  priceOut: number;
}

/** A model's price per million tokens: 0 for demo models, null when neither the catalog nor QUORUM_PRICES has one. */
export function priceOf(env: ConfigVars, modelId: string): Price | null {
  const info = modelInfo(modelId);
  const priced = info && pricedModel(env, info);
  if (!priced) return null;
  if (priced.demo) return { priceIn: 0, priceOut: 0 };
  return priced.priceIn === null || priced.priceOut === null
    ? null
    : { priceIn: priced.priceIn, priceOut: priced.priceOut };
}

/**
 * Adds up calls at their models' list prices, or at `at` when given (blind work: every side at the same
 * price, whatever model it is); models with no price are named apart.
 */
export function priceCalls(env: ConfigVars): {
  charge: (modelId: string, tokensIn: number, tokensOut: number, at?: Price) => void;
  total: () => RunEstimate;
} {
  const unpriced = new Set<string>();
  let usd = 0;
  const charge = (modelId: string, tokensIn: number, tokensOut: number, at?: Price) => {
    const price = at ?? priceOf(env, modelId);
    if (!price) return void unpriced.add(modelId);
    usd += (tokensIn * price.priceIn + tokensOut * price.priceOut) / 1_000_000;
  };
  return { charge, total: () => ({ usd, unpriced: [...unpriced] }) };
}

/** What one council request asks for: answers to write, answers already written, reviewers and a synthesis. */
interface CouncilWork {
  question: string;
  settings: Pick<RunSettings, "systemPrompt" | "maxTokens" | "synthesis">;
  answering: { id: string; params?: ModelParams | null }[];
  /** text of the answers that stand and are reviewed too */
  answered: string[];
  reviewers: string[];
  synthesis: boolean;
}

function councilCost(env: ConfigVars, w: CouncilWork): RunEstimate {
  const question = tokensOf(w.question) + tokensOf(w.settings.systemPrompt ?? "");
  const maxOut = (params?: { maxTokens?: number } | null) =>
    params?.maxTokens ?? w.settings.maxTokens ?? ASSUMED_MAX_TOKENS;
  const answers = w.answering.length + w.answered.length;
  const answersTokens =
    w.answering.reduce((n, m) => n + maxOut(m.params), 0) + w.answered.reduce((n, text) => n + tokensOf(text), 0);
  const { charge, total } = priceCalls(env);
  for (const m of w.answering) charge(m.id, question + tokensOf(m.params?.systemPrompt ?? ""), maxOut(m.params));
  for (const reviewer of w.reviewers)
    charge(
      reviewer,
      STRUCTURED_ROUNDS * (REVIEW_PROMPT_TOKENS + question + answersTokens),
      STRUCTURED_ROUNDS * REVIEW_TOKENS_PER_ANSWER * answers,
    );
  if (w.synthesis && w.settings.synthesis && w.reviewers.length)
    charge(w.settings.synthesis.modelId, question + answersTokens + REVIEW_TOKENS_PER_ANSWER * answers ** 2, maxOut());
  return total();
}

/** Who reviews `answerers`' answers: the run's own list when it has one, else the answerers (two or more of them). */
function reviewersOf(settings: Pick<RunSettings, "reviewers">, answerers: string[]): string[] {
  if (settings.reviewers) return settings.reviewers;
  return answerers.length > 1 ? answerers : [];
}

/** A new run. */
export function estimateRunCost(env: ConfigVars, input: CreateRunInput): RunEstimate {
  const reviewers = input.settings.autoEvaluate
    ? reviewersOf(
        input.settings,
        input.models.map((m) => m.id),
      )
    : [];
  return councilCost(env, {
    question: input.question,
    settings: input.settings,
    answering: input.models,
    answered: [],
    reviewers,
    synthesis: reviewers.length > 0,
  });
}

/** An ended run as a new request on it needs it. */
export interface RunForEstimate {
  question: string;
  settings: RunSettings;
  answers: { modelId: string; params: ModelParams | null; status: string; text: string }[];
}

/** Reviewing the answers that succeeded again (POST /api/runs/:id/evaluate), and the synthesis. */
export function estimateEvaluation(env: ConfigVars, run: RunForEstimate): RunEstimate {
  const done = run.answers.filter((a) => a.status === "done");
  return councilCost(env, {
    question: run.question,
    settings: run.settings,
    answering: [],
    answered: done.map((a) => a.text),
    reviewers: run.settings.reviewers ?? done.map((a) => a.modelId),
    synthesis: true,
  });
}

/** Asking the failed (or the named) models again (POST /api/runs/:id/answers), then reviews when the run auto-evaluates. */
export function estimateAnswerRetry(env: ConfigVars, run: RunForEstimate, modelIds?: string[]): RunEstimate {
  const chosen = run.answers.filter((a) =>
    modelIds ? modelIds.includes(a.modelId) : a.status === "failed" || a.status === "cancelled",
  );
  const kept = run.answers.filter((a) => !chosen.includes(a) && a.status === "done");
  const reviewers = run.settings.autoEvaluate
    ? reviewersOf(
        run.settings,
        [...chosen, ...kept].map((a) => a.modelId),
      )
    : [];
  return councilCost(env, {
    question: run.question,
    settings: run.settings,
    answering: chosen.map((a) => ({ id: a.modelId, params: a.params })),
    answered: kept.map((a) => a.text),
    reviewers,
    synthesis: reviewers.length > 0,
  });
}
