/** Request bodies and queries of the HTTP API, validated once at the edge. */
import { z } from "zod";
import { EVALUATION_EXPORT_FORMATS, MATRIX_FILTER_NAMES } from "./evaluation-report";
import { OVERALL } from "./rubric";
import {
  COMPARISON_MODES,
  EVALUATION_METHODS,
  EXPORT_FORMATS,
  MAX_BASELINE_CONTESTANTS,
  MAX_EVALUATION_JUDGES,
  MAX_EVALUATION_REPEATS,
  MAX_COUNCIL_CONTESTANTS,
  MAX_PAIRWISE_CONTESTANTS,
  INTERVAL_METHODS,
  BATTLE_LOG_SPELLINGS,
  DEMO_VIEWS,
  LANGUAGE_LABEL_PREFIX,
  LEADERBOARD_ORDERS,
  LEADERBOARD_SOURCES,
  MAX_CATEGORY_LENGTH,
  MAX_CONCURRENCY,
  DEFAULT_GOAL_TURNS,
  GOAL_USER_MODES,
  MAX_GOAL_CHARS,
  MAX_GOAL_CONTESTANTS,
  MAX_GOAL_MARKER_CHARS,
  MAX_GOAL_PERSONA_CHARS,
  MAX_GOAL_TURNS,
  MAX_JUDGES,
  MAX_OUTPUT_TOKENS,
  MAX_REVIEWERS,
  MAX_RUBRIC_DESCRIPTION,
  MAX_RUBRIC_DIMENSIONS,
  MAX_RUBRIC_WEIGHT,
  MAX_PROMPT_CHARS,
  MAX_PROMPT_SET_ITEMS,
  MAX_PROMPT_SET_TURNS,
  MAX_RUN_MODELS,
  MAX_TEMPERATURE,
  MAX_TIMEOUT_MS,
  MIN_TIMEOUT_MS,
  ODDS_MAX_MODELS,
  PROMPT_LABELS,
  PROMPT_SET_FORMATS,
  QUORUM_COUNCIL,
  REVIEWER_WEIGHTS,
  RUBRIC_KEY_PATTERN,
  SELF_REVIEW_MODES,
  THREAD_MODES,
  THREAD_TITLE_MAX,
  VOTE_CHOICES,
  type StyleMethod,
} from "./constants";
import { autoItemId, repeatedId, turnsProblem } from "./prompt-set";
import { isPresetId, PRESET_SLUG } from "./contestant";

/** A language label: `lang:` and a code (or an imported log's language name, lowercased with underscores). */
const LANGUAGE_LABEL = new RegExp(`^${LANGUAGE_LABEL_PREFIX}[\\p{L}\\p{N}_]{2,40}$`, "u");

/** Control and invisible characters (NUL, line breaks, zero-width spaces…), which no model name holds. */
const CONTROL_CHARACTER = /[\p{Cc}\p{Cf}\u2028\u2029]/u;

/** The first control or invisible character in `s`, as `U+0000`, or null when there is none. */
export function controlCharacterIn(s: string): string | null {
  const found = CONTROL_CHARACTER.exec(s)?.[0];
  return found === undefined ? null : `U+${found.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}`;
}

const noControlCharacter = (what: string) => (s: string, ctx: z.RefinementCtx) => {
  const found = controlCharacterIn(s);
  if (found)
    ctx.addIssue({
      code: "custom",
      message: `${what} holds a control or invisible character (${found}); type it again without it`,
    });
};

export const modelId = z
  .string()
  .trim()
  .min(3)
  .max(200)
  .superRefine(noControlCharacter("a model id"))
  .refine((s) => /^[a-z-]+:\S/.test(s), {
    message: "a model id looks like provider:model-name, e.g. openai:gpt-4o-mini",
  });

const temperature = z.number().min(0).max(MAX_TEMPERATURE);
const maxTokens = z.number().int().min(1).max(MAX_OUTPUT_TOKENS);
const judges = z.array(modelId).max(MAX_JUDGES, `at most ${MAX_JUDGES} judges`);

export const modelParamsInput = z
  .object({
    temperature: temperature.optional(),
    maxTokens: maxTokens.optional(),
    systemPrompt: z.string().max(20_000).optional(),
  })
  .strict();

const rubricWeight = z
  .number()
  .gt(0, "a weight must be above 0")
  .max(MAX_RUBRIC_WEIGHT, `a weight may be at most ${MAX_RUBRIC_WEIGHT}`);

const category = z
  .string()
  .trim()
  .min(1, "the category is empty")
  .max(MAX_CATEGORY_LENGTH)
  .superRefine(noControlCharacter("the category"));

