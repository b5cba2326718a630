/**
 * The JSON bodies the HTTP API answers with, as zod schemas: the OpenAPI document (worker/api/openapi.ts)
 * describes every response with them, and test/types/response-schemas.ts checks at compile time that each route
 * still returns what its schema says. zod/mini, like the other shapes here, so the page may import them too.
 */
import * as z from "zod/mini";
import {
  BATTLE_SOURCES,
  comparisonDetail,
  comparisonMode,
  comparisonStatus,
  leaderboardRow,
  reveal,
  voteChoice,
  voteFlag,
  voteRow,
} from "./arena";
import {
  DEMO_VIEWS,
  EXAMPLE_KINDS,
  FIVE_POINT_VERDICTS,
  INTERVAL_METHODS,
  LEADERBOARD_SOURCES,
  SPEND_FEATURES,
  STYLE_METHODS,
  VOTE_CHOICES,
} from "./constants";
import { contestantNames } from "./contestant-name";
import { evaluationStatus } from "./evaluation";
import { REDACTION_KINDS } from "./redact";
import { runDetail, runStatus } from "./run";
import { thread, threadDetail, threadMessage, threadSummary } from "./thread";

export { thread as Thread, threadMessage as ThreadMessage, threadSummary as ThreadSummary } from "./thread";

/** Every refusal and failure: `{ error: { code, message, details? } }` (api/errors.ts). */
export const errorResponse = z.object({
  error: z.object({
    /** a stable, machine-readable name such as `invalid_request`, `not_found` or `over_budget` */
    code: z.string(),
    /** what went wrong and what to do about it, for a person */
    message: z.string(),
    /** more about the refusal, e.g. the validation issues or the spend figures */
    details: z.optional(z.unknown()),
  }),
});

export const redactions = z.partialRecord(z.enum(REDACTION_KINDS), z.number());

/** A setting that doesn't parse (worker/shared/config.ts): the variable, what is wrong and where to fix it. */
const configProblem = z.object({ variable: z.string(), message: z.string() });

export const healthResponse = z.object({
  ok: z.boolean(),
  version: z.string(),
  db: z.enum(["ok", "unreachable"]),
  config: z.union([
    z.object({ ok: z.literal(true) }),
    z.object({ ok: z.literal(false), errors: z.array(configProblem) }),
  ]),
});

const catalogModel = z.object({
  id: z.string(),
  provider: z.string(),
  name: z.string(),
  displayName: z.string(),
  priceIn: z.nullable(z.number()),
  priceOut: z.nullable(z.number()),
  contextTokens: z.nullable(z.number()),
  demo: z.boolean(),
  available: z.boolean(),
  reason: z.nullable(z.string()),
});

export const modelsResponse = z.object({
  providers: z.array(
    z.object({
      id: z.string(),
      displayName: z.string(),
      available: z.boolean(),
      reason: z.nullable(z.string()),
      models: z.array(catalogModel),
    }),
  ),
});

/** The demo's example questions: each has a prepared answer per demo model, so it reads well without a key. */
export const examplesResponse = z.object({
  examples: z.array(
    z.object({
      /** a stable slug */
      id: z.string(),
      /** a few words, for a button */
      title: z.string(),
      kind: z.enum(EXAMPLE_KINDS),
      /** the text to put in the question box; the demo recognises it after normalising case, spacing and end punctuation */
      question: z.string(),
    }),
  ),
});

export const providerTestResponse = z.object({
  ok: z.boolean(),
  provider: z.string(),
  message: z.string(),
  /** how long the provider took to answer, when it was asked */
  latencyMs: z.nullable(z.number()),
});

/** Each provider's status and why, the `.dev.vars` lines it lacks, and an OpenAI-compatible server's models. */
export const providersResponse = z.object({
  providers: z.array(
    z.object({
      id: z.string(),
      displayName: z.string(),
      status: z.enum(["available", "not_configured", "error"]),
      reason: z.string(),
      missingLines: z.array(z.string()),
      models: z.array(z.string()),
    }),
  ),
});

// ---- council runs ----

