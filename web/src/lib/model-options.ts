/** The models a picker offers, from the catalog the page loaded, and the matching of what was typed against them. */
import { createResource } from "solid-js";
import { api, call, type ProviderGroup } from "./api";

export interface ModelOption {
  id: string;
  name: string;
  provider: string;
}

/** The models that can run now: an unavailable one would only fail after it was chosen. */
export function modelOptions(groups: ProviderGroup[]): ModelOption[] {
  return groups
    .filter((g) => g.available)
    .flatMap((g) =>
      g.models.filter((m) => m.available).map((m) => ({ id: m.id, name: m.displayName, provider: g.displayName })),
    );
}

/** Options whose id, name or provider contains every word typed, in catalog order; none when the text is the one match. */
export function matchModels(options: ModelOption[], typed: string, exclude: readonly string[] = []): ModelOption[] {
  const words = typed.trim().toLowerCase().split(/\s+/).filter(Boolean);
  const found = options.filter(
    (o) => !exclude.includes(o.id) && words.every((w) => `${o.id} ${o.name} ${o.provider}`.toLowerCase().includes(w)),
  );
  return found.length === 1 && found[0].id === typed.trim() ? [] : found;
}

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
