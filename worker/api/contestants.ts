/**
 * Contestants resolved, in one place: what a model id or a preset id (`preset:<slug>@<version>`) calls. Every route
 * that takes contestants (runs, comparisons, judges, evaluations) resolves them here, so a preset means the same
 * model, system prompt and parameters wherever it is named.
 */
import { markUsed, presetsByRef, type PresetRow } from "../db/preset-queries";
import { openDb } from "../db/queries";
import { displayName } from "../providers/registry";
import { isPresetId, type PresetRef, parsePresetId, presetId } from "../shared/contestant";
import { presetDisplayName } from "../shared/preset-names";
import type { ModelParams } from "../shared/run";
import { checkModels } from "./check-models";
import { ApiError } from "./errors";

export interface Contestant {
  /** as named: a model id, or `preset:<slug>@<version>` */
  id: string;
  /** the provider model it calls */
  modelId: string;
  /** a preset's system prompt and parameters; none for a model id */
  params: ModelParams;
  displayName: string;
}

/** A preset row's parameters, leaving out what it doesn't set. */
export function presetParams(row: PresetRow): ModelParams {
  return {
    ...(row.systemPrompt !== null ? { systemPrompt: row.systemPrompt } : {}),
    ...(row.temperature !== null ? { temperature: row.temperature } : {}),
    ...(row.maxTokens !== null ? { maxTokens: row.maxTokens } : {}),
  };
}

function refOf(id: string): PresetRef {
  const ref = parsePresetId(id);
  if (!ref)
    throw new ApiError(
      400,
      "invalid_preset_id",
      `"${id}" is not a preset id: name a preset's version as preset:<slug>@<version>, e.g. preset:terse@1 (GET /api/presets lists them).`,
    );
  return ref;
}

/**
 * Each id as what it calls, in order: a model id calls itself with no parameters, a preset its model with the
 * preset's system prompt and parameters. Refuses (400) a malformed, unknown or deleted preset version by name, and
 * any model whose provider is unknown or not configured (check-models.ts).
 */
export async function resolveContestants(env: Env, ids: string[]): Promise<Contestant[]> {
  const refs = ids.filter(isPresetId).map(refOf);
  const rows = await presetsByRef(openDb(env.DB), refs);
  const resolved = ids.map((id): Contestant => {
    if (!isPresetId(id)) return { id, modelId: id, params: {}, displayName: displayName(id) };
    const ref = refOf(id);
    const row = rows.find((r) => r.slug === ref.slug && r.version === ref.version);
    if (!row)
      throw new ApiError(
        400,
        "unknown_preset",
        `There is no preset "${id}". GET /api/presets lists the presets and their versions.`,
      );
    if (row.deletedAt !== null)
      throw new ApiError(
        400,
        "preset_deleted",
        `The preset "${id}" was deleted, so it can't take part in anything new.`,
      );
    return { id: presetId(ref), modelId: row.modelId, params: presetParams(row), displayName: presetDisplayName(row) };
  });
  checkModels(
    env,
    resolved.map((c) => c.modelId),
  );
  return resolved;
}

/** Marks the preset versions among `ids` used (once): from then on an edit makes a new version. Model ids are skipped. */
export async function markPresetsUsed(env: Env, ids: string[]): Promise<void> {
  const refs = ids.map(parsePresetId).filter((r): r is PresetRef => r !== null);
  await markUsed(openDb(env.DB), refs, Date.now());
}

/**
 * Resolves contestants for work about to start: marks their presets used first, then reads them, so what the work
 * runs with is what the versions say for good (an edit landing in between makes a new version instead).
 */
export async function claimContestants(env: Env, ids: string[]): Promise<Contestant[]> {
  await resolveContestants(env, ids);
  await markPresetsUsed(env, ids);
  return resolveContestants(env, ids);
}

/** The provider model and a preset's parameters of each preset among `contestants`, as a room's record keeps them. */
export function targetsOf(
  contestants: Contestant[],
): Record<string, { modelId: string; params: ModelParams; displayName: string }> {
  return Object.fromEntries(
    contestants
      .filter((c) => isPresetId(c.id))
      .map((c) => [c.id, { modelId: c.modelId, params: c.params, displayName: c.displayName }]),
  );
}

/**
 * For prices: the model each of `ids` calls, deleted presets included (work already under way keeps its price); an
 * id that names no preset is priced as itself.
 */
export async function pricedAs(env: Env, ids: string[]): Promise<(id: string) => string> {
  const refs = ids.map(parsePresetId).filter((r): r is PresetRef => r !== null);
  const rows = await presetsByRef(openDb(env.DB), refs);
  const called = new Map(rows.map((r) => [presetId(r), r.modelId]));
  return (id) => called.get(id) ?? id;
}