export const runStarted = z.object({ id: z.string(), status: runStatus, redactions: z.optional(redactions) });
export const runAccepted = z.object({ id: z.string(), status: runStatus });

export const runList = z.object({
  items: z.array(
    z.object({
      id: z.string(),
      createdAt: z.number(),
      question: z.string(),
      status: runStatus,
      models: z.array(z.string()),
      /** each model's shown name (a preset's name and version) and a preset's model, keyed by its id */
      names: contestantNames,
      winner: z.nullable(
        z.object({ label: z.string(), modelId: z.nullable(z.string()), displayName: z.nullable(z.string()) }),
      ),
      costHidden: z.boolean(),
      costUsd: z.nullable(z.number()),
      unknownCostModels: z.number(),
    }),
  ),
  /** pass as `cursor` for the next page; null on the last */
  nextCursor: z.nullable(z.string()),
});

export const runDeleted = z.object({ deleted: z.literal(true) });

/** `?format=json`: the run as GET /api/runs/:id answers it, with what the file is. */
export const runExport = z.extend(runDetail, {
  format: z.literal("quorum.run"),
  version: z.string(),
  exportedAt: z.string(),
});

/** `?format=md`: the run as a Markdown page. */
export const runMarkdown = z.string();

// ---- arena comparisons ----

export const comparisonStarted = z.object({
  id: z.string(),
  status: z.string(),
  mode: comparisonMode,
  /** why the mode differs from the one asked for (topper with no qualified leader) */
  modeNote: z.nullable(z.string()),
  redactions: z.optional(redactions),
});

export const comparisonList = z.object({
  items: z.array(
    z.object({
      id: z.string(),
      createdAt: z.number(),
      prompt: z.string(),
      status: comparisonStatus,
      category: z.nullable(z.string()),
      blind: z.boolean(),
      mode: comparisonMode,
      reveal: z.nullable(reveal),
      /** the person's vote (the latest, when it was changed); null before one */
      vote: z.nullable(z.object({ choice: z.enum(VOTE_CHOICES), at: z.number() })),
      /** how many judges gave a verdict; 0 while the sides are still hidden */
      judges: z.number(),
    }),
  ),
  nextCursor: z.nullable(z.string()),
});

export const comparisonAccepted = z.object({ id: z.string(), status: z.string() });
export const messageAccepted = z.object({
  id: z.string(),
  status: z.string(),
  turn: z.number(),
  redactions: z.optional(redactions),
});
export const judgesAccepted = z.object({ accepted: z.literal(true) });

export const voteRecorded = z.object({
  comparisonId: z.string(),
  voteId: z.string(),
  choice: voteChoice,
  rows: z.array(voteRow),
  reveal,
  flags: z.array(voteFlag),
  /** send it back in X-Vote-Receipt to withdraw the vote */
  receipt: z.string(),
});

export const voteWithdrawn = z.object({
  voteId: z.string(),
  status: z.string(),
  comparisonId: z.string(),
  withdrawn: z.literal(true),
});

// ---- share links ----

const shareLink = {
  id: z.string(),
  kind: z.enum(["run", "comparison"]),
  itemId: z.string(),
  createdAt: z.number(),
};

export const shareCreated = z.object({
  ...shareLink,
  /** shown this once: the server keeps only its hash */
  token: z.string(),
  url: z.string(),
});
export const shareList = z.object({ shares: z.array(z.object(shareLink)) });
export const shareRevoked = z.object({ ...shareLink, revoked: z.literal(true) });
export const sharedItem = z.union([
  z.object({ kind: z.literal("run"), item: runDetail }),
  z.object({ kind: z.literal("comparison"), item: comparisonDetail }),
]);

// ---- leaderboard, judges, battles, spend ----

const fitStatus = z.union([
  z.object({
    status: z.literal("ready"),
    /**
     * exact: fitted on these very counts. incremental: the ratings refitted for the battles added since the
     * last exact fit, intervals keeping that fit's widths; the exact refit follows in the background
     */
    mode: z.enum(["exact", "incremental"]),
    models: z.number(),
    rounds: z.number(),
    notice: z.nullable(z.string()),
  }),
  z.object({
    status: z.literal("computing"),
    models: z.number(),
    rounds: z.number(),
    stale: z.boolean(),
    notice: z.nullable(z.string()),
  }),
  z.object({ status: z.literal("refused"), models: z.number(), maxModels: z.number(), notice: z.string() }),
]);