/** Reviewers compute `overall` from the dimensions of a custom rubric, so no dimension may take its name. */
const rubricKey = z
  .string()
  .regex(
    new RegExp(RUBRIC_KEY_PATTERN),
    "a dimension's key is 1 to 32 lowercase letters, digits, - or _, starting with a letter (e.g. correctness)",
  )
  .refine((key) => key !== OVERALL, {
    message: 'the key "overall" is kept for the weighted mean of the other dimensions; leave it out',
  });

export const rubricInput = z
  .object({
    dimensions: z
      .array(
        z
          .object({
            key: rubricKey,
            description: z
              .string()
              .trim()
              .min(1, "say what the dimension judges")
              .max(MAX_RUBRIC_DESCRIPTION, `a description may be at most ${MAX_RUBRIC_DESCRIPTION} characters`),
            weight: rubricWeight.default(1),
          })
          .strict(),
      )
      .min(1, "a rubric needs at least one dimension")
      .max(MAX_RUBRIC_DIMENSIONS, `a rubric has at most ${MAX_RUBRIC_DIMENSIONS} dimensions`)
      .refine((ds) => new Set(ds.map((d) => d.key)).size === ds.length, {
        message: "each dimension's key may appear only once",
      }),
    /** per category, weights that replace the dimensions' own for runs of that category */
    categoryWeights: z.record(category, z.record(z.string(), rubricWeight)).optional(),
  })
  .strict()
  .superRefine((rubric, ctx) => {
    const keys = new Set(rubric.dimensions.map((d) => d.key));
    for (const [name, weights] of Object.entries(rubric.categoryWeights ?? {}))
      for (const key of Object.keys(weights))
        if (!keys.has(key))
          ctx.addIssue({
            code: "custom",
            path: ["categoryWeights", name, key],
            message: `"${key}" is not one of the rubric's dimensions (${[...keys].join(", ")})`,
          });
  });

export const runSettingsInput = z
  .object({
    blind: z.boolean().default(true),
    selfReview: z.enum(SELF_REVIEW_MODES).default("exclude"),
    selfReviewWeight: z.number().min(0).max(1).default(0.5),
    autoEvaluate: z.boolean().default(true),
    /** after the ranking, this model writes one final answer from the ranked answers and their critiques */
    synthesis: z.object({ modelId }).strict().optional(),
    /** "calibrated" weighs each reviewer by how often it agreed with people as an arena judge */
    reviewerWeights: z.enum(REVIEWER_WEIGHTS).default("equal"),
    concurrency: z.number().int().min(1).max(MAX_CONCURRENCY).default(4),
    timeoutMs: z.number().int().min(MIN_TIMEOUT_MS).max(MAX_TIMEOUT_MS).default(120_000),
    systemPrompt: z.string().max(20_000).optional(),
    temperature: temperature.optional(),
    maxTokens: maxTokens.optional(),
    /** models that review and rank the answers; judge-only when they don't answer. Absent: every model that answered */
    reviewers: z
      .array(modelId)
      .min(1, "name at least one reviewer, or leave reviewers out to have the answerers review")
      .max(MAX_REVIEWERS, `at most ${MAX_REVIEWERS} reviewers`)
      .refine((ids) => new Set(ids).size === ids.length, { message: "each reviewer may appear only once" })
      .optional(),
    /** what reviewers score; absent: correctness, completeness, clarity, helpfulness, safety and overall */
    rubric: rubricInput.optional(),
    /** the run's category, which picks a rubric's per-category weights */
    category: category.optional(),
  })
  .strict();

export const createRunInput = z
  .object({
    question: z.string().trim().min(1, "the question is empty").max(50_000),
    models: z
      .array(z.object({ id: modelId, params: modelParamsInput.optional() }).strict())
      .min(1, "pick at least one model")
      .max(MAX_RUN_MODELS, `at most ${MAX_RUN_MODELS} models take part in one run`)
      .refine((ms) => new Set(ms.map((m) => m.id)).size === ms.length, { message: "each model may appear only once" }),
    settings: runSettingsInput.default(runSettingsInput.parse({})),
  })
  .strict()
  .superRefine((input, ctx) => {
    const reviewers = input.settings.reviewers;
    if (!reviewers || !input.settings.blind) return;
    // Which labels review (and which one each skips) would say which answers those models wrote.
    const answering = reviewers.filter((id) => input.models.some((m) => m.id === id));
    if (answering.length > 0 && answering.length < input.models.length)
      ctx.addIssue({
        code: "custom",
        path: ["settings", "reviewers"],
        message:
          "in a blind run the reviewers must include every answering model or none of them: reviewing answerers " +
          `(${answering.join(", ")}) would show which labels are theirs. Add the others, or set blind to false`,
      });
  });

