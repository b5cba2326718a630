import { sql } from "drizzle-orm";
import { index, integer, primaryKey, real, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import type { Winner } from "../rating/battle-outcome";
import type {
  ArenaParams,
  BattleSource,
  ComparisonMode,
  ConversationMessage,
  ComparisonStatus,
  JudgeOrder,
  Side,
  SideStatus,
  SideVerdict,
  VoteChoice,
  VoteFlag,
} from "../shared/arena";
import type {
  AggregationView,
  AnswerStatus,
  ModelParams,
  ReviewStatus,
  RunSettings,
  RunStatus,
  Scores,
} from "../shared/run";
import type { ThreadMessageStatus, ThreadMode } from "../shared/thread";
import type { THREAD_SOURCES } from "../shared/constants";

type ThreadSource = (typeof THREAD_SOURCES)[number];

import type {
  EvaluationMethod,
  GoalBattleState,
  GoalEndedReason,
  GoalJudgeMode,
  GoalSide,
  GoalUserMode,
  GoalWinner,
} from "../shared/constants";
import type { GoalCheck } from "../shared/goal-battle";

const now = sql`(unixepoch('subsec') * 1000)`;

/** A model's online ratings in one stream: Elo, and TrueSkill's mean and deviation. */
export interface OnlineRating {
  elo: number;
  mu: number;
  sigma: number;
}

export const runs = sqliteTable(
  "runs",
  {
    id: text("id").primaryKey(),
    createdAt: integer("created_at").notNull().default(now),
    updatedAt: integer("updated_at").notNull().default(now),
    question: text("question").notNull(),
    settings: text("settings", { mode: "json" })
      .$type<RunSettings & { models: { id: string; params?: ModelParams }[] }>()
      .notNull(),
    status: text("status").$type<RunStatus>().notNull(),
    error: text("error"),
  },
  (t) => [index("runs_created_at").on(t.createdAt, t.id)],
);

export const answers = sqliteTable(
  "answers",
  {
    id: text("id").primaryKey(),
    runId: text("run_id")
      .notNull()
      .references(() => runs.id, { onDelete: "cascade" }),
    modelId: text("model_id").notNull(),
    label: text("label").notNull(),
    params: text("params", { mode: "json" }).$type<ModelParams | null>(),
    text: text("text").notNull().default(""),
    status: text("status").$type<AnswerStatus>().notNull(),
    latencyMs: integer("latency_ms"),
    tokensIn: integer("tokens_in"),
    tokensOut: integer("tokens_out"),
    costUsd: real("cost_usd"),
    error: text("error"),
    truncated: integer("truncated", { mode: "boolean" }).notNull().default(false),
    finishReason: text("finish_reason"),
    attempts: integer("attempts").notNull().default(0),
    droppedParams: text("dropped_params", { mode: "json" }).$type<string[] | null>(),
    completedAt: integer("completed_at"),
  },
  (t) => [uniqueIndex("answers_run_label").on(t.runId, t.label), index("answers_completed_at").on(t.completedAt)],
);

/** One row per reviewer in a run: its whole ranking, raw output and cost. */
export const reviewSets = sqliteTable(
  "review_sets",
  {
    id: text("id").primaryKey(),
    runId: text("run_id")
      .notNull()
      .references(() => runs.id, { onDelete: "cascade" }),
    reviewerModelId: text("reviewer_model_id").notNull(),
    reviewerAnswerId: text("reviewer_answer_id"),
    status: text("status").$type<ReviewStatus>().notNull(),
    ranking: text("ranking", { mode: "json" }).$type<string[] | null>(),
    confidence: real("confidence"),
    weight: real("weight").notNull().default(1),
    rawOutput: text("raw_output"),
    error: text("error"),
    latencyMs: integer("latency_ms"),
    tokensIn: integer("tokens_in"),
    tokensOut: integer("tokens_out"),
    costUsd: real("cost_usd"),
    attempts: integer("attempts").notNull().default(0),
    shownOrder: text("shown_order", { mode: "json" }).$type<string[] | null>(),
    /** when the review ended, for the day's spend (null for reviews before it was kept) */
    completedAt: integer("completed_at"),
  },
  (t) => [index("review_sets_run").on(t.runId), index("review_sets_completed_at").on(t.completedAt)],
);

/** One row per reviewer and answer it judged: the scores and the critique. */
export const reviews = sqliteTable(
  "reviews",
  {
    id: text("id").primaryKey(),
    runId: text("run_id")
      .notNull()
      .references(() => runs.id, { onDelete: "cascade" }),
    reviewSetId: text("review_set_id")
      .notNull()
      .references(() => reviewSets.id, { onDelete: "cascade" }),
    reviewerModelId: text("reviewer_model_id").notNull(),
    targetAnswerId: text("target_answer_id").notNull(),
    scores: text("scores", { mode: "json" }).$type<Scores>().notNull(),
    critique: text("critique").notNull(),
  },
  (t) => [index("reviews_run").on(t.runId)],
);

export const aggregations = sqliteTable("aggregations", {
  runId: text("run_id")
    .primaryKey()
    .references(() => runs.id, { onDelete: "cascade" }),
  finalRanking: text("final_ranking", { mode: "json" }).$type<AggregationView["finalRanking"]>().notNull(),
  voteBreakdown: text("vote_breakdown", { mode: "json" }).$type<AggregationView["voteBreakdown"]>().notNull(),
  methodVersion: text("method_version").notNull(),
  createdAt: integer("created_at").notNull().default(now),
});

/** A run's chair-written final answer, when its settings ask for one. */
export const syntheses = sqliteTable("syntheses", {
  runId: text("run_id")
    .primaryKey()
    .references(() => runs.id, { onDelete: "cascade" }),
  modelId: text("model_id").notNull(),
  status: text("status").$type<AnswerStatus>().notNull(),
  text: text("text").notNull().default(""),
  latencyMs: integer("latency_ms"),
  tokensIn: integer("tokens_in"),
  tokensOut: integer("tokens_out"),
  costUsd: real("cost_usd"),
  error: text("error"),
  truncated: integer("truncated", { mode: "boolean" }).notNull().default(false),
  completedAt: integer("completed_at"),
});

export const comparisons = sqliteTable(
  "comparisons",
  {
    id: text("id").primaryKey(),
    createdAt: integer("created_at").notNull().default(now),
    model1Id: text("model1_id").notNull(),
    model2Id: text("model2_id").notNull(),
    prompt: text("prompt").notNull(),
    category: text("category"),
    blind: integer("blind", { mode: "boolean" }).notNull().default(true),
    mode: text("mode").$type<ComparisonMode>().notNull().default("manual"),
    modeNote: text("mode_note"),
    params: text("params", { mode: "json" }).$type<ArenaParams>(),
    status: text("status").$type<ComparisonStatus>().notNull(),
    bothAnsweredAt: integer("both_answered_at"),
    /** when the first vote was recorded; a withdrawal does not hide the names again */
    revealedAt: integer("revealed_at"),
    /**
     * when it began to count in the leaderboard's appearances (migration 0012's triggers follow this column):
     * at creation when not blind, else at its first vote or once its vote window passed unvoted
     */
    countedAt: integer("counted_at"),
  },
  (t) => [
    index("comparisons_model1").on(t.model1Id),
    // The few blind comparisons still waiting for a vote or for their window: found by age, and counted.
    index("comparisons_uncounted").on(t.createdAt).where(sql`${t.countedAt} IS NULL`),
    index("comparisons_model2").on(t.model2Id),
    index("comparisons_created_at").on(t.createdAt, t.id),
  ],
);

export const messages = sqliteTable(
  "messages",
  {
    comparisonId: text("comparison_id")
      .notNull()
      .references(() => comparisons.id, { onDelete: "cascade" }),
    side: text("side").$type<Side>().notNull(),
    turn: integer("turn").notNull(),
    role: text("role").$type<"user" | "assistant">().notNull(),
    content: text("content").notNull(),
    latencyMs: integer("latency_ms"),
    /** output tokens of an assistant message */
    tokens: integer("tokens"),
    tokensIn: integer("tokens_in"),
    status: text("status").$type<SideStatus>(),
    error: text("error"),
    truncated: integer("truncated", { mode: "boolean" }).notNull().default(false),
    /** an assistant message's cost and when it ended, for the day's spend */
    costUsd: real("cost_usd"),
    completedAt: integer("completed_at"),
  },
  (t) => [
    primaryKey({ columns: [t.comparisonId, t.side, t.turn, t.role] }),
    index("messages_completed_at").on(t.completedAt),
  ],
);

/** Never UPDATEd: a changed vote is a DELETE of its rows plus an INSERT. */
export const modelVotes = sqliteTable(
  "model_votes",
  {
    id: text("id").primaryKey(),
    comparisonId: text("comparison_id")
      .notNull()
      .references(() => comparisons.id, { onDelete: "cascade" }),
    voteId: text("vote_id").notNull(),
    choice: text("choice").$type<VoteChoice>().notNull(),
    winnerModelId: text("winner_model_id"),
    clientId: text("client_id"),
    createdAt: integer("created_at").notNull().default(now),
    flags: text("flags", { mode: "json" }).$type<VoteFlag[]>(),
  },
  (t) => [
    index("model_votes_winner").on(t.winnerModelId),
    index("model_votes_comparison").on(t.comparisonId),
    index("model_votes_vote").on(t.voteId),
  ],
);

/** The one input of Elo and Bradley–Terry, whatever the source. */
export const battles = sqliteTable(
  "battles",
  {
    id: text("id").primaryKey(),
    source: text("source").$type<BattleSource>().notNull(),
    modelA: text("model_a").notNull(),
    modelB: text("model_b").notNull(),
    winner: text("winner").$type<Winner>().notNull(),
    category: text("category"),
    tstamp: real("tstamp").notNull(),
    flagged: integer("flagged", { mode: "boolean" }).notNull().default(false),
    voteId: text("vote_id"),
    runId: text("run_id"),
    reviewerModelId: text("reviewer_model_id"),
    importId: text("import_id"),
    questionId: text("question_id"),
    judge: text("judge"),
    turn: integer("turn"),
    anony: integer("anony", { mode: "boolean" }),
    language: text("language"),
    comparisonId: text("comparison_id"),
    /** Arena's style features, as an import's `conv_metadata` carries them */
    convMetadata: text("conv_metadata", { mode: "json" }).$type<Record<string, unknown>>(),
    /** an import's conversations, each side's turns as FastChat's `conversation_a`/`_b`: `[{ role, content }]` */
    conversationA: text("conversation_a", { mode: "json" }).$type<ConversationMessage[]>(),
    conversationB: text("conversation_b", { mode: "json" }).$type<ConversationMessage[]>(),
    /** source `eval`: the evaluation whose judges gave this battle */
    evaluationId: text("evaluation_id"),
  },
  (t) => [
    index("battles_source_tstamp").on(t.source, t.tstamp),
    index("battles_run").on(t.runId),
    index("battles_vote").on(t.voteId),
    index("battles_import").on(t.importId),
    // A label filter finds a comparison's battles (its vote's and its judges') from the comparison's labels.
    index("battles_comparison").on(t.comparisonId),
    index("battles_evaluation").on(t.evaluationId).where(sql`${t.evaluationId} IS NOT NULL`),
  ],
);

/**
 * The prompt of a voted comparison or of an imported battle (`ref`: the comparison's id, or the battle's): the
 * hash the leaderboard's dedup counts repeats by, and, while the label pass has yet to read it, its text.
 */
export const prompts = sqliteTable(
  "prompts",
  {
    ref: text("ref").primaryKey(),
    /** of the user's turns (rules.ts promptHash); null when an imported log carried no conversation */
    hash: text("hash"),
    /** the user's turns, kept only until the label pass has read them */
    text: text("text"),
    /** user turns; null when unknown */
    turns: integer("turns"),
    /** when it was queued for the label pass; null once the pass is done with it */
    pendingSince: integer("pending_since"),
  },
  (t) => [
    index("prompts_hash").on(t.hash),
    index("prompts_pending").on(t.pendingSince).where(sql`${t.pendingSince} IS NOT NULL`),
  ],
);

/**
 * The Arena's categories per prompt (`ref` as in `prompts`), each with where it came from: the classifier
 * model's id, `rule` (read off the conversation) or `import` (the imported log said so). Keyed by label first,
 * so a leaderboard filtered by one walks only that label's prompts.
 */
export const promptLabels = sqliteTable(
  "prompt_labels",
  {
    label: text("label").notNull(),
    ref: text("ref").notNull(),
    source: text("source").notNull(),
  },
  (t) => [primaryKey({ columns: [t.label, t.ref] }), index("prompt_labels_ref").on(t.ref)],
);

/**
 * Outcome counts per prompt label and pair of models, as `pair_counts` keeps them per category: kept in step by
 * triggers (migrations/0015) both when a label is added to a prompt that has battles and when a battle of a
 * labelled prompt is added or deleted, so a label's view reads counters, never the battles.
 */
export const labelPairCounts = sqliteTable(
  "label_pair_counts",
  {
    label: text("label").notNull(),
    source: text("source").$type<BattleSource>().notNull(),
    category: text("category").notNull(),
    flagged: integer("flagged", { mode: "boolean" }).notNull(),
    modelLo: text("model_lo").notNull(),
    modelHi: text("model_hi").notNull(),
    loWins: integer("lo_wins").notNull().default(0),
    hiWins: integer("hi_wins").notNull().default(0),
    ties: integer("ties").notNull().default(0),
    bothBad: integer("both_bad").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.label, t.source, t.category, t.flagged, t.modelLo, t.modelHi] })],
);