const styleSummary = z.union([
  z.object({ status: z.literal("computing") }),
  z.object({ status: z.literal("refused"), notice: z.string() }),
  z.object({
    status: z.literal("ready"),
    /** arena-rank's contextual Bradley–Terry (style=true), or FastChat's 2024 fit (style=fastchat) */
    method: z.enum(STYLE_METHODS),
    features: z.array(
      z.object({
        name: z.string(),
        beta: z.number(),
        lower: z.nullable(z.number()),
        upper: z.nullable(z.number()),
        oddsFactor: z.number(),
        std: z.number(),
      }),
    ),
    battles: z.number(),
    withoutFeatures: z.number(),
  }),
]);

export const leaderboardResponse = z.object({
  rows: z.array(leaderboardRow),
  source: z.enum(LEADERBOARD_SOURCES),
  category: z.nullable(z.string()),
  /** the prompt label the view is filtered by (docs/arena-and-ratings.md), null for every battle */
  label: z.nullable(z.string()),
  includeFlagged: z.boolean(),
  order: z.enum(["bt", "elo", "trueskill", "winRate"]),
  minAppearances: z.number(),
  /** how the intervals were made: arena-rank's sandwich, or `rounds` rounds of the seeded bootstrap */
  ci: z.enum(INTERVAL_METHODS),
  rounds: z.number(),
  /** whether the fit and its intervals used arena-rank's inverse pair-frequency weights */
  reweight: z.boolean(),
  anchor: z.nullable(z.object({ modelId: z.string(), rating: z.number() })),
  totalBattles: z.number(),
  excludedFlagged: z.number(),
  categories: z.array(z.string()),
  /** prompts per label, for the label filters */
  labels: z.array(z.object({ label: z.string(), prompts: z.number() })),
  /** with QUORUM_DEDUP_PROMPTS on, the battles each heavily repeated prompt keeps and how many were left out; null when off */
  dedup: z.nullable(z.object({ cap: z.number(), removed: z.number() })),
  fit: fitStatus,
  /**
   * online Elo and TrueSkill: `ready`, or `computing` while a background room replays the view's battles (a
   * freshly imported view has more than QUORUM_INLINE_REPLAY_BATTLES to replay); until then the rows carry an
   * older snapshot's ratings (`stale`) or none, and `battles` bounds what is left to replay
   */
  online: z.union([
    z.object({ status: z.literal("ready") }),
    z.object({ status: z.literal("computing"), battles: z.number(), stale: z.boolean() }),
  ]),
  /**
   * the ranking in focus (as QUORUM_ARENA_FOCUS sets it, `all` for the whole order or `topN` for the first N)
   * once no 95% interval overlaps another where it matters: those models, best first; null while it may change
   */
  settled: z.nullable(z.object({ focus: z.string(), models: z.array(z.string()), confidence: z.number() })),
  /**
   * the demo models: the `demo` asked for, and how many of them this view leaves out (0 when it shows them all, or
   * has none): with `auto`, those of a view that mixes them with real models while a real provider is configured
   */
  demo: z.object({ asked: z.enum(DEMO_VIEWS), excludedModels: z.number() }),
  /** with `style=true`, the style-controlled fit; null without */
  style: z.nullable(styleSummary),
});

/** GET /api/leaderboard/odds: who beats whom in a leaderboard view, from the ratings its rows carry. */
export const oddsResponse = z.object({
  /** the models set against each other: those listed, in that order, or the view's top rated ones */
  models: z.array(z.object({ modelId: z.string(), displayName: z.string(), bt: z.nullable(z.number()) })),
  /**
   * `odds[i][j]`: the chance models[i] beats models[j], 1 / (1 + 10^((bt_j − bt_i) / 400)); null on the
   * diagonal and where either model has no rating (yet)
   */
  odds: z.array(z.array(z.nullable(z.number()))),
  source: z.enum(LEADERBOARD_SOURCES),
  category: z.nullable(z.string()),
  includeFlagged: z.boolean(),
  reweight: z.boolean(),
  /** the fit the ratings come from, as on the leaderboard */
  fit: fitStatus,
  /** with `style=true`, the style-controlled fit the odds come from once ready (until then, the plain one's) */
  style: z.nullable(styleSummary),
});

