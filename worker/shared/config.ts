/**
 * Quorum's settings: every QUORUM_* variable (and APP_TOKEN) is read and checked here and nowhere else, once
 * per `env` object, so a test that passes its own env gets its own settings. A value that doesn't parse is an
 * error naming the variable, never a silent default: a typo must not quietly turn a limit or a spend cap off.
 * `/api/health` lists the problems, every other route answers 503 `config_invalid` (api/config-check.ts), and
 * rooms and crons refuse to run.
 */
import { z } from "zod";
import { cached } from "./memo";
import {
  aboveZero,
  type ArenaFocus,
  concurrencyCaps,
  dedupRule,
  dollars,
  flag,
  focus,
  list,
  modelId,
  modelIds,
  onOff,
  type Price,
  prices,
  setting,
  text,
  whole,
} from "./setting-parsers";

/** One variable that doesn't parse, with what is wrong and how to fix it. */
export interface ConfigProblem {
  variable: string;
  message: string;
}

const WHOLE_ORDER: ArenaFocus = { top: null };

/** Every variable, its parser and its default (README "Configuration", worker/env.d.ts). */
const variables = z.object({
  QUORUM_VERSION: setting(text, "unknown"),
  APP_TOKEN: setting(text, null),
  QUORUM_LISTEN: setting(text, null),
  QUORUM_TRUST_CLIENT_ID: setting(flag, false),
  QUORUM_SECRET: setting(text, null),
  QUORUM_RATE_RUNS: setting(aboveZero, 30),
  QUORUM_RATE_COMPARISONS: setting(aboveZero, 60),
  QUORUM_RATE_VOTES: setting(aboveZero, 120),
  QUORUM_RATE_COMPLETIONS: setting(aboveZero, 60),
  QUORUM_MAX_RUN_USD: setting(dollars, null),
  QUORUM_MAX_DAY_USD: setting(dollars, null),
  QUORUM_MAX_EVAL_USD: setting(dollars, null),
  QUORUM_PROVIDER_CONCURRENCY: setting(concurrencyCaps, new Map<string, number>()),
  QUORUM_REDACT: setting(flag, false),
  QUORUM_RETRY_BASE_MS: setting(whole(0), 500),
  QUORUM_MAX_ATTEMPTS: setting(whole(1), 4),
  QUORUM_WATCHDOG_SLACK_MS: setting(whole(0), 30_000),
  QUORUM_LOG: setting(onOff, true),
  QUORUM_DEMO_DELAY_MS: setting(whole(0), 25),
  QUORUM_PRICES: setting(prices, new Map<string, Price>()),
  QUORUM_ARENA_MODELS: setting(list, []),
  QUORUM_ARENA_MAX_TURNS: setting(whole(1), 10),
  QUORUM_ARENA_TIMEOUT_MS: setting(whole(100), 120_000),
  QUORUM_MIN_VOTE_MS: setting(whole(0), 3000),
  QUORUM_IMPORT_MAX_LINES: setting(whole(1), 10_000),
  QUORUM_TOPPER_MIN_APPEARANCES: setting(whole(1), 20),
  QUORUM_TOPPER_FALLBACK: setting(modelId, null),
  QUORUM_VOTES_PER_CLIENT: setting(whole(1), 5),
  QUORUM_VOTES_PER_COMPARISON: setting(whole(1), 20),
  QUORUM_JUDGES: setting(list, []),
  QUORUM_COUNCIL_MODELS: setting(modelIds, []),
  QUORUM_LEADERBOARD_STALE_MS: setting(whole(0), 1000),
  QUORUM_VOTE_WINDOW_MS: setting(whole(0), 3_600_000),
  QUORUM_ARCHIVE_AFTER_HOURS: setting(whole(0), 0),
  QUORUM_MAX_FIT_MODELS: setting(whole(2), 5000),
  QUORUM_INLINE_REPLAY_BATTLES: setting(whole(0), 20_000),
  QUORUM_ARENA_FOCUS: setting(focus, WHOLE_ORDER),
  QUORUM_NEW_MODEL_BATTLES: setting(whole(0), 50),
  QUORUM_CLASSIFIER: setting(modelId, null),
  QUORUM_DEDUP_PROMPTS: setting(dedupRule, null),
});

type Variable = keyof typeof variables.shape;

/** What the settings are read from: `Env`, or any object holding some of the variables (tests pass their own). */
export type ConfigVars = { readonly [K in Variable]?: unknown };

