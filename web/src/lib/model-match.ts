/** The models a picker offers and the matching of what was typed against them: plain functions of the catalog. */

/** What the matching needs of the catalog's provider groups (the api's ProviderGroup fits). */
interface CatalogGroup {
  available: boolean;
  displayName: string;
  models: { id: string; displayName: string; available: boolean }[];
}

export interface ModelOption {
  id: string;
  name: string;
  provider: string;
}

/** The models that can run now: an unavailable one would only fail after it was chosen. */
export function modelOptions(groups: CatalogGroup[]): ModelOption[] {
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