export const listRunsQuery = z.object({
  cursor: z.string().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(20),
});

export const retryAnswersInput = z.object({ modelIds: z.array(modelId).min(1).optional() }).strict();

export const exportQuery = z.object({ format: z.enum(EXPORT_FORMATS).default("json") });

/** GET /api/spend/history: how many UTC days back, today included. */
export const spendHistoryQuery = z.object({ days: z.coerce.number().int().min(1).max(90).default(30) });

export const wsQuery = z.object({ since: z.coerce.number().int().min(0).optional() });

export type CreateRunInput = z.infer<typeof createRunInput>;

// ---- presets ----

const presetName = z
  .string()
  .trim()
  .min(1, "the name is empty")
  .max(80, "the name is longer than 80 characters")
  .superRefine(noControlCharacter("the name"));
const presetSystemPrompt = z.string().max(20_000, "the system prompt is longer than 20,000 characters");

export const createPresetInput = z
  .object({
    name: presetName,
    /** the model the preset runs on: a model id, never another preset */
    modelId,
    systemPrompt: presetSystemPrompt.optional(),
    temperature: temperature.optional(),
    maxTokens: maxTokens.optional(),
    /** the id's slug; derived from the name when left out */
    slug: z
      .string()
      .regex(PRESET_SLUG, "a slug is lower-case letters, digits and single hyphens, up to 48 characters")
      .optional(),
  })
  .strict();

/** An edit: the fields given replace the preset's; null clears an optional one. */
export const editPresetInput = z
  .object({
    name: presetName.optional(),
    modelId: modelId.optional(),
    systemPrompt: presetSystemPrompt.nullable().optional(),
    temperature: temperature.nullable().optional(),
    maxTokens: maxTokens.nullable().optional(),
  })
  .strict()
  .refine((edit) => Object.keys(edit).length > 0, { message: "give at least one field to change" });

export type EditPresetInput = z.infer<typeof editPresetInput>;

// ---- evaluations ----

const distinct = (ids: string[]) => new Set(ids).size === ids.length;

/** A user played by a model needs that model's id, in a goal battle as in a goal evaluation. */
export function needUserModel(u: { mode: string; modelId?: string }, ctx: z.RefinementCtx): void {
  if (u.mode === "model" && !u.modelId)
    ctx.addIssue({
      code: "custom",
      path: ["modelId"],
      message: 'user mode "model" needs the modelId playing the user',
    });
}

/** A goal battle's limits, alone or in a goal evaluation: how many turns, and how long a side may take over one. */
export const goalTurnLimits = {
  maxTurns: z.number().int().min(1).max(MAX_GOAL_TURNS, `at most ${MAX_GOAL_TURNS} turns`).default(DEFAULT_GOAL_TURNS),
  turnTimeoutMs: z.number().int().min(MIN_TIMEOUT_MS).max(MAX_TIMEOUT_MS).default(120_000),
};

/** How a goal evaluation's battles are played: each item brings its goal, persona and marker. */
export const evaluationGoalSettingsInput = z
  .object({
    ...goalTurnLimits,
    /** what both sides read before the goal */
    systemPrompt: z.string().max(20_000).default(""),
    /** the item's prompt is the first user message; then a script's lines, or a model playing the user */
    user: z
      .object({
        mode: z.enum(GOAL_USER_MODES),
        modelId: modelId.optional(),
        script: z
          .array(z.string().trim().min(1, "a scripted message is empty").max(MAX_PROMPT_CHARS))
          .max(MAX_GOAL_TURNS)
          .optional(),
      })
      .strict()
      .superRefine((u, ctx) => {
        needUserModel(u, ctx);
        if (u.mode === "script" && u.modelId)
          ctx.addIssue({ code: "custom", path: ["modelId"], message: 'user mode "script" plays no model' });
      })
      .default({ mode: "script" }),
  })
  .strict();

export const evaluationSettingsInput = z
  .object({
    timeoutMs: z.number().int().min(MIN_TIMEOUT_MS).max(MAX_TIMEOUT_MS).default(120_000),
    /** the output allowance of contestants without one of their own */
    maxTokens: maxTokens.optional(),
    temperature: temperature.optional(),
    /** method goal: how its battles are played */
    goal: evaluationGoalSettingsInput.optional(),
  })
  .strict();

