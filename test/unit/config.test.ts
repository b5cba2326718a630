import { describe, expect, it } from "vitest";
import {
  baseSettings,
  ConfigInvalid,
  type ConfigVars,
  configProblems,
  type Settings,
  settings,
} from "../../worker/shared/config";

/** Every setting with nothing set: the defaults the README and worker/env.d.ts document. */
const DEFAULTS: Settings = {
  version: "unknown",
  secret: null,
  rates: { runs: 30, comparisons: 60, votes: 120, completions: 60 },
  spend: { runUsd: null, dayUsd: null, evalUsd: null },
  providerConcurrency: new Map(),
  redact: false,
  trustClientId: false,
  retry: { baseMs: 500, maxAttempts: 4 },
  watchdogSlackMs: 30_000,
  logCalls: true,
  demoDelayMs: 25,
  prices: new Map(),
  councilModels: [],
  arena: {
    models: [],
    maxTurns: 10,
    timeoutMs: 120_000,
    minVoteMs: 3000,
    importMaxLines: 10_000,
    topperMinAppearances: 20,
    topperFallback: null,
    votesPerClient: 5,
    votesPerComparison: 20,
    judges: [],
    leaderboardStaleMs: 1000,
    voteWindowMs: 3_600_000,
    archiveAfterHours: 0,
    maxFitModels: 5000,
    inlineReplayBattles: 20_000,
    focus: { top: null },
    newModelBattles: 50,
    classifier: null,
    dedupPrompts: null,
  },
};

/** Each variable, a value it takes, where that lands in the settings and what it becomes. */
const VALID: [variable: string, raw: string, read: (s: Settings) => unknown, expected: unknown][] = [
  ["QUORUM_VERSION", "1.2.3", (s) => s.version, "1.2.3"],
  ["QUORUM_SECRET", "  a long secret  ", (s) => s.secret, "a long secret"],
  ["QUORUM_RATE_RUNS", "3", (s) => s.rates.runs, 3],
  ["QUORUM_RATE_COMPARISONS", "1e6", (s) => s.rates.comparisons, 1_000_000],
  ["QUORUM_RATE_VOTES", "0.5", (s) => s.rates.votes, 0.5],
  ["QUORUM_MAX_RUN_USD", "0.10", (s) => s.spend.runUsd, 0.1],
  ["QUORUM_MAX_DAY_USD", "0", (s) => s.spend.dayUsd, 0],
  ["QUORUM_REDACT", "TRUE", (s) => s.redact, true],
  ["QUORUM_REDACT", "off", (s) => s.redact, false],
  ["QUORUM_TRUST_CLIENT_ID", "true", (s) => s.trustClientId, true],
  ["QUORUM_RETRY_BASE_MS", "5", (s) => s.retry.baseMs, 5],
  ["QUORUM_MAX_ATTEMPTS", "1", (s) => s.retry.maxAttempts, 1],
  ["QUORUM_WATCHDOG_SLACK_MS", "0", (s) => s.watchdogSlackMs, 0],
  ["QUORUM_LOG", "off", (s) => s.logCalls, false],
  ["QUORUM_LOG", "On", (s) => s.logCalls, true],
  ["QUORUM_DEMO_DELAY_MS", "0", (s) => s.demoDelayMs, 0],
  ["QUORUM_MAX_EVAL_USD", "12.5", (s) => s.spend.evalUsd, 12.5],
  [
    "QUORUM_PROVIDER_CONCURRENCY",
    " openai=8, anthropic = 4 ,",
    (s) => [...s.providerConcurrency],
    [
      ["openai", 8],
      ["anthropic", 4],
    ],
  ],
  [
    "QUORUM_PRICES",
    "openai-compatible:qwen2.5:7b=0:0, openai:gpt-x = 1.5 : 6,",
    (s) => [...s.prices],
    [
      ["openai-compatible:qwen2.5:7b", { priceIn: 0, priceOut: 0 }],
      ["openai:gpt-x", { priceIn: 1.5, priceOut: 6 }],
    ],
  ],
  ["QUORUM_ARENA_MODELS", " openai:a, google:b,,openai:a ", (s) => s.arena.models, ["openai:a", "google:b"]],
  ["QUORUM_ARENA_MAX_TURNS", "3", (s) => s.arena.maxTurns, 3],
  ["QUORUM_ARENA_TIMEOUT_MS", "100", (s) => s.arena.timeoutMs, 100],
  ["QUORUM_MIN_VOTE_MS", "0", (s) => s.arena.minVoteMs, 0],
  ["QUORUM_IMPORT_MAX_LINES", "50", (s) => s.arena.importMaxLines, 50],
  ["QUORUM_TOPPER_MIN_APPEARANCES", "1", (s) => s.arena.topperMinAppearances, 1],
  ["QUORUM_VOTES_PER_CLIENT", "2", (s) => s.arena.votesPerClient, 2],
  ["QUORUM_VOTES_PER_COMPARISON", "1000000", (s) => s.arena.votesPerComparison, 1_000_000],
  ["QUORUM_JUDGES", "openai:j1,anthropic:j2", (s) => s.arena.judges, ["openai:j1", "anthropic:j2"]],
  [
    "QUORUM_COUNCIL_MODELS",
    " demo:concise, preset:terse@2,demo:concise ",
    (s) => s.councilModels,
    ["demo:concise", "preset:terse@2"],
  ],
  ["QUORUM_LEADERBOARD_STALE_MS", "0", (s) => s.arena.leaderboardStaleMs, 0],
  ["QUORUM_VOTE_WINDOW_MS", "60000", (s) => s.arena.voteWindowMs, 60_000],
  ["QUORUM_ARCHIVE_AFTER_HOURS", "720", (s) => s.arena.archiveAfterHours, 720],
  ["QUORUM_MAX_FIT_MODELS", "2", (s) => s.arena.maxFitModels, 2],
  ["QUORUM_INLINE_REPLAY_BATTLES", "0", (s) => s.arena.inlineReplayBattles, 0],
  ["QUORUM_ARENA_FOCUS", "all", (s) => s.arena.focus, { top: null }],
  ["QUORUM_ARENA_FOCUS", " Top3 ", (s) => s.arena.focus, { top: 3 }],
  ["QUORUM_NEW_MODEL_BATTLES", "0", (s) => s.arena.newModelBattles, 0],
  ["QUORUM_CLASSIFIER", " openai:gpt-4o-mini ", (s) => s.arena.classifier, "openai:gpt-4o-mini"],
  ["QUORUM_DEDUP_PROMPTS", "Arena", (s) => s.arena.dedupPrompts, "arena"],
  ["QUORUM_DEDUP_PROMPTS", "50", (s) => s.arena.dedupPrompts, 50],
  ["QUORUM_DEDUP_PROMPTS", "off", (s) => s.arena.dedupPrompts, null],
];