/**
 * Battles per prompt (by its hash) in each source, category ('' = every category) and flag, kept in step by
 * triggers (migrations/0015) as battles and prompts are added and battles deleted: how often each prompt was
 * asked, which the Arena's dedup reads instead of counting the battles.
 */
export const promptRepeats = sqliteTable(
  "prompt_repeats",
  {
    source: text("source").$type<BattleSource>().notNull(),
    category: text("category").notNull(),
    flagged: integer("flagged", { mode: "boolean" }).notNull(),
    hash: text("hash").notNull(),
    battles: integer("battles").notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.source, t.category, t.flagged, t.hash] }),
    // One source's counted battles: the most repeated prompts and the count's percentile straight off the index.
    index("prompt_repeats_battles").on(t.source, t.category, t.flagged, t.battles),
  ],
);

/** Prompts per label, kept in step with `prompt_labels` by a trigger (migrations/0015), for the label filters. */
export const labelCounts = sqliteTable("label_counts", {
  label: text("label").primaryKey(),
  prompts: integer("prompts").notNull().default(0),
});

/**
 * Outcome counts per pair of models, kept in step with `battles` by triggers (migrations/0002):
 * one row per source, category ('' = every category), flagged or not, and pair (model_lo < model_hi).
 * The leaderboard and Bradley–Terry read these, never the battles.
 */
