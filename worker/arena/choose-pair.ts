/** The two models of a new comparison: the ones asked for, a sampled pair, or the leader and a challenger. */
import { presetsByRef } from "../db/preset-queries";
import type { Db } from "../db/queries";
import { listModelGroups, parseModelId, unavailableReason } from "../providers/registry";
import type { ComparisonMode } from "../shared/arena";
import { parsePresetId } from "../shared/contestant";
import { leaderboardQuery } from "../shared/requests";
import { settings } from "../shared/config";
import { normalQuantile } from "../rating/normal";
import type { DifferenceVariance } from "./leaderboard";
import { drawPair, secureRandom, shuffleSides, type PairEvidence } from "./pairing";
import { computeStandings, type Standings } from "./standings";

export interface ChosenPair {
  models: { left: string; right: string };
  mode: ComparisonMode;
  modeNote: string | null;
  /** every model the pair could have been drawn from: the two asked for, or the pool */
  candidates: string[];
  /** the provider model each candidate calls: itself, or a preset's model (a pair asked for maps to itself) */
  calls: Record<string, string>;
}

export class NoPairError extends Error {}

/**
 * The models a pair is drawn from: QUORUM_ARENA_MODELS, else every available model (the demo models only when no
 * real provider is configured, so a fresh install has an arena).
 */
export async function arenaPool(env: Env): Promise<string[]> {
  const configured = settings(env).arena.models;
  if (configured.length) return configured;
  const groups = await listModelGroups(env);
  const real = groups.filter((g) => g.id !== "demo" && g.available).flatMap((g) => g.models.map((m) => m.id));
  return real.length ? real : groups.filter((g) => g.id === "demo").flatMap((g) => g.models.map((m) => m.id));
}

/**
 * The pool's entries that can answer now, each with the model it calls: a model of a configured provider, or a
 * preset (`preset:<slug>@<version>`) that exists, is not deleted, and whose model's provider is configured.
 */
async function availablePool(env: Env, db: Db, pool: string[]): Promise<Map<string, string>> {
  const refs = pool.map(parsePresetId).filter((r) => r !== null);
  const presets = await presetsByRef(db, refs);
  const callable = (modelId: string) => {
    const parsed = parseModelId(modelId);
    return parsed !== null && unavailableReason(parsed.provider, env) === null;
  };
  const calls = new Map<string, string>();
  for (const id of pool) {
    const ref = parsePresetId(id);
    const preset = ref && presets.find((p) => p.slug === ref.slug && p.version === ref.version);
    const modelId = ref ? (preset && preset.deletedAt === null ? preset.modelId : null) : id;
    if (modelId !== null && callable(modelId)) calls.set(id, modelId);
  }
  return calls;
}

const Z95 = normalQuantile(0.975);

/**
 * What pairing knows from the default view's standings. The covariance of the differences comes from the fit
 * behind them when it ran here with sandwich intervals; a fit from a FitRoom carries intervals only, and then a
 * difference's variance is read as the sum of the two ratings' variances (their covariance left out).
 */
function evidenceFrom(standings: Standings, covariance: DifferenceVariance | null): PairEvidence {
  const rated = standings.rows.filter((r) => r.bt !== null);
  const byId = new Map(standings.rows.map((r) => [r.modelId, r]));
  const interval = (m: string): [number, number] | null => {
    const r = byId.get(m);
    return r && r.ciLower !== null && r.ciUpper !== null ? [r.ciLower, r.ciUpper] : null;
  };
  const fromIntervals = (a: string, b: string) => {
    const [x, y] = [interval(a), interval(b)];
    return x && y ? ((x[1] - x[0]) / (2 * Z95)) ** 2 + ((y[1] - y[0]) / (2 * Z95)) ** 2 : null;
  };
  return {
    rating: (m) => byId.get(m)?.bt ?? null,
    interval,
    battles: (m) => byId.get(m)?.battles ?? 0,
    differenceVariance: (a, b) => {
      const v = covariance ? covariance(a, b) : fromIntervals(a, b);
      return v !== null && Number.isFinite(v) ? v : null;
    },
    ranked: rated.sort((a, b) => b.bt! - a.bt!).map((r) => r.modelId),
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
    return {
      models: shuffleSides([a, b], random),
      mode: "manual",
      modeNote: null,
      candidates: [a, b],
      calls: { [a]: a, [b]: b },
    };
  }
  const available = await availablePool(env, db, await arenaPool(env));
  const pool = [...available.keys()];
  const calls = Object.fromEntries(available);
  if (pool.length < 2)
    throw new NoPairError(
      "The arena needs at least two available models to sample from. Set QUORUM_ARENA_MODELS to two or more model ids of configured providers, or name the two models.",
    );
  const { standings, differenceVariance } = await computeStandings(
    env,
    db,
    // Pairing weighs every model the pool may hold, demo models included, whatever the leaderboard shows.
    leaderboardQuery.parse({ demo: "include" }),
    settings(env).arena.leaderboardStaleMs,
  );
  const evidence = evidenceFrom(standings, differenceVariance);
  const { focus, newModelBattles } = settings(env).arena;
  const rules = { focus, newModelBattles };
  if (request.mode === "topper") {
    const leader = standings.rows.find(
      (r) => r.bt !== null && r.appearances >= topperMinAppearances && pool.includes(r.modelId),
    );
    if (leader)
      return {
        models: shuffleSides(drawPair(pool, evidence, rules, random, leader.modelId), random),
        mode: "topper",
        modeNote: null,
        candidates: pool,
        calls,
      };
    const note = `No model in the pool has ${topperMinAppearances} appearances with a rating yet, so this pair was sampled instead of pitting the leader.`;
    return {
      models: shuffleSides(drawPair(pool, evidence, rules, random), random),
      mode: "sampled",
      modeNote: note,
      candidates: pool,
      calls,
    };
  }
  return {
    models: shuffleSides(drawPair(pool, evidence, rules, random), random),
    mode: "sampled",
    modeNote: null,
    candidates: pool,
    calls,
  };
}