/** Each checked variable, a value it refuses, and what the problem says of it. */
const INVALID: [variable: string, raw: string, says: string][] = [
  ["QUORUM_RATE_RUNS", "lots", 'is "lots", not a number above 0'],
  ["QUORUM_RATE_COMPARISONS", "0", 'is "0", not a number above 0'],
  ["QUORUM_RATE_VOTES", "-5", 'is "-5", not a number above 0'],
  ["QUORUM_MAX_RUN_USD", "$5", 'is "$5", not an amount of US dollars, 0 or more'],
  ["QUORUM_MAX_DAY_USD", "-1", 'is "-1", not an amount of US dollars, 0 or more'],
  ["QUORUM_MAX_EVAL_USD", "ten", 'is "ten", not an amount of US dollars, 0 or more'],
  ["QUORUM_PROVIDER_CONCURRENCY", "openai=0", 'has the entry "openai=0", not one like openai=8'],
  ["QUORUM_PROVIDER_CONCURRENCY", "openai:8", 'has the entry "openai:8", not one like openai=8'],
  ["QUORUM_REDACT", "please", 'is "please", not true or false'],
  ["QUORUM_TRUST_CLIENT_ID", "maybe", 'is "maybe", not true or false'],
  ["QUORUM_RETRY_BASE_MS", "0.5", 'is "0.5", not a whole number, 0 or more'],
  ["QUORUM_MAX_ATTEMPTS", "0", 'is "0", not a whole number, 1 or more'],
  ["QUORUM_WATCHDOG_SLACK_MS", "30s", 'is "30s", not a whole number, 0 or more'],
  ["QUORUM_LOG", "quiet", 'is "quiet", not on or off'],
  ["QUORUM_DEMO_DELAY_MS", "fast", 'is "fast", not a whole number, 0 or more'],
  ["QUORUM_PRICES", "openai:gpt-x=1.5:6,broken-entry", 'has the entry "broken-entry", not one like'],
  ["QUORUM_PRICES", "openai:gpt-x=-1:6", 'has the entry "openai:gpt-x=-1:6", not one like'],
  ["QUORUM_ARENA_MAX_TURNS", "0", 'is "0", not a whole number, 1 or more'],
  ["QUORUM_ARENA_TIMEOUT_MS", "99", 'is "99", not a whole number, 100 or more'],
  ["QUORUM_MIN_VOTE_MS", "-1", 'is "-1", not a whole number, 0 or more'],
  ["QUORUM_IMPORT_MAX_LINES", "ten", 'is "ten", not a whole number, 1 or more'],
  ["QUORUM_TOPPER_MIN_APPEARANCES", "0", 'is "0", not a whole number, 1 or more'],
  ["QUORUM_VOTES_PER_CLIENT", "1.5", 'is "1.5", not a whole number, 1 or more'],
  ["QUORUM_VOTES_PER_COMPARISON", "Infinity", 'is "Infinity", not a whole number, 1 or more'],
  ["QUORUM_LEADERBOARD_STALE_MS", "1s", 'is "1s", not a whole number, 0 or more'],
  ["QUORUM_VOTE_WINDOW_MS", "an hour", 'is "an hour", not a whole number, 0 or more'],
  ["QUORUM_ARCHIVE_AFTER_HOURS", "-720", 'is "-720", not a whole number, 0 or more'],
  ["QUORUM_MAX_FIT_MODELS", "1", 'is "1", not a whole number, 2 or more'],
  ["QUORUM_ARENA_FOCUS", "top0", 'is "top0", not all or topN (top3, top10…)'],
  ["QUORUM_ARENA_FOCUS", "best", 'is "best", not all or topN (top3, top10…)'],
  ["QUORUM_COUNCIL_MODELS", "demo:concise,gpt-4", 'holds "gpt-4", not a model id like demo:concise'],
  ["QUORUM_NEW_MODEL_BATTLES", "fifty", 'is "fifty", not a whole number, 0 or more'],
  ["QUORUM_CLASSIFIER", "gpt-4o-mini", 'is "gpt-4o-mini", not a model id like demo:concise or openai:gpt-4o-mini'],
  ["QUORUM_DEDUP_PROMPTS", "0", 'is "0", not off, arena or a whole number of battles, 1 or more'],
];

