// Secrets and optional settings that `wrangler types` cannot see (they live in .dev.vars or Worker secrets).
// worker/shared/config.ts reads and checks every one of them (nothing else does): blank is unset, and a value that
// doesn't parse is not replaced by its default: /api/health names it and every other route answers 503 config_invalid.
// Counts and milliseconds are whole numbers (at least 1 where 0 makes no sense); rates and dollars may have decimals.
import type { ProviderVars } from "./providers/types";

interface QuorumVars extends ProviderVars {
  /** per-client limits per minute on creating runs (30), comparisons (60) and casting votes (120) */
  QUORUM_RATE_RUNS?: string;
  QUORUM_RATE_COMPARISONS?: string;
  QUORUM_RATE_VOTES?: string;
  /** per-client limit per minute on /v1/chat/completions calls and single or topper chat messages (60) */
  QUORUM_RATE_COMPLETIONS?: string;
  /** the most one run or comparison may ever cost, every later request on it included (US dollars); needs priced models */
  QUORUM_MAX_RUN_USD?: string;
  /** the most all work since 00:00 UTC may cost, spent and set aside together (US dollars); needs priced models */
  QUORUM_MAX_DAY_USD?: string;
  /** the most one evaluation may cost, its retries included (US dollars); needs priced models */
  QUORUM_MAX_EVAL_USD?: string;
  /** calls in flight per provider over every evaluation and goal battle together, `openai=12,anthropic=4` (default 4 each); one room keeps at most 6, so an evaluation whose caps add up to more is spread over rooms */
  QUORUM_PROVIDER_CONCURRENCY?: string;
  /** "true" (or 1, yes, on; false, 0, no, off turn it off) masks API keys, tokens, private keys and email addresses in questions and prompts before they are stored or sent */
  QUORUM_REDACT?: string;
  /** the access token every /api route asks for; required when reached from another machine */
  APP_TOKEN?: string;
  /** the address `wrangler dev` listens on, set by `npm start` (never by hand, never deployed): a loopback one is the only proof of a local client */
  QUORUM_LISTEN?: string;
  /** "true" (true or false, as QUORUM_REDACT) lets X-Client-Id name a client of its own within its address, for tests and benches that play many clients from one machine */
  QUORUM_TRUST_CLIENT_ID?: string;
  /** first backoff step in ms for transient provider errors (default 500) */
  QUORUM_RETRY_BASE_MS?: string;
  /** attempts per provider call for transient errors, the first included (default 4) */
  QUORUM_MAX_ATTEMPTS?: string;
  /** how long past a step's own deadline (its calls' timeouts) the watchdog waits before resuming it once, then stopping it (default 30000) */
  QUORUM_WATCHDOG_SLACK_MS?: string;
  /** "off" silences the one log line per provider call ("on", the default, keeps it) */
  QUORUM_LOG?: string;
  /** milliseconds between demo chunks (default 25); 0 streams at once */
  QUORUM_DEMO_DELAY_MS?: string;
  /** per-model prices overriding the catalog: `id=in:out,…` in US dollars per million tokens; every entry must parse */
  QUORUM_PRICES?: string;
  /** comma-separated model ids or presets (`preset:<slug>@<version>`) the arena samples pairs from (default: every available model) */
  QUORUM_ARENA_MODELS?: string;
  /** turns per comparison, the first prompt included (default 10) */
  QUORUM_ARENA_MAX_TURNS?: string;
  /** how long one side may take to answer a turn, retries included (default 120000) */
  QUORUM_ARENA_TIMEOUT_MS?: string;
  /** votes sooner than this after both sides answered are flagged too_fast (default 3000) */
  QUORUM_MIN_VOTE_MS?: string;
  /** battle-log lines one import request may carry (default 10000) */
  QUORUM_IMPORT_MAX_LINES?: string;
  /** live votes one client may have on one comparison (default 5), and one comparison in all (default 20) */
  QUORUM_VOTES_PER_CLIENT?: string;
  QUORUM_VOTES_PER_COMPARISON?: string;
  /** comma-separated judge model ids asked about every comparison once it has a vote */
  QUORUM_JUDGES?: string;
  /** comma-separated model or preset ids `quorum:council` on /v1 convenes (default: the demo models when no real provider is configured) */
  QUORUM_COUNCIL_MODELS?: string;
  /** appearances a leader needs before topper mode pits it against a challenger (default 20) */
  QUORUM_TOPPER_MIN_APPEARANCES?: string;
  /** the model id `quorum:top` on /v1 answers with while no model has those appearances (default: the arena pool's first available model) */
  QUORUM_TOPPER_FALLBACK?: string;
  /** the ranking arena pairing works toward and the leaderboard's settled notice speaks of: "all" (default) or "topN" */
  QUORUM_ARENA_FOCUS?: string;
  /** battles a model needs before it stops being new: boosted in pairing, `newModel` on its row (default 50) */
  QUORUM_NEW_MODEL_BATTLES?: string;
  /** how long cached standings are served without asking D1 whether the data changed (default 1000; 0 checks on every read) */
  QUORUM_LEADERBOARD_STALE_MS?: string;
  /** battles older than this many hours are final, and an hour later move to the ARCHIVE R2 bucket (default 0: never) */
  QUORUM_ARCHIVE_AFTER_HOURS?: string;
  /** the key that signs run and comparison ids and vote receipts (default: a random secret made once and kept in D1) */
  QUORUM_SECRET?: string;
  /** rated models one leaderboard fit may take (default 5000); a larger view shows no ratings and says why */
  QUORUM_MAX_FIT_MODELS?: string;
  /** battles a leaderboard read replays into online Elo and TrueSkill itself (default 20000); past them the read says computing and a room replays them */
  QUORUM_INLINE_REPLAY_BATTLES?: string;
  /** the model id that labels arena and imported prompts with the Arena's categories, e.g. openai:gpt-4o-mini (unset: rule labels only) */
  QUORUM_CLASSIFIER?: string;
  /** off (default), arena (cap prompts past the 99.9th percentile of repeats, as the Arena) or the battles one prompt keeps at most */
  QUORUM_DEDUP_PROMPTS?: string;
  /** how long after both sides answered an unvoted blind comparison waits before it counts in the leaderboard (default 3600000) */
  QUORUM_VOTE_WINDOW_MS?: string;
}

declare global {
  interface Env extends QuorumVars {}
  namespace Cloudflare {
    interface Env extends QuorumVars {}
  }
}