function shape(v: z.infer<typeof variables>) {
  return {
    version: v.QUORUM_VERSION,
    /** the signing key of ids and receipts; null: the one kept in D1 */
    secret: v.QUORUM_SECRET,
    /** per client, a minute */
    rates: {
      runs: v.QUORUM_RATE_RUNS,
      comparisons: v.QUORUM_RATE_COMPARISONS,
      votes: v.QUORUM_RATE_VOTES,
      completions: v.QUORUM_RATE_COMPLETIONS,
    },
    /** US dollars; null: no cap */
    spend: { runUsd: v.QUORUM_MAX_RUN_USD, dayUsd: v.QUORUM_MAX_DAY_USD, evalUsd: v.QUORUM_MAX_EVAL_USD },
    /** calls an evaluation keeps in flight per provider, as set (worker/evaluation/concurrency.ts applies the limits) */
    providerConcurrency: v.QUORUM_PROVIDER_CONCURRENCY,
    redact: v.QUORUM_REDACT,
    trustClientId: v.QUORUM_TRUST_CLIENT_ID,
    retry: { baseMs: v.QUORUM_RETRY_BASE_MS, maxAttempts: v.QUORUM_MAX_ATTEMPTS },
    watchdogSlackMs: v.QUORUM_WATCHDOG_SLACK_MS,
    /** one log line per provider call */
    logCalls: v.QUORUM_LOG,
    demoDelayMs: v.QUORUM_DEMO_DELAY_MS,
    /** prices that override the catalog's, by model id */
    prices: v.QUORUM_PRICES,
    /** the contestants `quorum:council` on /v1 convenes, each once; empty: the setup page's default choice */
    councilModels: [...new Set(v.QUORUM_COUNCIL_MODELS)],
    arena: {
      /** each once: a model named twice could otherwise be drawn against itself */
      models: [...new Set(v.QUORUM_ARENA_MODELS)],
      maxTurns: v.QUORUM_ARENA_MAX_TURNS,
      timeoutMs: v.QUORUM_ARENA_TIMEOUT_MS,
      minVoteMs: v.QUORUM_MIN_VOTE_MS,
      importMaxLines: v.QUORUM_IMPORT_MAX_LINES,
      topperMinAppearances: v.QUORUM_TOPPER_MIN_APPEARANCES,
      /** the model `quorum:top` falls back to while no model qualifies; null: the arena pool's first available one */
      topperFallback: v.QUORUM_TOPPER_FALLBACK,
      votesPerClient: v.QUORUM_VOTES_PER_CLIENT,
      votesPerComparison: v.QUORUM_VOTES_PER_COMPARISON,
      judges: v.QUORUM_JUDGES,
      leaderboardStaleMs: v.QUORUM_LEADERBOARD_STALE_MS,
      voteWindowMs: v.QUORUM_VOTE_WINDOW_MS,
      /** 0: never */
      archiveAfterHours: v.QUORUM_ARCHIVE_AFTER_HOURS,
      maxFitModels: v.QUORUM_MAX_FIT_MODELS,
      /** battles a leaderboard read replays into online Elo and TrueSkill itself; past them a room replays the rest */
      inlineReplayBattles: v.QUORUM_INLINE_REPLAY_BATTLES,
      /** the ranking pairing works toward and the leaderboard's settled notice speaks of */
      focus: v.QUORUM_ARENA_FOCUS,
      /** a model with fewer battles than this is new: boosted in pairing, `newModel` on its row */
      newModelBattles: v.QUORUM_NEW_MODEL_BATTLES,
      /** the model that labels prompts with the Arena's categories; null: rule labels only */
      classifier: v.QUORUM_CLASSIFIER,
      /** how heavily repeated prompts are capped in the leaderboard's fit; null: not at all */
      dedupPrompts: v.QUORUM_DEDUP_PROMPTS,
    },
  };
}

export type Settings = ReturnType<typeof shape>;

/** What a problem says to do: where each kind of setup keeps its variables. */
const fix = (variable: string) =>
  `Fix it in .dev.vars and restart \`npm start\`; deployed, in wrangler.toml [vars] or with \`npx wrangler secret put ${variable}\`.`;

/** The settings could not be read: thrown by `settings`, answered 503 `config_invalid` by the API. */
export class ConfigInvalid extends Error {
  constructor(readonly problems: ConfigProblem[]) {
    super(`This Quorum's configuration is invalid: ${problems.map((p) => p.message).join(" ")}`);
    this.name = "ConfigInvalid";
  }
}

type Parsed = { ok: true; settings: Settings } | { ok: false; error: ConfigInvalid };

const parsed = new WeakMap<object, Parsed>();

function invalid(error: z.ZodError): ConfigInvalid {
  return new ConfigInvalid(
    error.issues.map((issue) => {
      const variable = String(issue.path[0]);
      return { variable, message: `${variable} ${issue.message}. ${fix(variable)}` };
    }),
  );
}

function read(env: ConfigVars): Parsed {
  const result = variables.safeParse(env);
  return result.success ? { ok: true, settings: shape(result.data) } : { ok: false, error: invalid(result.error) };
}

const parse = (env: ConfigVars): Parsed => cached(parsed, env, read);

/** The settings; throws ConfigInvalid, naming every variable that doesn't parse, when any doesn't. */
export function settings(env: ConfigVars): Settings {
  const result = parse(env);
  if (!result.ok) throw result.error;
  return result.settings;
}

/** The variables that don't parse (none when the settings are fine), for /api/health. */
export function configProblems(env: ConfigVars): ConfigProblem[] {
  const result = parse(env);
  return result.ok ? [] : result.error.problems;
}

const base = variables.pick({ APP_TOKEN: true, QUORUM_LISTEN: true, QUORUM_VERSION: true });

/**
 * The few settings that are free text, read even when others are invalid: the access check runs before a bad
 * configuration is reported (so only a caller allowed in learns of it), and health names the version.
 */
export function baseSettings(env: ConfigVars): { appToken: string | null; listen: string | null; version: string } {
  const read = base.safeParse(env);
  if (!read.success) throw invalid(read.error);
  return { appToken: read.data.APP_TOKEN, listen: read.data.QUORUM_LISTEN, version: read.data.QUORUM_VERSION };
}