export const pairCounts = sqliteTable(
  "pair_counts",
  {
    source: text("source").$type<BattleSource>().notNull(),
    category: text("category").notNull(),
    flagged: integer("flagged", { mode: "boolean" }).notNull(),
    modelLo: text("model_lo").notNull(),
    modelHi: text("model_hi").notNull(),
    loWins: integer("lo_wins").notNull().default(0),
    hiWins: integer("hi_wins").notNull().default(0),
    ties: integer("ties").notNull().default(0),
    bothBad: integer("both_bad").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.source, t.category, t.flagged, t.modelLo, t.modelHi] })],
);

/**
 * Outcome counts per model, in the same slices as `pair_counts` (source, category, flagged), kept in step with
 * `battles` by triggers (migrations/0018): each model's sums of its pairs, so a large view's rows are read from a
 * thousand rows, not its pairs. `wins` count a tie for both and both-bad for neither (seed 000); `ties` are `tie`s.
 */
export const modelCounts = sqliteTable(
  "model_counts",
  {
    source: text("source").$type<BattleSource>().notNull(),
    category: text("category").notNull(),
    flagged: integer("flagged", { mode: "boolean" }).notNull(),
    modelId: text("model_id").notNull(),
    wins: integer("wins").notNull().default(0),
    battles: integer("battles").notNull().default(0),
    ties: integer("ties").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.source, t.category, t.flagged, t.modelId] })],
);

