/**
 * The model `quorum:top` sends a call to: the leader of the human leaderboard (best Bradley–Terry rating among the
 * models with at least QUORUM_TOPPER_MIN_APPEARANCES appearances), read from the very standings GET
 * /api/leaderboard serves, optionally in one category or prompt label's view. While no model qualifies, the
 * configured fallback answers and says so.
 */
import type { Db } from "../db/queries";
import { parseModelId, unavailableReason } from "../providers/registry";
import { settings } from "../shared/config";
import { LANGUAGE_LABEL_PREFIX, PROMPT_LABELS } from "../shared/constants";
import { type LeaderboardQuery, leaderboardQuery } from "../shared/requests";
import { arenaPool } from "./choose-pair";
import { computeStandings } from "./standings";

export interface Topper {
  modelId: string;
  /** why this model answers, for a person: its place and rating, or why the fallback did */
  why: string;
  fallback: boolean;
}

/** A view `quorum:top/<view>` names that the leaderboard can't show, or no model to fall back to. */
export class TopperError extends Error {}

/** `coding` or `lang:en` is a prompt label's view; anything else a category's. */
function viewOf(view: string | null): Partial<LeaderboardQuery> {
  if (view === null) return {};
  const isLabel = (PROMPT_LABELS as readonly string[]).includes(view) || view.startsWith(LANGUAGE_LABEL_PREFIX);
  const parsed = leaderboardQuery.safeParse(isLabel ? { label: view } : { category: view });
  if (!parsed.success)
    throw new TopperError(`"${view}" is not a leaderboard view: ${parsed.error.issues[0]?.message}.`);
  return isLabel ? { label: view } : { category: view };
}

const callable = (env: Env, id: string) => {
  const parsed = parseModelId(id);
  return parsed !== null && unavailableReason(parsed.provider, env) === null;
};

const round = (n: number) => Math.round(n);

export async function chooseTopper(env: Env, db: Db, view: string | null): Promise<Topper> {
  const { topperMinAppearances: min, topperFallback, leaderboardStaleMs } = settings(env).arena;
  const query = leaderboardQuery.parse(viewOf(view));
  const { standings } = await computeStandings(env, db, query, leaderboardStaleMs);
  const leader = standings.rows
    .filter((r) => r.bt !== null && r.appearances >= min && callable(env, r.modelId))
    .sort((a, b) => b.bt! - a.bt!)[0];
  const where = view === null ? "the human leaderboard" : `the human leaderboard's ${view} view`;
  if (leader) {
    // In words rather than "±": the reason is also an HTTP header (x-quorum-reason), which carries ASCII only.
    const interval =
      leader.ciLower !== null && leader.ciUpper !== null
        ? ` (give or take ${round((leader.ciUpper - leader.ciLower) / 2)})`
        : "";
    return {
      modelId: leader.modelId,
      why: `#1 on ${where}, ${round(leader.bt!)}${interval} over ${leader.appearances} appearances`,
      fallback: false,
    };
  }
  const configured = topperFallback !== null && callable(env, topperFallback) ? topperFallback : null;
  const fallback = configured ?? (await arenaPool(env)).find((id) => callable(env, id));
  if (!fallback)
    throw new TopperError(
      `No model has ${min} appearances on ${where} yet, and there is no available model to fall back to: set QUORUM_TOPPER_FALLBACK to a configured model id.`,
    );
  return {
    modelId: fallback,
    why: `No model has ${min} appearances on ${where} yet (QUORUM_TOPPER_MIN_APPEARANCES), so ${configured ? "QUORUM_TOPPER_FALLBACK" : "the arena pool's first available model"} answered`,
    fallback: true,
  };
}
