/** The catalog's models and the presets, for the pages whose pickers load them themselves (the setup page passes its own). */
import { createResource } from "solid-js";
import { api, call } from "./api";
import { modelOptions } from "./model-match";
import { loadPresets, presetGroup } from "./presets";

/**
 * The catalog's runnable models, fetched once `wanted` first turns true and kept for the page's life. A catalog
 * that fails to load offers nothing: the fields still take typed ids.
 */
export function createModelOptions(wanted: () => boolean) {
  let asked = false;
  const [options] = createResource(
    () => {
      if (wanted()) asked = true;
      return asked || undefined;
    },
    async () => {
      try {
        const [{ providers }, presets] = await Promise.all([call(api.models.$get()), loadPresets()]);
        // Presets are offered beside the models: anything that takes a model id takes one.
        return modelOptions([...providers, presetGroup(presets, providers)]);
      } catch {
        return [];
      }
    },
    // Without an initial value, reading the first load (even through `latest`) suspends the page's Suspense
    // (app.tsx): the whole page would give way to "Loading…" until the catalog came, e.g. the arena's answers
    // and their tabs the moment both are in and the judges' field asks for the models.
    { initialValue: [] },
  );
  return () => options.latest;
}
