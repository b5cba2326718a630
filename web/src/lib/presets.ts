/** Presets beside the catalog's models: for the pickers, and the setup page's list of what can run. */
import type { PickerGroup, PickerModel, PresetView, ProviderGroup } from "./api";
import { api, call } from "./api";
import { isPresetId } from "../../../worker/shared/contestant";
import { presetDisplayName } from "../../../worker/shared/preset-names";

export { isPresetId };

/** The presets, newest first; none when they can't be loaded (the pickers still take typed ids). */
export async function loadPresets(): Promise<PresetView[]> {
  try {
    return (await call(api.presets.$get())).presets;
  } catch {
    return [];
  }
}

export { presetDisplayName as presetName } from "../../../worker/shared/preset-names";

/**
 * The presets as one more group of the catalog ("Presets", id `preset`), so a picker lists, matches and checks
 * them as it does models. A preset whose model can't run here is listed as unavailable, with the reason.
 */
export function presetGroup(presets: PresetView[], groups: ProviderGroup[]): PickerGroup {
  const models: PickerModel[] = presets.map((p) => {
    const base = groups.find((g) => p.modelId.startsWith(`${g.id}:`));
    const reason = !base
      ? "its model's provider is unknown"
      : base.available
        ? null
        : (base.reason ?? "not configured");
    return {
      id: p.id,
      provider: "preset",
      name: p.modelId,
      displayName: presetDisplayName(p),
      priceIn: null,
      priceOut: null,
      contextTokens: null,
      demo: false,
      available: reason === null,
      reason,
    };
  });
  return { id: "preset", displayName: "Presets", available: true, reason: null, models };
}
