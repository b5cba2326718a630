/**
 * The names and limits both the Worker and the page spell out: the Worker's schemas are built on them and
 * the page imports them from here rather than keeping copies. No imports, zod least of all, so importing
 * this costs the page's first load only the values themselves.
 */

export const SIDES = ["left", "right"] as const;
export const VOTE_CHOICES = ["left", "right", "tie", "both-bad"] as const;
export const COMPARISON_STATUSES = ["pending", "answering", "ready", "voted", "failed"] as const;
export const COMPARISON_MODES = ["manual", "sampled", "topper"] as const;
export const SIDE_STATUSES = ["pending", "streaming", "done", "failed"] as const;
/** Why a vote is kept but left out of statistics and ratings by default. */
export const VOTE_FLAGS = ["too_fast", "duplicate", "identity_leak", "revealed"] as const;
/**
 * Where a battle came from; `eval` battles carry their evaluation's id, `goal` battles their goal battle's (as
 * `question_id`), and neither mixes with the rest except under `all`.
 */
export const BATTLE_SOURCES = ["human", "judge", "import", "eval", "goal"] as const;
/** What the leaderboard and the battle export read: one source of battles, or all of them together. */
export const LEADERBOARD_SOURCES = [...BATTLE_SOURCES, "all"] as const;
export const LEADERBOARD_ORDERS = ["bt", "elo", "trueskill", "winRate"] as const;
/**
 * Whether the leaderboard shows the offline demo models: `auto` leaves them out of a view that mixes them with real
 * models once a real provider is configured (with none, they are what there is, and stay); `include` always shows
 * them, `exclude` never does.
 */
export const DEMO_VIEWS = ["auto", "include", "exclude"] as const;
/** How the leaderboard's intervals are made: arena-rank's closed form, or the seeded bootstrap. */
export const INTERVAL_METHODS = ["sandwich", "bootstrap"] as const;
/** Style control as arena-rank fits it today (the default), or as FastChat fitted it in 2024. */
export const STYLE_METHODS = ["arena-rank", "fastchat"] as const;
/** How an exported battle log spells both-bad: FastChat's "tie (bothbad)", or lmarena's "both_bad". */
export const BATTLE_LOG_SPELLINGS = ["fastchat", "lmarena"] as const;
export const SELF_REVIEW_MODES = ["exclude", "downweight"] as const;
/** "calibrated" weighs each reviewer by how often it agreed with people as an arena judge */
export const REVIEWER_WEIGHTS = ["equal", "calibrated"] as const;
export const EXPORT_FORMATS = ["json", "md"] as const;
/** What an example question asks for: the demo's examples cover one of each. */
export const EXAMPLE_KINDS = [
  "choice",
  "coding",
  "explanation",
  "writing",
  "estimation",
  "debugging",
  "statistics",
] as const;
/**
 * The Arena's prompt categories a comparison or imported battle may be labelled with (docs/arena-and-ratings.md);
 * a prompt's language is a label too, spelled `lang:` and its ISO 639-1 code (`lang:en`).
 */
export const PROMPT_LABELS = [
  "coding",
  "math",
  "creative_writing",
  "instruction_following",
  "hard_prompt",
  "multi_turn",
  "long_query",
] as const;
export const LANGUAGE_LABEL_PREFIX = "lang:";
/** Where a label came from: the classifier model's id, a rule on the conversation itself, or the imported log. */
export const LABEL_RULE_SOURCE = "rule";
export const LABEL_IMPORT_SOURCE = "import";

/** Models the leaderboard's "who beats whom" odds show when none are listed, and the most that may be listed. */
/**
 * What the spend page groups calls by: a run's answers and syntheses; its reviews; an arena side's replies; judges;
 * the prompt classifier; calls to the OpenAI-compatible endpoint (/v1); goal battles (sides, simulated user, checks, judge);
 * a chat thread's single and topper replies (a dual reply is an arena comparison, counted there).
 */
export const SPEND_FEATURES = [
  "runs",
  "evaluations",
  "arena",
  "judges",
  "classifier",
  "endpoint",
  "goal",
  "chat",
] as const;

/**
 * How a thread's message is answered: one model or preset (`single`), two blind models and a vote (`dual`), or the
 * human leaderboard's leader (`topper`).
 */