/** Comparisons each model took part in (seed 000's appearances), per category ('' = every category); kept by triggers. */
export const modelAppearances = sqliteTable(
  "model_appearances",
  {
    category: text("category").notNull(),
    modelId: text("model_id").notNull(),
    appearances: integer("appearances").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.category, t.modelId] })],
);

/** Bumped by a trigger whenever a battle of the source is deleted: online Elo must then be replayed. */
export const battleEpochs = sqliteTable("battle_epochs", {
  source: text("source").$type<BattleSource>().primaryKey(),
  epoch: integer("epoch").notNull().default(0),
});

/** Online Elo and TrueSkill after the battles of one stream up to `uptoRowid`, so each read only replays what is new. */
export const eloSnapshots = sqliteTable("elo_snapshots", {
  stream: text("stream").primaryKey(),
  epoch: integer("epoch").notNull(),
  uptoRowid: integer("upto_rowid").notNull(),
  lastTstamp: real("last_tstamp").notNull(),
  ratings: text("ratings", { mode: "json" }).$type<Record<string, OnlineRating>>().notNull(),
});

/** One row per judge and comparison, written with its battle once the comparison's first vote is in. */
export const judgeVerdicts = sqliteTable(
  "judge_verdicts",
  {
    comparisonId: text("comparison_id").notNull(),
    judgeModelId: text("judge_model_id").notNull(),
    verdict: text("verdict").$type<SideVerdict>().notNull(),
    flipped: integer("flipped", { mode: "boolean" }).notNull(),
    orders: text("orders", { mode: "json" }).$type<[JudgeOrder | null, JudgeOrder | null]>().notNull(),
    /** characters of each side's replies, for the judge's length preference */
    leftChars: integer("left_chars").notNull(),
    rightChars: integer("right_chars").notNull(),
    createdAt: integer("created_at").notNull().default(now),
  },
  (t) => [primaryKey({ columns: [t.comparisonId, t.judgeModelId] }), index("judge_verdicts_judge").on(t.judgeModelId)],
);