export const createEvaluationInput = z
  .object({
    name: z.string().trim().min(1).max(200).optional(),
    promptSetId: z.string().trim().min(1).max(200),
    contestants: z
      .array(modelId)
      .min(2, "pick at least two contestants")
      .max(MAX_BASELINE_CONTESTANTS, `at most ${MAX_BASELINE_CONTESTANTS} contestants take part in one evaluation`)
      .refine(distinct, { message: "each contestant may appear only once" }),
    method: z.enum(EVALUATION_METHODS).default("pairwise"),
    judges: z
      .array(modelId)
      .max(MAX_EVALUATION_JUDGES, `at most ${MAX_EVALUATION_JUDGES} judges`)
      .refine(distinct, { message: "each judge may appear only once" })
      .default([]),
    baseline: modelId.optional(),
    repeats: z.number().int().min(1).max(MAX_EVALUATION_REPEATS).default(1),
    /**
     * pairwise: what the judges should weigh most, in the evaluation's own words; council: a council rubric (what the
     * reviewers score, as a run's `settings.rubric`)
     */
    rubric: z.union([z.string().trim().min(1).max(4000), rubricInput]).optional(),
    settings: evaluationSettingsInput.default(evaluationSettingsInput.parse({})),
  })
  .strict()
  .superRefine((v, ctx) => {
    if (v.baseline !== undefined && !v.contestants.includes(v.baseline))
      ctx.addIssue({ code: "custom", path: ["baseline"], message: "the baseline must be one of the contestants" });
    if (v.baseline === undefined && v.contestants.length > MAX_PAIRWISE_CONTESTANTS)
      ctx.addIssue({
        code: "custom",
        path: ["contestants"],
        message: `without a baseline every pair is judged, so at most ${MAX_PAIRWISE_CONTESTANTS} contestants; name a baseline for more`,
      });
    if (v.method === "pairwise" && v.judges.length === 0)
      ctx.addIssue({ code: "custom", path: ["judges"], message: "a pairwise evaluation needs at least one judge" });
    if (v.method === "pairwise" && v.rubric !== undefined && typeof v.rubric !== "string")
      ctx.addIssue({
        code: "custom",
        path: ["rubric"],
        message: "a pairwise evaluation's rubric is text: what its judges should weigh most",
      });
    if (v.method === "council" && typeof v.rubric === "string")
      ctx.addIssue({
        code: "custom",
        path: ["rubric"],
        message: "a council evaluation's rubric is a council rubric: { dimensions: [{ key, description, weight }] }",
      });
    if (v.method === "goal") goalProblems(v, ctx);
    if (v.method !== "goal" && v.settings.goal)
      ctx.addIssue({ code: "custom", path: ["settings", "goal"], message: 'settings.goal is for method "goal"' });
    if (v.method === "council" && v.contestants.length > MAX_COUNCIL_CONTESTANTS)
      ctx.addIssue({
        code: "custom",
        path: ["contestants"],
        message: `every reviewer reads all of a council round's answers, so at most ${MAX_COUNCIL_CONTESTANTS} contestants`,
      });
  });

/** What a goal evaluation can't take: more than six contestants, more than one judge, a preset judge, a rubric. */
function goalProblems(v: { contestants: string[]; judges: string[]; rubric?: unknown }, ctx: z.RefinementCtx): void {
  if (v.contestants.length > MAX_GOAL_CONTESTANTS)
    ctx.addIssue({
      code: "custom",
      path: ["contestants"],
      message: `each pair of a goal evaluation's contestants battles on every item, so at most ${MAX_GOAL_CONTESTANTS} contestants`,
    });
  if (v.judges.length > 1)
    ctx.addIssue({
      code: "custom",
      path: ["judges"],
      message: "a goal evaluation takes at most one judge: the model that checks for the goal and decides open battles",
    });
  if (v.judges.some(isPresetId))
    ctx.addIssue({
      code: "custom",
      path: ["judges"],
      message: "a goal evaluation's judge is a model id, not a preset",
    });
  if (v.rubric !== undefined)
    ctx.addIssue({
      code: "custom",
      path: ["rubric"],
      message: "a goal evaluation has no rubric: its battles are won by reaching each item's goal",
    });
}

export const listEvaluationsQuery = listRunsQuery;

export type CreateEvaluationInput = z.infer<typeof createEvaluationInput>;

// ---- the arena ----

/** Prompts and messages of a comparison are capped at 50,000 characters. */
export const ARENA_TEXT_MAX = 50_000;

const arenaText = (what: string) =>
  z
    .string()
    .trim()
    .min(1, `the ${what} is empty`)
    .max(ARENA_TEXT_MAX, `the ${what} is longer than ${ARENA_TEXT_MAX.toLocaleString("en")} characters`);

/** The most earlier messages a comparison may be given as its context. */
export const MAX_CONTEXT_MESSAGES = 200;
const contextMessage = z
  .object({ role: z.enum(["user", "assistant"]), content: z.string().min(1).max(ARENA_TEXT_MAX) })
  .strict();

