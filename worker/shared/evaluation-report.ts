/** The JSON an evaluation's report routes answer with (worker/api/evaluation-report.ts), as zod/mini schemas. */
import * as z from "zod/mini";
import { EVALUATION_METHODS } from "./constants";
import { contestantNames } from "./contestant-name";
import { rubric } from "./run";

const num = z.nullable(z.number());

export const EVALUATION_EXPORT_FORMATS = ["json", "csv", "md", "battles"] as const;
export const MATRIX_FILTER_NAMES = ["all", "differ", "failures", "flips"] as const;

const standing = {
  contestant: z.string(),
  bt: num,
  ciLower: num,
  ciUpper: num,
  rank: num,
  winRate: num,
  winRateLower: num,
  winRateUpper: num,
  observedWinRate: num,
  games: z.number(),
};

const separation = z.object({
  best: z.nullable(z.string()),
  tiedWithBest: z.array(z.string()),
  moreItemsNeeded: num,
});

export const evaluationReportResponse = z.object({
  id: z.string(),
  name: z.string(),
  status: z.string(),
  method: z.string(),
  promptSetId: z.string(),
  baseline: z.nullable(z.string()),
  judges: z.array(z.string()),
  /** every contestant's and judge's shown name (a preset's name and version), keyed by its id */
  /** each contestant's and judge's shown name, and a preset's model, keyed by id */
  names: contestantNames,
  coverage: z.number(),
  rows: z.array(
    z.object({
      ...standing,
      displayName: z.string(),
      /** a preset's model; null for a model */
      modelId: z.nullable(z.string()),
      lcWinRate: num,
      lcWinRateLower: num,
      lcWinRateUpper: num,
      lengthCoefficient: num,
      styleBt: num,
      styleCiLower: num,
      styleCiUpper: num,
      answers: z.number(),
      failures: z.number(),
      tokensIn: z.number(),
      tokensOut: z.number(),
      costUsd: num,
      latencyP50: num,
      latencyP95: num,
      firstTokenP50: num,
      firstTokenP95: num,
      onCostFrontier: z.boolean(),
    }),
  ),
  separation,
  categories: z.array(
    z.object({ category: z.string(), items: z.number(), rows: z.array(z.object(standing)), separation }),
  ),
  judgeSummaries: z.array(
    z.object({
      judge: z.string(),
      judgments: z.number(),
      failures: z.number(),
      pairs: z.number(),
      flips: z.number(),
      flipRate: num,
      costUsd: z.number(),
    }),
  ),
  judgeAgreement: z.array(z.object({ judges: z.array(z.string()), pairs: z.number(), agreement: num })),
  /** each judge against the arena's human votes on the same pairs of contestants (methods.humanAgreement) */
  judgeHumanAgreement: z.array(
    z.object({
      judge: z.string(),
      pairs: z.number(),
      humanVotes: z.number(),
      agreed: z.number(),
      agreement: num,
      pairsWithTooFewVotes: z.number(),
    }),
  ),
  stability: z.nullable(z.array(z.object({ contestant: z.string(), samples: z.array(num), range: num }))),
  style: z.nullable(z.object({ features: z.array(z.string()), coefficients: z.array(z.number()) })),
  totals: z.object({
    items: z.number(),
    answers: z.number(),
    judgments: z.number(),
    answerCostUsd: z.number(),
    judgeCostUsd: z.number(),
  }),
  methods: z.object({
    intervals: z.string(),
    winRate: z.string(),
    lengthControl: z.string(),
    counting: z.string(),
    humanAgreement: z.string(),
  }),
});

export const evaluationMatrixResponse = z.object({
  contestants: z.array(z.string()),
  baseline: z.nullable(z.string()),
  filter: z.enum(MATRIX_FILTER_NAMES),
  total: z.number(),
  rows: z.array(
    z.object({
      itemId: z.string(),
      category: z.nullable(z.string()),
      differ: z.boolean(),
      failures: z.number(),
      flips: z.number(),
      cells: z.array(
        z.object({
          contestant: z.string(),
          outcome: z.enum(["win", "loss", "tie", "baseline", "failed", "pending"]),
          score: num,
          games: z.number(),
          flips: z.number(),
          failures: z.number(),
          /** a goal evaluation's: each battle the contestant played on the item (side A or B), its result and why */
          battles: z.optional(
            z.array(
              z.object({
                battleId: z.string(),
                sample: z.number(),
                opponent: z.string(),
                side: z.enum(["A", "B"]),
                result: z.enum(["win", "loss", "tie", "none"]),
                endedReason: z.nullable(z.string()),
                reason: z.nullable(z.string()),
              }),
            ),
          ),
        }),
      ),
    }),
  ),
});

