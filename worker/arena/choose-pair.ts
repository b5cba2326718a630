/** The two models of a new comparison: the ones asked for, a sampled pair, or the leader and a challenger. */
import type { PairTotals } from "../db/leaderboard-queries";
import type { Db } from "../db/queries";
import { parseModelId, unavailableReason } from "../providers/registry";
import type { ComparisonMode } from "../shared/arena";
import { leaderboardQuery } from "../shared/requests";
import { settings } from "../shared/config";
import { arenaPool, drawPair, secureRandom, shuffleSides, type PairEvidence } from "./pairing";
import { computeStandings, type Standings } from "./standings";

export interface ChosenPair {
  models: { left: string; right: string };
  mode: ComparisonMode;
  modeNote: string | null;
  /** every model the pair could have been drawn from: the two asked for, or the pool */
  candidates: string[];
}

export class NoPairError extends Error {}

function evidenceFrom(standings: Standings, pairs: PairTotals[]): PairEvidence {
  const battles = new Map(pairs.map((p) => [`${p.lo}\n${p.hi}`, p.loWins + p.hiWins + p.ties + p.bothBad]));
  const intervals = new Map(
    standings.rows
      .filter((r) => r.ciLower !== null && r.ciUpper !== null)
      .map((r) => [r.modelId, [r.ciLower!, r.ciUpper!] as [number, number]]),
  );
  return {
    battles: (a, b) => battles.get(a < b ? `${a}\n${b}` : `${b}\n${a}`) ?? 0,
    interval: (m) => intervals.get(m) ?? null,
  };
}

export async function choosePair(
  env: Env,
  db: Db,
  request: { models?: string[]; mode?: ComparisonMode },
  topperMinAppearances: number,
  random = secureRandom,
): Promise<ChosenPair> {
  if (request.models) {
    const [a, b] = request.models;
    return { models: shuffleSides([a, b], random), mode: "manual", modeNote: null, candidates: [a, b] };
  }
  const pool = (await arenaPool(env)).filter((id) => {
    const parsed = parseModelId(id);
    return parsed !== null && unavailableReason(parsed.provider, env) === null;
  });
  if (pool.length < 2)
    throw new NoPairError(
      "The arena needs at least two available models to sample from. Set QUORUM_ARENA_MODELS to two or more model ids of configured providers, or name the two models.",
    );
  const { standings, pairs } = await computeStandings(
    env,
    db,
    leaderboardQuery.parse({}),
    settings(env).arena.leaderboardStaleMs,
  );
  const evidence = evidenceFrom(standings, pairs);
  if (request.mode === "topper") {
    const leader = standings.rows.find(
      (r) => r.bt !== null && r.appearances >= topperMinAppearances && pool.includes(r.modelId),
    );
    if (leader)
      return {
        models: shuffleSides(drawPair(pool, evidence, random, leader.modelId), random),
        mode: "topper",
        modeNote: null,
        candidates: pool,
      };
    const note = `No model in the pool has ${topperMinAppearances} appearances with a rating yet, so this pair was sampled instead of pitting the leader.`;
    return {
      models: shuffleSides(drawPair(pool, evidence, random), random),
      mode: "sampled",
      modeNote: note,
      candidates: pool,
    };
  }
  return {
    models: shuffleSides(drawPair(pool, evidence, random), random),
    mode: "sampled",
    modeNote: null,
    candidates: pool,
  };
}