export const THREAD_MODES = ["single", "dual", "topper"] as const;
/** Where a thread began: the chat page, or a call to /v1/chat/completions. */
export const THREAD_SOURCES = ["page", "v1"] as const;
/**
 * A thread message's state: a reply streams, then is done or failed; a dual reply waits for its comparison's vote,
 * then (after a tie or both-bad) for the person to pick the side that continues.
 */
export const THREAD_MESSAGE_STATUSES = ["streaming", "done", "failed", "awaiting_vote", "awaiting_choice"] as const;
/** The longest a thread's title may be. */
export const THREAD_TITLE_MAX = 200;

export const ODDS_TOP_MODELS = 10;
export const ODDS_MAX_MODELS = 30;
/** Judges one comparison may ask at once. */
export const MAX_JUDGES = 8;
/** Models one council run may take: one label each, A to Z. */
export const MAX_RUN_MODELS = 26;
/** Reviewers one council run may list: every answerer of the largest run and as many judge-only models as a comparison's judges. */
export const MAX_REVIEWERS = MAX_RUN_MODELS + MAX_JUDGES;
/** A custom rubric's dimensions: how many, how a key is spelled, how long a description and how heavy a weight may be. */
export const MAX_RUBRIC_DIMENSIONS = 10;
export const RUBRIC_KEY_PATTERN = "^[a-z][a-z0-9_-]{0,31}$";
export const MAX_RUBRIC_DESCRIPTION = 300;
export const MAX_RUBRIC_WEIGHT = 100;
/** A run's category (it picks a rubric's per-category weights), as long as a comparison's may be. */
export const MAX_CATEGORY_LENGTH = 100;
/** The bounds of the parameters a model is asked with, and of a run's settings. */
export const MAX_TEMPERATURE = 2;
export const MAX_OUTPUT_TOKENS = 200_000;
export const MAX_CONCURRENCY = 16;
export const MIN_TIMEOUT_MS = 100;
export const MAX_TIMEOUT_MS = 900_000;

/**
 * Evaluations: without a baseline every pair of contestants is judged, so their number stays small; with one,
 * each contestant meets only the baseline. Repeats are samples of the same item per contestant.
 */
export const EVALUATION_METHODS = ["pairwise", "council", "goal"] as const;
export type EvaluationMethod = (typeof EVALUATION_METHODS)[number];
export const MAX_PAIRWISE_CONTESTANTS = 6;
/** a council round's answers all go to every reviewer, so a council evaluation has as few as a run */
export const MAX_COUNCIL_CONTESTANTS = 6;
export const MAX_BASELINE_CONTESTANTS = 20;
/** every pair of a goal evaluation's contestants battles on every item, so as few as pairwise without a baseline */
export const MAX_GOAL_CONTESTANTS = 6;
export const MAX_EVALUATION_JUDGES = 4;
export const MAX_EVALUATION_REPEATS = 5;
/** arena-hard-auto's five-point verdict, as the judge saw A and B */
export const FIVE_POINT_VERDICTS = ["A>>B", "A>B", "A=B", "B>A", "B>>A"] as const;
export const EVALUATION_STATUSES = ["queued", "running", "paused", "completed", "cancelled", "failed"] as const;

/**
 * Comparisons an agreement figure must rest on before a page states it as a percentage: below this, one or two
 * lucky matches read as "100% agreement", so the page says "too few to say" and shows the count instead. The same
 * bar lets a reviewer's record with people set its calibrated weight.
 */
export const MIN_AGREEMENT_COMPARISONS = 5;
/**
 * Human arena votes a pair of contestants needs before an evaluation's report holds a judge's verdict on that pair
 * against the people's: fewer, and the people's side is a coin's.
 */
export const MIN_HUMAN_VOTES_PER_PAIR = MIN_AGREEMENT_COMPARISONS;