const preference = z.object({ judge: z.nullable(z.number()), humans: z.nullable(z.number()), count: z.number() });

export const judgesResponse = z.object({
  judges: z.array(
    z.object({
      judgeModelId: z.string(),
      displayName: z.string(),
      judged: z.number(),
      withHumans: z.number(),
      agreement: z.nullable(z.number()),
      agreementDecisive: z.nullable(z.number()),
      decisive: z.number(),
      kappa: z.nullable(z.number()),
      flipRate: z.nullable(z.number()),
      selfPreference: preference,
      lengthPreference: preference,
    }),
  ),
});

export const importReport = z.object({
  importId: z.string(),
  /** lines that are battles; of them, `inserted` were new and `alreadyImported` were written by an earlier try */
  accepted: z.number(),
  inserted: z.number(),
  alreadyImported: z.number(),
  rejected: z.number(),
  /** the first rejected lines, with why */
  errors: z.array(z.object({ line: z.number(), message: z.string() })),
});

const archiveSummary = {
  segments: z.number(),
  battles: z.number(),
  modelVotes: z.number(),
  conversations: z.number(),
  messages: z.number(),
  comparisonRows: z.number(),
  throughRowid: z.number(),
  oldest: z.nullable(z.number()),
  newest: z.nullable(z.number()),
};

export const archiveStatus = z.object({
  /** QUORUM_ARCHIVE_AFTER_HOURS, or null when archiving is off */
  afterHours: z.nullable(z.number()),
  bucketBound: z.boolean(),
  ...archiveSummary,
});

export const archivePassResponse = z.object({
  pass: z.object({
    segments: z.number(),
    battles: z.number(),
    stopped: z.nullable(z.string()),
    comparisons: z.number(),
    messages: z.number(),
    comparisonRows: z.number(),
    idempotencyKeys: z.number(),
  }),
  archive: z.object(archiveSummary),
});

/** One line of an export or an import: a Chatbot Arena clean battle (FastChat's format, snake_case). */
export const cleanBattle = z.object({
  model_a: z.string(),
  model_b: z.string(),
  winner: z.enum(["model_a", "model_b", "tie", "tie (bothbad)"]),
  tstamp: z.number(),
  judge: z.optional(z.string()),
  turn: z.optional(z.number()),
  anony: z.optional(z.boolean()),
  language: z.optional(z.string()),
  question_id: z.optional(z.string()),
  category: z.optional(z.string()),
  conv_metadata: z.optional(z.record(z.string(), z.unknown())),
  /** each side's turns, `{ role, content }` a message, kept from the log when it has them */
  conversation_a: z.optional(z.array(z.object({ role: z.string(), content: z.string() }))),
  conversation_b: z.optional(z.array(z.object({ role: z.string(), content: z.string() }))),
  /** where a battle came from, on export only */
  source: z.optional(z.enum(BATTLE_SOURCES)),
});

/** A battle import's body as a JSON array; as JSON Lines, it is one clean battle a line. */
export const cleanBattles = z.array(cleanBattle);

/**
 * lmarena's Kaggle-style CSV (`lmsys-arena-human-preference-55k`): the header
 * `id,model_a,model_b,prompt,response_a,response_b,winner_model_a,winner_model_b,winner_tie`, then one battle a row.
 */
export const kaggleCsv = z.string();

export const spendResponse = z.object({
  /** the UTC day, YYYY-MM-DD */
  day: z.string(),
  spentUsd: z.number(),
  reservedUsd: z.number(),
  /** QUORUM_MAX_DAY_USD, or null without a cap */
  capUsd: z.nullable(z.number()),
  unknownCostCalls: z.number(),
  /** when the day's cap resets (00:00 UTC), in ms since the epoch */
  resetsAt: z.number(),
});

