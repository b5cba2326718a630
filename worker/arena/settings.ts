/** The arena's knobs, read from QUORUM_* variables with their documented defaults. */
import { MAX_FIT_MODELS } from "./fit-plan";

function whole(value: string | undefined, fallback: number, min: number): number {
  const n = Number(value);
  return value !== undefined && value.trim() !== "" && Number.isInteger(n) && n >= min ? n : fallback;
}

export function arenaSettings(env: Env) {
  return {
    maxTurns: whole(env.QUORUM_ARENA_MAX_TURNS, 10, 1),
    timeoutMs: whole(env.QUORUM_ARENA_TIMEOUT_MS, 120_000, 100),
    minVoteMs: whole(env.QUORUM_MIN_VOTE_MS, 3000, 0),
    importMaxLines: whole(env.QUORUM_IMPORT_MAX_LINES, 10_000, 1),
    topperMinAppearances: whole(env.QUORUM_TOPPER_MIN_APPEARANCES, 20, 1),
    votesPerClient: whole(env.QUORUM_VOTES_PER_CLIENT, 5, 1),
    votesPerComparison: whole(env.QUORUM_VOTES_PER_COMPARISON, 20, 1),
    leaderboardStaleMs: whole(env.QUORUM_LEADERBOARD_STALE_MS, 1000, 0),
    voteWindowMs: whole(env.QUORUM_VOTE_WINDOW_MS, 3_600_000, 0),
    archiveAfterHours: whole(env.QUORUM_ARCHIVE_AFTER_HOURS, 0, 0),
    maxFitModels: whole(env.QUORUM_MAX_FIT_MODELS, MAX_FIT_MODELS, 2),
    judges: (env.QUORUM_JUDGES ?? "")
      .split(",")
      .map((s) => s.trim())
      .filter(Boolean),
  };
}