export const evaluationItemResponse = z.object({
  itemId: z.string(),
  prompt: z.string(),
  category: z.nullable(z.string()),
  reference: z.nullable(z.string()),
  answers: z.array(
    z.object({
      contestant: z.string(),
      sample: z.number(),
      status: z.string(),
      text: z.string(),
      error: z.nullable(z.string()),
      tokensOut: num,
      latencyMs: num,
      costUsd: num,
    }),
  ),
  judgments: z.array(
    z.object({
      judge: z.string(),
      sample: z.number(),
      first: z.string(),
      second: z.string(),
      status: z.string(),
      verdict: z.nullable(z.string()),
      reasons: z.nullable(z.string()),
      error: z.nullable(z.string()),
    }),
  ),
  /** a council evaluation's: each reviewer's ranking (contestants best first, its own left out) and reasons */
  reviews: z.optional(
    z.array(
      z.object({
        reviewer: z.string(),
        sample: z.number(),
        status: z.string(),
        ranking: z.nullable(z.array(z.string())),
        confidence: num,
        reviews: z.array(
          z.object({ contestant: z.string(), critique: z.string(), scores: z.record(z.string(), z.number()) }),
        ),
        error: z.nullable(z.string()),
      }),
    ),
  ),
  /** a goal evaluation's: each battle on the item (`first` on side A), its transcript at /goal-battles/:battleId */
  battles: z.optional(
    z.array(
      z.object({
        battleId: z.string(),
        sample: z.number(),
        first: z.string(),
        second: z.string(),
        status: z.string(),
        winner: z.nullable(z.string()),
        endedReason: z.nullable(z.string()),
        rationale: z.nullable(z.string()),
        turns: z.nullable(z.number()),
        error: z.nullable(z.string()),
      }),
    ),
  ),
});

export const evaluationCompareResponse = z.object({
  a: z.object({ id: z.string(), name: z.string() }),
  b: z.object({ id: z.string(), name: z.string() }),
  promptSetId: z.string(),
  /** the shown name of every contestant named below (either evaluation's), and a preset's model, keyed by id */
  names: contestantNames,
  contestants: z.array(
    z.object({
      before: z.string(),
      after: z.string(),
      winRateBefore: num,
      winRateAfter: num,
      winRateChange: num,
      winRateChangeLower: num,
      winRateChangeUpper: num,
      btChange: num,
      btChangeLower: num,
      btChangeUpper: num,
      significant: z.boolean(),
    }),
  ),
  items: z.array(
    z.object({ itemId: z.string(), contestant: z.string(), scoreBefore: num, scoreAfter: num, change: z.number() }),
  ),
});

/** A drafted revision of a preset's system prompt: nothing is saved until the preset is edited with it. */
export const evaluationRevisionResponse = z.object({
  contestant: z.string(),
  model: z.string(),
  currentPrompt: z.string(),
  revisedPrompt: z.string(),
  rationale: z.string(),
  lostItems: z.array(
    z.object({
      itemId: z.string(),
      prompt: z.string(),
      score: z.number(),
      winner: z.string(),
      reasons: z.array(z.string()),
    }),
  ),
  costUsd: num,
  /** the evaluation's plan as it was started, for running it again with the revision in the preset's place */
  plan: z.object({
    promptSetId: z.string(),
    method: z.enum(EVALUATION_METHODS),
    contestants: z.array(z.string()),
    baseline: z.nullable(z.string()),
    judges: z.array(z.string()),
    repeats: z.number(),
    /** pairwise: the judges' text; council: the reviewers' rubric */
    rubric: z.nullable(z.union([z.string(), rubric])),
    settings: z.object({ timeoutMs: num, maxTokens: num, temperature: num }),
  }),
});