/** What a group of calls cost: priced calls in US dollars, calls without a price counted apart (never as $0). */
const spendFigure = {
  usd: z.number(),
  /** calls that used tokens but whose model has no price: left out of `usd` */
  unknownCostCalls: z.number(),
  calls: z.number(),
};

export const spendHistoryResponse = z.object({
  /** the first UTC day counted and today, YYYY-MM-DD */
  from: z.string(),
  to: z.string(),
  /** every day from `from` to `to`, oldest first, days without a call included */
  byDay: z.array(z.object({ day: z.string(), ...spendFigure })),
  /** most spent first */
  byProvider: z.array(z.object({ provider: z.string(), name: z.string(), ...spendFigure })),
  byModel: z.array(z.object({ modelId: z.string(), provider: z.string(), ...spendFigure })),
  /** runs (answers, syntheses), evaluations (a run's reviews), arena (its sides' replies), judges, classifier (prompt labels) */
  byFeature: z.array(z.object({ feature: z.enum(SPEND_FEATURES), ...spendFigure })),
  total: z.object(spendFigure),
  /** today's figures, as GET /api/spend gives them */
  today: spendResponse,
  /** QUORUM_MAX_RUN_USD (one run or comparison), or null without a cap */
  runCapUsd: z.nullable(z.number()),
});

// ---- prompt sets ----

/** A prompt set without its items. */
export const promptSetSummary = z.object({
  id: z.string(),
  name: z.string(),
  /** 1, or one more than the set it was edited from (`previousId`) once an evaluation had used that one */
  version: z.number(),
  previousId: z.nullable(z.string()),
  /** how many items it holds */
  items: z.number(),
  createdAt: z.number(),
  /** when an evaluation first used it; from then on it never changes (an edit makes a new version) */
  usedAt: z.nullable(z.number()),
});

export const promptSetItem = z.object({
  /** the uploader's id, or `item-<position>` */
  id: z.string(),
  prompt: z.string(),
  category: z.nullable(z.string()),
  /** a reference answer, when the item has one */
  reference: z.nullable(z.string()),
  /** a multi-turn item's earlier turns (user first, ending with the assistant); `prompt` is the next user turn */
  turns: z.nullable(z.array(z.object({ role: z.string(), content: z.string() }))),
  /** what a goal evaluation's battles on this item pursue */
  goal: z.nullable(z.string()),
  /** who the simulated user plays in them */
  persona: z.nullable(z.string()),
  /** what a side writes once the goal is reached */
  marker: z.nullable(z.string()),
});

export const promptSetList = z.object({ items: z.array(promptSetSummary), nextCursor: z.nullable(z.string()) });

/** A set and one page of its items, in the set's order. */
export const promptSetDetail = z.object({
  set: promptSetSummary,
  items: z.array(promptSetItem),
  nextCursor: z.nullable(z.string()),
});

/** A set saved from History: runs' questions and comparisons' first prompts, repeats left out. */
export const promptSetFromHistory = z.extend(promptSetSummary, {
  /** prompts left out because an earlier one in the list had the same text */
  duplicates: z.number(),
});

export const promptSetEdited = z.extend(promptSetSummary, {
  /** `replaced`: the set's items were replaced in place; `new_version`: it was used, so a new set was made */
  edit: z.enum(["replaced", "new_version"]),
});

export const promptSetDeleted = z.object({ deleted: z.literal(true) });

/** An uploaded line's refusal: which line (of the file; a CSV's header is line 1) and why. */
export const promptSetLineError = z.object({ line: z.number(), message: z.string() });

/** One line of an uploaded JSON Lines prompt set (the upload checks it as POST /api/prompt-sets checks an item). */
export const promptSetLine = z.object({
  prompt: z.string(),
  /** your own id, unique in the set; `item-<position>` when left out */
  id: z.optional(z.union([z.string(), z.number()])),
  category: z.optional(z.string()),
  /** a reference answer judges may compare with */
  reference: z.optional(z.string()),
  /** a multi-turn item's earlier turns, user first, ending with the assistant's reply */
  turns: z.optional(z.array(z.object({ role: z.enum(["user", "assistant"]), content: z.string() }))),
});

