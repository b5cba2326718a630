/** The catalog's models for the pages whose pickers load it themselves (the setup page passes its own). */
import { createResource } from "solid-js";
import { api, call } from "./api";
import { modelOptions } from "./model-match";

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
        return modelOptions((await call(api.models.$get())).providers);
      } catch {
        return [];
      }
    },
  );
  return () => options.latest ?? [];
}
