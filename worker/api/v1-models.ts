/**
 * Which model answers a /v1 call, and what GET /v1/models lists: every available model id of the configured
 * providers, proxied as they are, each live preset's newest version (`preset:<slug>@<version>`: its model with its
 * system prompt and parameters), and Quorum's own virtual models (provider `quorum`): `quorum:top` (the human
 * leaderboard's leader), `quorum:top/<category or label>` and `quorum:council` (a council run, v1-council.ts).
 */
import { TopperError, chooseTopper } from "../arena/topper";
import { latestPresets } from "../db/preset-queries";
import { openDb } from "../db/queries";
import { listModelGroups, parseModelId, unavailableReason } from "../providers/registry";
import { QUORUM_COUNCIL } from "../shared/constants";
import { isPresetId, presetId } from "../shared/contestant";
import type { ModelParams } from "../shared/run";
import { checkModels } from "./check-models";
import { claimContestants } from "./contestants";
import { ApiError } from "./errors";

export const QUORUM_TOP = "quorum:top";

/** The model a call goes to, and the headers that say how it was chosen. */
export interface Resolved {
  modelId: string;
  /** a preset's system prompt and parameters (the call's own temperature and max_tokens win) */
  params: ModelParams;
  headers: Record<string, string>;
}

/** A refusal of the model field, as the resolvers below give it, naming the field. */
async function asModelField<T>(resolve: () => Promise<T> | T): Promise<T> {
  try {
    return await resolve();
  } catch (err) {
    if (err instanceof ApiError) throw new ApiError(err.status, err.code, err.message, { param: "model" });
    throw err;
  }
}

/** Header values are bytes: anything outside printable ASCII (a category's own letters) is spelled as \u escapes. */
const headerSafe = (s: string) =>
  s.replace(/[^\x20-\x7e]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, "0")}`);

const unknownModel = (message: string) => new ApiError(400, "unknown_model", message, { param: "model" });

export async function resolveModel(env: Env, model: string): Promise<Resolved> {
  if (model === QUORUM_TOP || model.startsWith(`${QUORUM_TOP}/`)) {
    const view = model === QUORUM_TOP ? null : model.slice(QUORUM_TOP.length + 1);
    try {
      const topper = await chooseTopper(env, openDb(env.DB), view);
      return {
        modelId: topper.modelId,
        params: {},
        headers: {
          [topper.fallback ? "x-quorum-fallback" : "x-quorum-reason"]: headerSafe(topper.why),
        },
      };
    } catch (err) {
      if (err instanceof TopperError) throw unknownModel(err.message);
      throw err;
    }
  }
  if (model.startsWith("quorum:"))
    throw unknownModel(
      `"${model}" is not one of Quorum's models: use ${QUORUM_TOP}, ${QUORUM_TOP}/<category> or ${QUORUM_COUNCIL}.`,
    );
  if (!model.includes(":"))
    throw unknownModel(
      `"${model}" is not a model id: use provider:model-name as GET /v1/models lists them (e.g. openai:gpt-4.1), or ${QUORUM_TOP}.`,
    );
  if (isPresetId(model)) {
    // Claimed as any work claims it: from its first use on, an edit makes a new version.
    const [preset] = await asModelField(() => claimContestants(env, [model]));
    return { modelId: preset.modelId, params: preset.params, headers: { "x-quorum-preset": preset.id } };
  }
  await asModelField(() => checkModels(env, [model]));
  return { modelId: model, params: {}, headers: {} };
}

/** GET /v1/models: Quorum's own models first, then every model of each configured provider. */
export async function listV1Models(env: Env) {
  const groups = await listModelGroups(env);
  const own = [QUORUM_TOP, QUORUM_COUNCIL].map((id) => ({ id, owned_by: "quorum" }));
  const callable = (id: string) => {
    const parsed = parseModelId(id);
    return parsed !== null && unavailableReason(parsed.provider, env) === null;
  };
  const presets = (await latestPresets(openDb(env.DB)))
    .filter((p) => callable(p.modelId))
    .map((p) => ({ id: presetId(p), owned_by: "quorum-preset" }));
  const proxied = groups.filter((g) => g.available).flatMap((g) => g.models.map((m) => ({ id: m.id, owned_by: g.id })));
  return {
    object: "list" as const,
    data: [...own, ...presets, ...proxied].map((m) => ({ ...m, object: "model" as const, created: 0 })),
  };
}