describe("the settings (worker/shared/config.ts)", () => {
  it("are the documented defaults when nothing is set, or only blanks", () => {
    expect(settings({})).toEqual(DEFAULTS);
    const blanks = Object.fromEntries(VALID.map(([variable]) => [variable, "  "]));
    expect(settings(blanks)).toEqual(DEFAULTS);
  });

  it.each(VALID)("read %s=%j", (variable, raw, read, expected) => {
    expect(read(settings({ [variable]: raw }))).toEqual(expected);
    expect(configProblems({ [variable]: raw })).toEqual([]);
  });

  it("read the numbers and booleans wrangler.toml [vars] may hold", () => {
    const s = settings({ QUORUM_ARENA_MAX_TURNS: 5, QUORUM_REDACT: true, QUORUM_MAX_DAY_USD: 2.5 });
    expect([s.arena.maxTurns, s.redact, s.spend.dayUsd]).toEqual([5, true, 2.5]);
  });

  it.each(INVALID)("refuse %s=%j, naming it, what is wrong and where to fix it", (variable, raw, says) => {
    const env: ConfigVars = { [variable]: raw };
    const [problem, ...more] = configProblems(env);
    expect(more).toEqual([]);
    expect(problem.variable).toBe(variable);
    expect(problem.message).toContain(`${variable} ${says}`);
    expect(problem.message).toContain(".dev.vars");
    expect(problem.message).toContain(`npx wrangler secret put ${variable}`);
    expect(() => settings(env)).toThrow(ConfigInvalid);
    expect(() => settings(env)).toThrow(`${variable} ${says}`);
  });

  it("name every variable that doesn't parse at once", () => {
    const env = { QUORUM_RATE_RUNS: "lots", QUORUM_LOG: "quiet", QUORUM_ARENA_MAX_TURNS: "3" };
    expect(configProblems(env).map((p) => p.variable)).toEqual(["QUORUM_RATE_RUNS", "QUORUM_LOG"]);
    let thrown: unknown;
    try {
      settings(env);
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(ConfigInvalid);
    expect((thrown as ConfigInvalid).problems).toEqual(configProblems(env));
    expect((thrown as ConfigInvalid).message).toMatch(
      /^This Quorum's configuration is invalid: QUORUM_RATE_RUNS .* QUORUM_LOG /,
    );
  });

  it("quote a long bad value by its start only", () => {
    const [problem] = configProblems({ QUORUM_ARENA_MODELS: "a", QUORUM_MIN_VOTE_MS: `${"9".repeat(400)}x` });
    expect(problem.message).toContain(`is "${"9".repeat(57)}…", not a whole number`);
    expect(problem.message.length).toBeLessThan(300);
  });

  it("are parsed once per env object, and each env object gets its own", () => {
    const env = { QUORUM_RATE_RUNS: "7" };
    expect(settings(env)).toBe(settings(env));
    expect(settings({ ...env, QUORUM_RATE_RUNS: "8" }).rates.runs).toBe(8);
    expect(settings(env).rates.runs).toBe(7);
  });

  it("keep the access settings and the version readable when another setting is invalid", () => {
    const env = { APP_TOKEN: " t0ken ", QUORUM_LISTEN: "127.0.0.1", QUORUM_VERSION: "0.1.0", QUORUM_LOG: "quiet" };
    expect(baseSettings(env)).toEqual({ appToken: "t0ken", listen: "127.0.0.1", version: "0.1.0" });
    expect(baseSettings({ APP_TOKEN: "", QUORUM_LISTEN: " " })).toEqual({
      appToken: null,
      listen: null,
      version: "unknown",
    });
  });
});