/** A prompt set as JSON Lines: one item a line, `{ id, prompt, category?, reference?, turns? }`. */
export const promptSetJsonl = z.string();
/** A prompt set as CSV: the header `id,prompt,category,reference,turns` (turns as JSON), then one item a row. */
export const promptSetCsv = z.string();

/** The OpenAPI 3.1 document itself: its top-level fields (the rest is the OpenAPI specification's). */
export const openApiDocument = z.looseObject({
  openapi: z.string(),
  info: z.looseObject({ title: z.string(), version: z.string() }),
  paths: z.record(z.string(), z.unknown()),
});

/** A preset version: a model with its own system prompt and parameters (POST /api/presets). */
export const presetView = z.object({
  /** the contestant id: `preset:<slug>@<version>` */
  id: z.string(),
  slug: z.string(),
  version: z.number(),
  name: z.string(),
  /** the model it runs on */
  modelId: z.string(),
  systemPrompt: z.nullable(z.string()),
  temperature: z.nullable(z.number()),
  maxTokens: z.nullable(z.number()),
  createdAt: z.number(),
  /** its first use by a run, a comparison or an evaluation: from then on this version never changes */
  usedAt: z.nullable(z.number()),
});

export const presetList = z.object({
  /** the newest version of each live preset, newest first */
  presets: z.array(z.extend(presetView, { versions: z.number() })),
});

/** A preset: the version the route named (its newest, given a slug), with every live version of it. */
export const presetDetail = z.extend(presetView, {
  /** newest first */
  versions: z.array(presetView),
});

/** The version an edit is saved as. */
export const presetEdited = z.extend(presetView, {
  /** `in_place`: the newest version was unused and now says this; `new_version`: it was used, so this is n+1 */
  saved: z.enum(["in_place", "new_version"]),
});

export const presetDeleted = z.object({ deleted: z.literal(true), slug: z.string() });

// ---- evaluations ----

export const evaluationEstimate = z.object({
  /** the most it could cost, US dollars, from list prices and each contestant's output allowance */
  usd: z.number(),
  /** contestants and judges with no known price, left out of the figure */
  unpriced: z.array(z.string()),
  answerCalls: z.number(),
  judgeCalls: z.number(),
  /** judge calls left out because the judge wrote one of the two answers */
  selfSkipped: z.number(),
  /** a council evaluation's reviews: every reviewer reviews each item's answers once per sample */
  reviewCalls: z.optional(z.number()),
  /** a goal evaluation's battles: every pair on every item, once per sample (each is a GoalBattleRoom's turns) */
  goalBattles: z.optional(z.number()),
});

export const evaluationStarted = z.object({ id: z.string(), status: evaluationStatus, estimate: evaluationEstimate });
export const evaluationAccepted = z.object({ id: z.string(), status: evaluationStatus });

export const evaluationList = z.object({
  items: z.array(
    z.object({
      id: z.string(),
      createdAt: z.number(),
      name: z.string(),
      promptSetId: z.string(),
      promptSetName: z.nullable(z.string()),
      method: z.string(),
      contestants: z.array(z.string()),
      baseline: z.nullable(z.string()),
      status: evaluationStatus,
      estimateUsd: z.nullable(z.number()),
      spentUsd: z.number(),
      /** each contestant's shown name (a preset's name and version) and a preset's model, keyed by its id */
      names: contestantNames,
      /** the report's leader when no other contestant can be above it at 95% (from the games so far); else null */
      winner: z.nullable(z.string()),
      /** why there is no winner: `not_separable` (the leaders' intervals overlap: `tiedWithBest`) or `no_games` */
      winnerReason: z.nullable(z.enum(["not_separable", "no_games"])),
      tiedWithBest: z.array(z.string()),
    }),
  ),
  nextCursor: z.nullable(z.string()),
});

const nullableNumber = z.nullable(z.number());

