import { PROVIDER_NAMES, isProviderId, parseModelId, unavailableReason } from "../providers/registry";
import { PROVIDER_IDS } from "../providers/types";
import { ApiError } from "./errors";

/** Refuses, with what to do about it, any model id whose provider is unknown or not configured. */
export function checkModels(env: Env, ids: string[]) {
  for (const id of ids) {
    const parsed = parseModelId(id);
    if (!parsed) {
      const provider = id.slice(0, id.indexOf(":"));
      const why = isProviderId(provider)
        ? "has no model name after the colon"
        : `names an unknown provider "${provider}"`;
      throw new ApiError(
        400,
        "unknown_provider",
        `Model "${id}" ${why}. Use provider:model-name with one of: ${PROVIDER_IDS.join(", ")}.`,
      );
    }
    const reason = unavailableReason(parsed.provider, env);
    if (reason)
      throw new ApiError(
        400,
        "provider_not_configured",
        `${PROVIDER_NAMES[parsed.provider]} is not configured (${reason}), so "${id}" can't run. Add it to .dev.vars or pick another model.`,
        {
          provider: parsed.provider,
          reason,
        },
      );
  }
}