export const createComparisonInput = z
  .object({
    prompt: arenaText("prompt"),
    models: z
      .array(modelId)
      .length(2, "give exactly two models, or none to have a pair sampled")
      .refine(([a, b]) => a !== b, { message: "the two models must differ" })
      .optional(),
    category: z.string().trim().min(1).max(100).optional(),
    blind: z.boolean().default(true),
    mode: z.enum(COMPARISON_MODES).optional(),
    params: modelParamsInput.optional(),
    /** judges to ask once the first vote is in (instead of QUORUM_JUDGES) */
    judges: judges.optional(),
    /** the conversation so far (a chat thread's), which both sides read before the prompt; names no model */
    context: z.array(contextMessage).max(MAX_CONTEXT_MESSAGES).optional(),
  })
  .strict()
  .superRefine((input, ctx) => {
    if (input.mode === "manual" && !input.models)
      ctx.addIssue({ code: "custom", path: ["models"], message: 'mode "manual" needs two models' });
    if (input.models && input.mode && input.mode !== "manual")
      ctx.addIssue({
        code: "custom",
        path: ["mode"],
        message: `mode "${input.mode}" picks the models itself: leave models out`,
      });
  });

export const comparisonMessageInput = z.object({ content: arenaText("message") }).strict();

export const judgeInput = z.object({ judges: judges.min(1, "name at least one judge") }).strict();

export const voteInput = z.object({ choice: z.enum(VOTE_CHOICES) }).strict();

export const listComparisonsQuery = listRunsQuery;

const flag = z.enum(["true", "false", "1", "0"]).transform((v) => v === "true" || v === "1");

export const leaderboardQuery = z.object({
  source: z.enum(LEADERBOARD_SOURCES).default("human"),
  category: z.string().trim().max(100).optional(),
  /** only battles of prompts with this label: one of PROMPT_LABELS, or a language as `lang:en` */
  label: z
    .string()
    .trim()
    .refine((l) => (PROMPT_LABELS as readonly string[]).includes(l) || LANGUAGE_LABEL.test(l), {
      error: `label must be one of ${PROMPT_LABELS.join(", ")}, or a language as ${LANGUAGE_LABEL_PREFIX}en`,
    })
    .optional(),
  /** with source=eval: only this evaluation's battles */
  evaluation: z.string().trim().min(1).max(200).optional(),
  minAppearances: z.coerce.number().int().min(1).max(1_000_000_000).default(1),
  order: z.enum(LEADERBOARD_ORDERS).default("bt"),
  includeFlagged: flag.default(false),
  anchor: z.string().trim().min(1).max(200).superRefine(noControlCharacter("the anchor model")).optional(),
  anchorRating: z.coerce.number().min(-100_000).max(100_000).optional(),
  /** how the Bradley–Terry intervals are computed: arena-rank's closed form, or the seeded bootstrap */
  ci: z.enum(INTERVAL_METHODS).default("sandwich"),
  /** bootstrap rounds, for ci=bootstrap; 0 leaves the intervals out */
  rounds: z.coerce.number().int().min(0).max(1000).default(100),
  /** arena-rank's inverse pair-frequency weights: each battle weighs 1 / max(battles of its pair, 50) */
  reweight: flag.default(false),
  /**
   * the offline demo models: `auto` leaves them out of a view that mixes them with real models once a real
   * provider is configured; `include` keeps them, `exclude` leaves them out whatever is configured
   */
  demo: z.enum(DEMO_VIEWS).default("auto"),
  /**
   * ratings with style held equal, fitted in the background: `true` as the Arena's leaderboard does it today
   * (arena-rank's contextual Bradley–Terry), `fastchat` as FastChat's 2024 notebooks did
   */
  style: z
    .enum(["true", "false", "1", "0", "fastchat"])
    .default("false")
    .transform((v): StyleMethod | null =>
      v === "fastchat" ? "fastchat" : v === "true" || v === "1" ? "arena-rank" : null,
    ),
});

/** The leaderboard's view, and which of its models to set against each other (all the top ones when left out). */
export const oddsQuery = leaderboardQuery.extend({
  models: z
    .string()
    .optional()
    .transform((raw, ctx) => {
      if (raw === undefined) return null;
      // Imported model names are kept as they are, so only commas separate them and blanks around them go.
      const ids = raw.split(",").map((id) => id.trim());
      const problem =
        ids.some((id) => id === "") || ids.some((id) => id.length > 200)
          ? "models is a comma-separated list of model ids, each 1–200 characters, e.g. models=gpt-4,claude-2"
          : ids.length < 2 || ids.length > ODDS_MAX_MODELS
            ? `models lists 2 to ${ODDS_MAX_MODELS} model ids; got ${ids.length}`
            : new Set(ids).size !== ids.length
              ? `models lists ${ids.find((id, k) => ids.indexOf(id) !== k)} twice`
              : null;
      if (problem) ctx.addIssue({ code: "custom", message: problem });
      return ids;
    }),
});