export const idempotencyKeys = sqliteTable("idempotency_keys", {
  key: text("key").primaryKey(),
  comparisonId: text("comparison_id").notNull(),
  response: text("response", { mode: "json" }).notNull(),
  createdAt: integer("created_at").notNull().default(now),
});

/**
 * Read-only share links to one run or comparison. Only the token's SHA-256 is kept, so a copy of the
 * database opens no link; a revoked link keeps its row (with `revoked_at`), a deleted item loses its rows
 * (triggers in migrations/0005).
 */
export const shares = sqliteTable(
  "shares",
  {
    id: text("id").primaryKey(),
    tokenHash: text("token_hash").notNull(),
    kind: text("kind").$type<"run" | "comparison">().notNull(),
    itemId: text("item_id").notNull(),
    createdAt: integer("created_at").notNull().default(now),
    revokedAt: integer("revoked_at"),
  },
  (t) => [uniqueIndex("shares_token_hash").on(t.tokenHash), index("shares_item").on(t.kind, t.itemId)],
);

/**
 * Spend that has no record of its own: judge, classifier and /v1 calls, and (by triggers in migrations/0006) the calls of
 * answers, reviews, syntheses and messages deleted after they were paid for, so deleting a run or
 * re-running its review never lowers what the day has spent.
 */
export const spendEntries = sqliteTable(
  "spend_entries",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    kind: text("kind")
      .$type<"judge" | "answer" | "review" | "synthesis" | "side" | "classifier" | "v1" | "goal" | "chat">()
      .notNull(),
    /** the run or comparison that paid for the call (null for entries kept before it was recorded) */
    itemId: text("item_id"),
    modelId: text("model_id").notNull(),
    tokensIn: integer("tokens_in"),
    tokensOut: integer("tokens_out"),
    costUsd: real("cost_usd"),
    completedAt: integer("completed_at").notNull(),
  },
  (t) => [index("spend_entries_completed_at").on(t.completedAt), index("spend_entries_item").on(t.itemId)],
);

/**
 * Money set aside for accepted work until it settles (worker/api/spend.ts): one row per request that may
 * call a provider. A hold counts against its UTC day's cap and its run's or comparison's own cap while it
 * is open and unexpired; once settled, the calls' own rows count instead. A hidden hold (blind work) keeps
 * counting at its reserved amount, and the item's own calls stay out of every figure, until the item is
 * revealed (a blind comparison's first vote, a blind run's end): so no figure moves by a blind side's price.
 */
export const spendHolds = sqliteTable(
  "spend_holds",
  {
    id: text("id").primaryKey(),
    itemId: text("item_id").notNull(),
    /** 00:00 UTC of the day whose cap it counts against (ms) */
    day: integer("day").notNull(),
    usd: real("usd").notNull(),
    hidden: integer("hidden", { mode: "boolean" }).notNull(),
    /** the per-million prices blind work of this item is reserved at (the pool's highest), kept for its later requests */
    blindPriceIn: real("blind_price_in"),
    blindPriceOut: real("blind_price_out"),
    createdAt: integer("created_at").notNull(),
    /** an open hold stops counting here, so a room that died with it open doesn't hold the money for good */
    expiresAt: integer("expires_at").notNull(),
    settledAt: integer("settled_at"),
    revealedAt: integer("revealed_at"),
  },
  (t) => [index("spend_holds_day").on(t.day), index("spend_holds_item").on(t.itemId)],
);

/**
 * Secrets the server generates once and keeps (today one: `signing`, the key of id tags and vote receipts,
 * used when QUORUM_SECRET is unset). The first isolate to need one inserts it; every other reads the same row.
 */
export const serverSecrets = sqliteTable("server_secrets", {
  name: text("name").primaryKey(),
  value: text("value").notNull(),
});

/**
 * A contestant that is more than a model: a model with its own system prompt and generation parameters, named
 * `preset:<slug>@<version>`. A version is immutable once `usedAt` is set (any run, comparison or evaluation used
 * it); an edit after that writes version n+1, so old results keep meaning what they meant.
 */
