/**
 * Which model answers a /v1 call, and what GET /v1/models lists: every available model id of the configured
 * providers, proxied as they are, and Quorum's own virtual models (provider `quorum`): `quorum:top` (the human
 * leaderboard's leader) and `quorum:top/<category or label>`.
 */
import { TopperError, chooseTopper } from "../arena/topper";
import { openDb } from "../db/queries";
import { listModelGroups } from "../providers/registry";
import { checkModels } from "./check-models";
import { ApiError } from "./errors";

export const QUORUM_TOP = "quorum:top";
const QUORUM_COUNCIL = "quorum:council";

/** The model a call goes to, and the headers that say how it was chosen. */
export interface Resolved {
  modelId: string;
  headers: Record<string, string>;
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
        headers: {
          [topper.fallback ? "x-quorum-fallback" : "x-quorum-reason"]: headerSafe(topper.why),
        },
      };
    } catch (err) {
      if (err instanceof TopperError) throw unknownModel(err.message);
      throw err;
    }
  }
  if (model === QUORUM_COUNCIL)
    throw new ApiError(
      501,
      "not_implemented",
      "quorum:council is not served on /v1 yet. Start a council run on /api/runs (or in the page), or call quorum:top.",
      { param: "model" },
    );
  if (model.startsWith("quorum:"))
    throw unknownModel(`"${model}" is not one of Quorum's models: use ${QUORUM_TOP} or ${QUORUM_TOP}/<category>.`);
  if (!model.includes(":"))
    throw unknownModel(
      `"${model}" is not a model id: use provider:model-name as GET /v1/models lists them (e.g. openai:gpt-4.1), or ${QUORUM_TOP}.`,
    );
  if (model.startsWith("preset:"))
    throw unknownModel(`Presets ("${model}") are not served on /v1 yet: call the preset's model id directly.`);
  try {
    checkModels(env, [model]);
  } catch (err) {
    if (err instanceof ApiError) throw new ApiError(400, err.code, err.message, { param: "model" });
    throw err;
  }
  return { modelId: model, headers: {} };
}

/** GET /v1/models: Quorum's own models first, then every model of each configured provider. */
export async function listV1Models(env: Env) {
  const groups = await listModelGroups(env);
  const own = [QUORUM_TOP].map((id) => ({ id, owned_by: "quorum" }));
  const proxied = groups.filter((g) => g.available).flatMap((g) => g.models.map((m) => ({ id: m.id, owned_by: g.id })));
  return {
    object: "list" as const,
    data: [...own, ...proxied].map((m) => ({ ...m, object: "model" as const, created: 0 })),
  };
}