export const importQuery = z.object({
  importId: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,64}$/, "importId is 1–64 letters, digits, _ or -")
    .optional(),
  offset: z.coerce.number().int().min(0).max(1_000_000_000).default(0),
});

export const exportBattlesQuery = z.object({
  source: z.enum(LEADERBOARD_SOURCES).default("all"),
  includeFlagged: flag.default(false),
  /** how the winner is spelled: FastChat's "tie (bothbad)", or lmarena's newer "both_bad" */
  format: z.enum(BATTLE_LOG_SPELLINGS).default("fastchat"),
});

export type CreateComparisonInput = z.infer<typeof createComparisonInput>;

// ---- chat threads ----

const threadTitle = z
  .string()
  .trim()
  .min(1, "the title is empty")
  .max(THREAD_TITLE_MAX, `the title is longer than ${THREAD_TITLE_MAX} characters`)
  .superRefine(noControlCharacter("the title"));
const threadSystemPrompt = z.string().max(20_000, "the system prompt is longer than 20,000 characters");

export const createThreadInput = z
  .object({
    title: threadTitle.optional(),
    /** the single mode's model: a model id or a preset id */
    modelId: modelId.optional(),
    systemPrompt: threadSystemPrompt.optional(),
    mode: z.enum(THREAD_MODES).default("single"),
    category: category.optional(),
  })
  .strict();

/** A change to a thread's settings: null clears the model, system prompt or category. */
export const updateThreadInput = z
  .object({
    title: threadTitle.optional(),
    modelId: modelId.nullable().optional(),
    systemPrompt: threadSystemPrompt.nullable().optional(),
    mode: z.enum(THREAD_MODES).optional(),
    category: category.nullable().optional(),
  })
  .strict()
  .refine((input) => Object.keys(input).length > 0, { message: "name at least one setting to change" });

export const threadMessageInput = z
  .object({
    content: arenaText("message"),
    mode: z.enum(THREAD_MODES).optional(),
    /** single: the model or preset that answers this message (the thread's when left out) */
    modelId: modelId.optional(),
    /** dual: the two models (drawn as the arena draws when left out) */
    models: z
      .array(modelId)
      .length(2, "give exactly two models, or none to have a pair drawn")
      .refine(([a, b]) => a !== b, { message: "the two models must differ" })
      .optional(),
  })
  .strict();

/** After a tie or both-bad: which side's answer continues the thread (A is the comparison's left, B its right). */
export const continueThreadInput = z.object({ side: z.enum(["A", "B"]) }).strict();

export const listThreadsQuery = listRunsQuery;

export type CreateThreadInput = z.infer<typeof createThreadInput>;
export type UpdateThreadInput = z.infer<typeof updateThreadInput>;
export type ThreadMessageInput = z.infer<typeof threadMessageInput>;
export type LeaderboardQuery = z.infer<typeof leaderboardQuery>;
export type OddsQuery = z.infer<typeof oddsQuery>;
export type SpendHistoryQuery = z.infer<typeof spendHistoryQuery>;

// ---- evaluation reports ----

export const evaluationMatrixQuery = z.object({ filter: z.enum(MATRIX_FILTER_NAMES).default("all") });
export const evaluationExportQuery = z.object({ format: z.enum(EVALUATION_EXPORT_FORMATS).default("json") });
export const evaluationCompareQuery = z.object({
  a: z.string().min(1).max(200),
  b: z.string().min(1).max(200),
});
/** Suggest a revision of a preset contestant's system prompt: `model` drafts it from the items the preset lost. */
export const evaluationRevisionInput = z.object({
  contestant: z.string().trim().min(1).max(200),
  model: modelId,
});
// ---- prompt sets ----

const chars = (n: number) => n.toLocaleString("en");

/** A prompt, a reference or a turn's text: trimmed, and within a council question's length. */
const promptText = (what: string) =>
  z
    .string({ error: (issue) => (issue.input === undefined ? `${what} is missing` : `${what} must be text`) })
    .trim()
    .min(1, `${what} is empty`)
    .max(MAX_PROMPT_CHARS, `${what} is longer than ${chars(MAX_PROMPT_CHARS)} characters`);

/** An optional text field: null and "" (an empty CSV cell) both mean "not given". */
const optionalText = (what: string, max: number) =>
  z
    .string({ error: `${what} must be text` })
    .trim()
    .max(max, `${what} is longer than ${chars(max)} characters`)
    .nullish()
    .transform((s) => (s ? s : null));