export const presets = sqliteTable(
  "presets",
  {
    slug: text("slug").notNull(),
    version: integer("version").notNull(),
    name: text("name").notNull(),
    modelId: text("model_id").notNull(),
    systemPrompt: text("system_prompt"),
    temperature: real("temperature"),
    maxTokens: integer("max_tokens"),
    createdAt: integer("created_at").notNull().default(now),
    /** first use by a run, comparison or evaluation; from then on this version never changes */
    usedAt: integer("used_at"),
    deletedAt: integer("deleted_at"),
  },
  (t) => [primaryKey({ columns: [t.slug, t.version] })],
);

/**
 * A named list of prompts an evaluation runs over. Immutable once an evaluation used it (`usedAt`); an edit
 * after that is a new set whose `previousId` points at this one, numbered `version` n+1.
 */
export const promptSets = sqliteTable(
  "prompt_sets",
  {
    id: text("id").primaryKey(),
    name: text("name").notNull(),
    version: integer("version").notNull().default(1),
    previousId: text("previous_id"),
    items: integer("items").notNull(),
    createdAt: integer("created_at").notNull().default(now),
    usedAt: integer("used_at"),
  },
  (t) => [index("prompt_sets_created_at").on(t.createdAt, t.id)],
);

/** One prompt of a set, in the set's order; `itemId` is the uploader's id or `item-<position>`. */
export const promptSetItems = sqliteTable(
  "prompt_set_items",
  {
    setId: text("set_id")
      .notNull()
      .references(() => promptSets.id, { onDelete: "cascade" }),
    position: integer("position").notNull(),
    itemId: text("item_id").notNull(),
    prompt: text("prompt").notNull(),
    category: text("category"),
    reference: text("reference"),
    /** a multi-turn item's earlier turns, `[{ role, content }]`; `prompt` is the last user turn */
    turns: text("turns", { mode: "json" }).$type<ConversationMessage[]>(),
    /** what a goal evaluation's battles on this item pursue (the `goal` method needs one on every item) */
    goal: text("goal"),
    /** who the simulated user plays in this item's goal battles */
    persona: text("persona"),
    /** what a side writes once this item's goal is reached */
    marker: text("marker"),
  },
  (t) => [primaryKey({ columns: [t.setId, t.position] }), uniqueIndex("prompt_set_items_item").on(t.setId, t.itemId)],
);

/** An evaluation: what was asked for, where it stands, and what it has spent (the room keeps the live state). */
export const evaluations = sqliteTable(
  "evaluations",
  {
    id: text("id").primaryKey(),
    name: text("name").notNull(),
    promptSetId: text("prompt_set_id").notNull(),
    method: text("method").$type<EvaluationMethod>().notNull(),
    contestants: text("contestants", { mode: "json" }).$type<string[]>().notNull(),
    judges: text("judges", { mode: "json" }).$type<string[]>().notNull(),
    baseline: text("baseline"),
    repeats: integer("repeats").notNull().default(1),
    /** the request's rubric and settings as given */
    settings: text("settings", { mode: "json" }).$type<Record<string, unknown>>().notNull(),
    status: text("status").$type<"queued" | "running" | "paused" | "completed" | "cancelled" | "failed">().notNull(),
    estimateUsd: real("estimate_usd"),
    spentUsd: real("spent_usd").notNull().default(0),
    error: text("error"),
    createdAt: integer("created_at").notNull().default(now),
    updatedAt: integer("updated_at").notNull().default(now),
    finishedAt: integer("finished_at"),
  },
  (t) => [index("evaluations_created_at").on(t.createdAt, t.id), index("evaluations_set").on(t.promptSetId)],
);

/** One contestant's answer to one item (sample `sample` of `repeats`). */
export const evaluationAnswers = sqliteTable(
  "evaluation_answers",
  {
    evaluationId: text("evaluation_id")
      .notNull()
      .references(() => evaluations.id, { onDelete: "cascade" }),
    itemId: text("item_id").notNull(),
    contestant: text("contestant").notNull(),
    sample: integer("sample").notNull().default(0),
    status: text("status").$type<"complete" | "failed">().notNull(),
    text: text("text").notNull().default(""),
    error: text("error"),
    latencyMs: integer("latency_ms"),
    firstTokenMs: integer("first_token_ms"),
    tokensIn: integer("tokens_in"),
    tokensOut: integer("tokens_out"),
    costUsd: real("cost_usd"),
    truncated: integer("truncated", { mode: "boolean" }).notNull().default(false),
    completedAt: integer("completed_at").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.evaluationId, t.itemId, t.contestant, t.sample] }),
    // The day's spend reads every paid call since 00:00 UTC.
    index("evaluation_answers_completed_at").on(t.completedAt),
  ],
);

/**
 * One judge's verdict on one ordered pair of answers to an item: `first` was shown as A. Both orders of a pair
 * are two rows; each is its own game (arena-hard-auto's counting).
 */