/** Every answer and judgment row of an evaluation, for its report. */
export const evaluationRows = z.object({
  answers: z.array(
    z.object({
      itemId: z.string(),
      contestant: z.string(),
      sample: z.number(),
      status: z.enum(["complete", "failed"]),
      text: z.string(),
      error: z.nullable(z.string()),
      latencyMs: nullableNumber,
      firstTokenMs: nullableNumber,
      tokensIn: nullableNumber,
      tokensOut: nullableNumber,
      costUsd: nullableNumber,
      truncated: z.boolean(),
      completedAt: z.number(),
    }),
  ),
  judgments: z.array(
    z.object({
      itemId: z.string(),
      sample: z.number(),
      judge: z.string(),
      first: z.string(),
      second: z.string(),
      status: z.enum(["complete", "failed"]),
      verdict: z.nullable(z.enum(FIVE_POINT_VERDICTS)),
      reasons: z.nullable(z.string()),
      error: z.nullable(z.string()),
      tokensIn: nullableNumber,
      tokensOut: nullableNumber,
      costUsd: nullableNumber,
      completedAt: z.number(),
    }),
  ),
});

// ---- the OpenAI-compatible endpoint (/v1), in OpenAI's own shapes ----

/** Every refusal on /v1: OpenAI's error shape, which its clients read (`code` is Quorum's, as on /api). */
export const openAiErrorResponse = z.object({
  error: z.object({
    message: z.string(),
    /** OpenAI's kind: invalid_request_error, authentication_error, permission_error, rate_limit_error, … */
    type: z.string(),
    /** the request field at fault, when one is */
    param: z.nullable(z.string()),
    code: z.nullable(z.string()),
  }),
});

export const openAiModelList = z.object({
  object: z.literal("list"),
  data: z.array(z.object({ id: z.string(), object: z.literal("model"), created: z.number(), owned_by: z.string() })),
});

const openAiUsage = z.object({
  prompt_tokens: z.number(),
  completion_tokens: z.number(),
  total_tokens: z.number(),
});

export const chatCompletion = z.object({
  id: z.string(),
  object: z.literal("chat.completion"),
  created: z.number(),
  /** the model that actually answered (for `quorum:top`, the leader's id) */
  model: z.string(),
  choices: z.array(
    z.object({
      index: z.number(),
      message: z.object({ role: z.literal("assistant"), content: z.string(), refusal: z.null() }),
      finish_reason: z.enum(["stop", "length"]),
      logprobs: z.null(),
    }),
  ),
  usage: openAiUsage,
});

/** One `data:` line of the stream; the last is `data: [DONE]`. */
export const chatCompletionChunk = z.object({
  id: z.string(),
  object: z.literal("chat.completion.chunk"),
  created: z.number(),
  model: z.string(),
  choices: z.array(
    z.object({
      index: z.number(),
      delta: z.object({ role: z.optional(z.literal("assistant")), content: z.optional(z.string()) }),
      finish_reason: z.nullable(z.enum(["stop", "length"])),
      logprobs: z.null(),
    }),
  ),
  /** with stream_options.include_usage: null on every chunk but the last, which has no choices */
  usage: z.optional(z.nullable(openAiUsage)),
});

// Goal battles: their shapes live beside their events (goal-battle.ts), shared with the page.
export {
  goalBattle,
  goalBattleList,
  goalBattleStarted,
  goalBattleSummary,
  goalMessage,
  goalMessageList,
} from "./goal-battle";

// ---- chat threads (docs/chat.md) ----

export const threadResponse = z.object({ thread });
export const threadList = z.object({
  threads: z.array(threadSummary),
  nextCursor: z.nullable(z.string()),
  /** each thread's model by its shown name (a preset's name and version) and a preset's model, keyed by id */
  names: contestantNames,
});
export const threadDetailResponse = threadDetail;
/** A message sent: the person's message and the reply, which streams over the thread's socket. */
export const threadMessageAccepted = z.object({ userMessage: threadMessage, reply: threadMessage });
export const threadMessageResponse = z.object({ message: threadMessage });
export const threadDeleted = z.object({ deleted: z.literal(true) });