const itemId = z
  .union([z.string(), z.number().int()], { error: "id must be text or a whole number" })
  .transform(String)
  .pipe(
    z
      .string()
      .trim()
      .max(200, "id is longer than 200 characters")
      .superRefine(noControlCharacter("the id"))
      .transform((s) => (s ? s : null)),
  )
  .nullish()
  .transform((s) => s ?? null);

const turn = z
  .object({
    role: z.enum(["user", "assistant"], { error: 'a turn\'s role is "user" or "assistant"' }),
    content: z
      .string({ error: "a turn's content must be text" })
      .max(MAX_PROMPT_CHARS, `a turn is longer than ${chars(MAX_PROMPT_CHARS)} characters`),
  })
  .strict();

/** One item of a prompt set: a JSON body's element, an uploaded JSON line, a CSV row (its turns parsed). */
export const promptSetItemInput = z
  .object({
    prompt: promptText("prompt"),
    /** your own id for the item (unique in the set); `item-<position>` when left out */
    id: itemId.optional(),
    category: optionalText("category", 100).optional(),
    /** a reference answer judges may compare with */
    reference: optionalText("reference", MAX_PROMPT_CHARS).optional(),
    /** a multi-turn item's earlier turns, user first, ending with the assistant's reply; `prompt` comes next */
    turns: z
      .array(turn, { error: "turns must be a JSON array of { role, content }" })
      .max(MAX_PROMPT_SET_TURNS, `at most ${MAX_PROMPT_SET_TURNS} earlier turns`)
      .superRefine((turns, ctx) => {
        const problem = turnsProblem(turns);
        if (problem) ctx.addIssue({ code: "custom", message: problem });
      })
      .nullish()
      .transform((t) => (t?.length ? t : null)),
    /** what a goal evaluation's battles on this item pursue */
    goal: optionalText("goal", MAX_GOAL_CHARS).optional(),
    /** who the simulated user plays in this item's goal battles */
    persona: optionalText("persona", MAX_GOAL_PERSONA_CHARS).optional(),
    /** what a side writes once the goal is reached (GOAL_REACHED when neither it nor a judge is given) */
    marker: optionalText("marker", MAX_GOAL_MARKER_CHARS).optional(),
  })
  .strict();

const setName = z
  .string({ error: "name is missing" })
  .trim()
  .min(1, "name is empty")
  .max(200, "name is longer than 200 characters")
  .superRefine(noControlCharacter("the name"));

const promptSetItems = z
  .array(promptSetItemInput)
  .min(1, "a prompt set needs at least one item")
  .max(MAX_PROMPT_SET_ITEMS, `a prompt set holds at most ${chars(MAX_PROMPT_SET_ITEMS)} items`)
  .superRefine((items, ctx) => {
    const twice = repeatedId(items.map((item, k) => item.id ?? autoItemId(k + 1)));
    if (twice)
      ctx.addIssue({
        code: "custom",
        path: [twice.again, "id"],
        message: `id "${twice.id}" is used twice (items ${twice.first + 1} and ${twice.again + 1})`,
      });
  });

export const createPromptSetInput = z.object({ name: setName, items: promptSetItems }).strict();

/** An edit: the items that replace the set's (in place while no evaluation used it), and a new name if given. */
export const editPromptSetInput = z.object({ name: setName.optional(), items: promptSetItems }).strict();

const historyIds = z.array(z.string().min(1).max(200)).max(MAX_PROMPT_SET_ITEMS).default([]);

/** "Save these prompts" from History: runs' questions and comparisons' first prompts, in the order given. */
export const promptSetFromHistoryInput = z
  .object({ name: setName, runs: historyIds, comparisons: historyIds })
  .strict()
  .refine((input) => input.runs.length + input.comparisons.length > 0, {
    message: "pick at least one run or comparison",
  })
  .refine((input) => input.runs.length + input.comparisons.length <= MAX_PROMPT_SET_ITEMS, {
    message: `a prompt set holds at most ${chars(MAX_PROMPT_SET_ITEMS)} items`,
  });

/** POST /api/prompt-sets/upload: the set's name, and the body's format when its Content-Type doesn't say. */
export const promptSetUploadQuery = z.object({
  name: setName,
  format: z.enum(PROMPT_SET_FORMATS).optional(),
});

/** PUT /api/prompt-sets/:id/upload: a new name if given, and the body's format when its Content-Type doesn't say. */
export const promptSetReplaceQuery = promptSetUploadQuery.extend({ name: setName.optional() });

export const listPromptSetsQuery = listRunsQuery;