export const evaluationJudgments = sqliteTable(
  "evaluation_judgments",
  {
    evaluationId: text("evaluation_id")
      .notNull()
      .references(() => evaluations.id, { onDelete: "cascade" }),
    itemId: text("item_id").notNull(),
    sample: integer("sample").notNull().default(0),
    judge: text("judge").notNull(),
    first: text("first").notNull(),
    second: text("second").notNull(),
    status: text("status").$type<"complete" | "failed">().notNull(),
    /** five-point verdict as A and B were shown: `A>>B`, `A>B`, `A=B`, `B>A`, `B>>A` */
    verdict: text("verdict").$type<"A>>B" | "A>B" | "A=B" | "B>A" | "B>>A">(),
    reasons: text("reasons"),
    error: text("error"),
    tokensIn: integer("tokens_in"),
    tokensOut: integer("tokens_out"),
    costUsd: real("cost_usd"),
    completedAt: integer("completed_at").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.evaluationId, t.itemId, t.sample, t.judge, t.first, t.second] }),
    index("evaluation_judgments_completed_at").on(t.completedAt),
  ],
);

/** One side's running totals in a goal battle, as its D1 row keeps them (the room keeps the live ones). */
export interface GoalSideTotals {
  tokensIn: number;
  tokensOut: number;
  latencyMs: number;
  turns: number;
  costUsd: number | null;
  goalReachedAt: number | null;
  failed: boolean;
}

/**
 * A goal battle (docs/goal-battles.md): two contestants, one goal, a simulated user, turns until the goal, the limit,
 * a failure or a stop. The room keeps the live state; this row is what lists, the leaderboard's battle and exports
 * read. `contestant_a`/`_b` are stored from the start and shown only once the battle is over (blind).
 */
export const goalBattles = sqliteTable(
  "goal_battles",
  {
    id: text("id").primaryKey(),
    createdAt: integer("created_at").notNull().default(now),
    state: text("state").$type<GoalBattleState>().notNull(),
    goal: text("goal").notNull(),
    systemPrompt: text("system_prompt").notNull().default(""),
    judgeMode: text("judge_mode").$type<GoalJudgeMode>().notNull(),
    userMode: text("user_mode").$type<GoalUserMode>().notNull(),
    userModelId: text("user_model_id"),
    persona: text("persona"),
    category: text("category"),
    maxTurns: integer("max_turns").notNull(),
    currentTurn: integer("current_turn").notNull().default(0),
    contestantA: text("contestant_a").notNull(),
    contestantB: text("contestant_b").notNull(),
    displayNameA: text("display_name_a").notNull(),
    displayNameB: text("display_name_b").notNull(),
    sides: text("sides", { mode: "json" }).$type<{ A: GoalSideTotals; B: GoalSideTotals }>().notNull(),
    endedReason: text("ended_reason").$type<GoalEndedReason>(),
    winner: text("winner").$type<GoalWinner>(),
    rationale: text("rationale"),
    voteChoice: text("vote_choice").$type<VoteChoice>(),
    startedAt: integer("started_at"),
    endedAt: integer("ended_at"),
    /** the request's checks and limits: marker, judge, script, timeouts, temperature, max tokens */
    settings: text("settings", { mode: "json" }).$type<Record<string, unknown>>().notNull(),
    /** the goal evaluation that played it; null for a battle launched on its own */
    evaluationId: text("evaluation_id"),
  },
  (t) => [
    index("goal_battles_created_at").on(t.createdAt, t.id),
    // The Battles list leaves an evaluation's battles out, and an evaluation lists its own: both read this.
    index("goal_battles_evaluation").on(t.evaluationId, t.createdAt, t.id),
  ],
);

/**
 * One message of a goal battle's transcript: per side and turn, the user's message (what that side was asked) and
 * the side's reply with the goal check made on it.
 */
export const goalBattleMessages = sqliteTable(
  "goal_battle_messages",
  {
    battleId: text("battle_id")
      .notNull()
      .references(() => goalBattles.id, { onDelete: "cascade" }),
    turn: integer("turn").notNull(),
    side: text("side").$type<GoalSide>().notNull(),
    role: text("role").$type<"user" | "assistant">().notNull(),
    content: text("content").notNull(),
    tokensIn: integer("tokens_in"),
    tokensOut: integer("tokens_out"),
    latencyMs: integer("latency_ms"),
    goalCheck: text("goal_check", { mode: "json" }).$type<GoalCheck>(),
    error: text("error"),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.battleId, t.side, t.turn, t.role] })],
);