export type Side = (typeof SIDES)[number];
export type VoteChoice = (typeof VOTE_CHOICES)[number];
export type ComparisonStatus = (typeof COMPARISON_STATUSES)[number];
export type ComparisonMode = (typeof COMPARISON_MODES)[number];
export type SideStatus = (typeof SIDE_STATUSES)[number];
export type VoteFlag = (typeof VOTE_FLAGS)[number];
export type BattleSource = (typeof BATTLE_SOURCES)[number];
export type LeaderboardSource = (typeof LEADERBOARD_SOURCES)[number];
export type LeaderboardOrder = (typeof LEADERBOARD_ORDERS)[number];
export type DemoView = (typeof DEMO_VIEWS)[number];
export type StyleMethod = (typeof STYLE_METHODS)[number];
export type SelfReviewMode = (typeof SELF_REVIEW_MODES)[number];
export type ReviewerWeights = (typeof REVIEWER_WEIGHTS)[number];
export type ExportFormat = (typeof EXPORT_FORMATS)[number];
export type ExampleKind = (typeof EXAMPLE_KINDS)[number];
export type FivePointVerdict = (typeof FIVE_POINT_VERDICTS)[number];
export type EvaluationStatus = (typeof EVALUATION_STATUSES)[number];
export type PromptLabel = (typeof PROMPT_LABELS)[number];

/** Prompt sets (the prompts an evaluation runs over): the most items one set holds. */
export const MAX_PROMPT_SET_ITEMS = 10_000;
/**
 * The most an upload of a prompt set (JSON Lines or CSV) may weigh: it is read as it streams, past the 1 MiB cap
 * of JSON bodies, and refused with a 413 once it passes this.
 */
export const MAX_PROMPT_SET_UPLOAD_BYTES = 20 * 1024 * 1024;
/** A prompt, a reference answer and each earlier turn's text are capped as a council question is. */
export const MAX_PROMPT_CHARS = 50_000;
/** The earlier turns a multi-turn item may carry before its prompt. */
export const MAX_PROMPT_SET_TURNS = 100;
/** The formats a prompt set is uploaded and exported in. */
export const PROMPT_SET_FORMATS = ["jsonl", "csv"] as const;
/** The fields of an uploaded item: a JSON line's keys, a CSV's columns (only `prompt` is required). */
export const PROMPT_SET_FIELDS = [
  "id",
  "prompt",
  "category",
  "reference",
  "turns",
  "goal",
  "persona",
  "marker",
] as const;
export type PromptSetFormat = (typeof PROMPT_SET_FORMATS)[number];

/**
 * Goal battles: two contestants pursue one goal over turns (a turn is one user message and both sides' replies),
 * driven by a simulated user, until a side reaches the goal, the turn limit, a failure or a stop.
 */
export const GOAL_BATTLE_STATES = ["queued", "running", "done", "error", "stopped"] as const;
export const GOAL_ENDED_REASONS = ["goal", "limit", "error", "manual", "timeout"] as const;
export const GOAL_WINNERS = ["A", "B", "tie", "none"] as const;
export const GOAL_SIDES = ["A", "B"] as const;
/** goal: the goal rule, then the judge; llm: the judge alone; human: a person votes once the battle has ended */
export const GOAL_JUDGE_MODES = ["goal", "llm", "human"] as const;
export const GOAL_USER_MODES = ["model", "script"] as const;
export const GOAL_CHECK_BY = ["marker", "judge"] as const;
export const DEFAULT_GOAL_TURNS = 25;
/** The most turns one battle may take: each is up to three calls per side, so a limit keeps one battle's spend bounded. */
export const MAX_GOAL_TURNS = 50;
export const MAX_GOAL_CHARS = 4_000;
export const MAX_GOAL_PERSONA_CHARS = 4_000;
export const MAX_GOAL_MARKER_CHARS = 100;
export const DEFAULT_GOAL_MARKER = "GOAL_REACHED";
export type GoalBattleState = (typeof GOAL_BATTLE_STATES)[number];
export type GoalEndedReason = (typeof GOAL_ENDED_REASONS)[number];
export type GoalWinner = (typeof GOAL_WINNERS)[number];
export type GoalSide = (typeof GOAL_SIDES)[number];
export type GoalJudgeMode = (typeof GOAL_JUDGE_MODES)[number];
export type GoalUserMode = (typeof GOAL_USER_MODES)[number];
/** The /v1 model that convenes a council run and answers with its winner (or its synthesis). */
export const QUORUM_COUNCIL = "quorum:council";