/** A page of a set's items: `cursor` is the position the last page ended at. */
export const promptSetItemsQuery = z.object({
  cursor: z
    .string()
    .regex(/^\d{1,6}$/, "the cursor is not one this API gave out; start again without it")
    .optional(),
  limit: z.coerce.number().int().min(1).max(1000).default(100),
});

export const promptSetExportQuery = z.object({ format: z.enum(PROMPT_SET_FORMATS).default("jsonl") });

export type PromptSetItemInput = z.infer<typeof promptSetItemInput>;

// ---- the OpenAI-compatible endpoint (/v1) ----

const chatPart = z.looseObject({ type: z.string(), text: z.string().optional() });

/** One message of a chat completion request: text, or content parts that are all text. */
const chatMessage = z
  .looseObject({
    role: z.enum(["system", "developer", "user", "assistant", "tool", "function"]),
    content: z.union([z.string(), z.array(chatPart), z.null()]).optional(),
    tool_calls: z.unknown().optional(),
  })
  .superRefine((m, ctx) => {
    if (m.role === "tool" || m.role === "function" || m.tool_calls != null)
      ctx.addIssue({
        code: "custom",
        path: ["role"],
        message: `${m.role === "assistant" ? "assistant tool_calls" : `${m.role} messages`} aren't supported yet: Quorum's endpoint takes text conversations without tools`,
      });
    if (m.content == null && m.role !== "assistant")
      ctx.addIssue({ code: "custom", path: ["content"], message: `a ${m.role} message needs content` });
    if (Array.isArray(m.content))
      m.content.forEach((part, k) => {
        if (part.type !== "text" || typeof part.text !== "string")
          ctx.addIssue({
            code: "custom",
            path: ["content", k],
            message: `only text content parts ({ "type": "text", "text": "…" }) are supported; got "${String(part.type).slice(0, 40)}"`,
          });
      });
  });

const absentOrEmpty = (v: unknown) => v == null || (Array.isArray(v) && v.length === 0);
const outputTokens = z.number().int().min(1).max(MAX_OUTPUT_TOKENS).nullish();

/**
 * POST /v1/chat/completions, as OpenAI's clients send it. Fields this endpoint doesn't act on (top_p, user,
 * seed…) are accepted and ignored, as OpenAI-compatible servers do; those that would change the answer's
 * shape and can't be honoured (n > 1, tools, structured output) are refused, naming the field.
 */
export const chatCompletionInput = z
  .looseObject({
    model: z.string().trim().min(1).max(300).superRefine(noControlCharacter("the model")),
    messages: z.array(chatMessage).min(1).max(1000),
    stream: z.boolean().nullish(),
    stream_options: z.looseObject({ include_usage: z.boolean().nullish() }).nullish(),
    n: z
      .number()
      .int()
      .nullish()
      .refine((n) => n == null || n === 1, "only n=1 is supported: each call returns one choice (call again for more)"),
    temperature: z.number().min(0).max(MAX_TEMPERATURE).nullish(),
    max_tokens: outputTokens,
    max_completion_tokens: outputTokens,
    tools: z
      .unknown()
      .refine(absentOrEmpty, "tools aren't supported yet: send a text conversation without tools")
      .optional(),
    functions: z
      .unknown()
      .refine(absentOrEmpty, "functions aren't supported yet: send a text conversation without them")
      .optional(),
    response_format: z
      .looseObject({ type: z.string() })
      .nullish()
      .refine(
        (f) => f == null || f.type === "text",
        "only response_format { type: text } is supported: ask for JSON in the prompt instead",
      ),
    /** quorum:council only (OpenAI's SDKs send it as extra_body): the council's members instead of QUORUM_COUNCIL_MODELS */
    models: z
      .array(modelId)
      .min(1, "name at least one model for the council, or leave models out")
      .max(MAX_RUN_MODELS, `at most ${MAX_RUN_MODELS} models sit on one council`)
      .refine((ids) => new Set(ids).size === ids.length, { message: "each model may sit on the council only once" })
      .optional(),
    /** quorum:council only: the model that writes one answer from the ranked ones, returned instead of the winner's */
    synthesis: modelId.nullish(),
  })
  .superRefine((input, ctx) => {
    if (input.model === QUORUM_COUNCIL) return;
    for (const field of ["models", "synthesis"] as const)
      if (input[field] != null)
        ctx.addIssue({
          code: "custom",
          path: [field],
          message: `${field} goes only with model "${QUORUM_COUNCIL}" (it names the council's ${field === "models" ? "members" : "chair"}); leave it out for "${input.model}"`,
        });
  });

export type ChatCompletionInput = z.infer<typeof chatCompletionInput>;