/**
 * Chat threads (docs/chat.md): a conversation begun on the chat page or by a call to /v1/chat/completions. Its
 * ThreadRoom keeps these rows in step with its own storage; `updated_at` moves with every message, so the list is
 * newest activity first.
 */
export const threads = sqliteTable(
  "threads",
  {
    id: text("id").primaryKey(),
    title: text("title").notNull(),
    systemPrompt: text("system_prompt"),
    /** the single mode's model: a model id or a preset id */
    modelId: text("model_id"),
    mode: text("mode").$type<ThreadMode>().notNull(),
    category: text("category"),
    source: text("source").$type<ThreadSource>().notNull(),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [index("threads_updated_at").on(t.updatedAt, t.id)],
);

/**
 * A thread's messages in order. A dual reply names its arena comparison without a foreign key: the comparison, its
 * vote and its battle stay when the message or its thread is deleted.
 */
export const threadMessages = sqliteTable(
  "thread_messages",
  {
    id: text("id").primaryKey(),
    threadId: text("thread_id")
      .notNull()
      .references(() => threads.id, { onDelete: "cascade" }),
    seq: integer("seq").notNull(),
    role: text("role").$type<"user" | "assistant">().notNull(),
    content: text("content").notNull(),
    mode: text("mode").$type<ThreadMode>().notNull(),
    status: text("status").$type<ThreadMessageStatus>().notNull(),
    modelId: text("model_id"),
    displayName: text("display_name"),
    reason: text("reason"),
    comparisonId: text("comparison_id"),
    tokensIn: integer("tokens_in"),
    tokensOut: integer("tokens_out"),
    latencyMs: integer("latency_ms"),
    costUsd: real("cost_usd"),
    error: text("error"),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [
    uniqueIndex("thread_messages_seq").on(t.threadId, t.seq),
    index("thread_messages_comparison").on(t.comparisonId),
  ],
);

/**
 * One reviewer's blind review of one item's answers in a council evaluation (a council round among the
 * contestants): its ranking and per-answer critique and scores, by contestant id once the labels are read back.
 */
export const evaluationReviews = sqliteTable(
  "evaluation_reviews",
  {
    evaluationId: text("evaluation_id")
      .notNull()
      .references(() => evaluations.id, { onDelete: "cascade" }),
    itemId: text("item_id").notNull(),
    sample: integer("sample").notNull().default(0),
    reviewer: text("reviewer").notNull(),
    status: text("status").$type<"complete" | "failed">().notNull(),
    /** the contestants it ranked, best first (its own answer left out) */
    ranking: text("ranking", { mode: "json" }).$type<string[]>(),
    /** per contestant it judged: its critique and scores by the rubric's keys */
    reviews: text("reviews", { mode: "json" }).$type<EvaluationReviewEntry[]>(),
    confidence: real("confidence"),
    error: text("error"),
    tokensIn: integer("tokens_in"),
    tokensOut: integer("tokens_out"),
    costUsd: real("cost_usd"),
    completedAt: integer("completed_at").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.evaluationId, t.itemId, t.sample, t.reviewer] }),
    index("evaluation_reviews_completed_at").on(t.completedAt),
  ],
);

export interface EvaluationReviewEntry {
  contestant: string;
  critique: string;
  scores: Record<string, number>;
}

/**
 * One goal battle of a goal evaluation (docs/evaluations.md): the pair on an item and sample, `first` on side A, the
 * battle that played it (its transcript at /goal-battles/:battleId) and its outcome. Its cost is the battle's own
 * calls', which the battle keeps in `spend_entries`, so the day's spend doesn't read it from here.
 */
export const evaluationGoals = sqliteTable(
  "evaluation_goals",
  {
    evaluationId: text("evaluation_id")
      .notNull()
      .references(() => evaluations.id, { onDelete: "cascade" }),
    itemId: text("item_id").notNull(),
    sample: integer("sample").notNull().default(0),
    first: text("first").notNull(),
    second: text("second").notNull(),
    battleId: text("battle_id").notNull(),
    status: text("status").$type<"complete" | "failed">().notNull(),
    winner: text("winner").$type<GoalWinner>(),
    endedReason: text("ended_reason").$type<GoalEndedReason>(),
    rationale: text("rationale"),
    /** turns played */
    turns: integer("turns"),
    /** each side's totals as the battle ended (side A is `first`); null when it never ended */
    sides: text("sides", { mode: "json" }).$type<{ A: GoalSideTotals; B: GoalSideTotals }>(),
    error: text("error"),
    completedAt: integer("completed_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.evaluationId, t.itemId, t.sample, t.first, t.second] })],
);
