/**
 * Contestants: what answers in a run, a comparison or an evaluation. A model id (`provider:name`) or a preset,
 * `preset:<slug>@<version>` — a model with its own system prompt and parameters (worker/db/schema.ts `presets`).
 * Zod-free, so the page shares it.
 */

export const PRESET_PREFIX = "preset:";
/** a preset's slug: lower-case letters, digits and single hyphens, up to 48 characters */
export const PRESET_SLUG = /^[a-z0-9](?:[a-z0-9]|-(?=[a-z0-9])){0,47}$/;

export interface PresetRef {
  slug: string;
  version: number;
}

/** `preset:terse@2` → `{ slug: "terse", version: 2 }`; null for a model id or anything malformed. */
export function parsePresetId(id: string): PresetRef | null {
  if (!id.startsWith(PRESET_PREFIX)) return null;
  const at = id.lastIndexOf("@");
  if (at < 0) return null;
  const slug = id.slice(PRESET_PREFIX.length, at);
  const version = id.slice(at + 1);
  if (!PRESET_SLUG.test(slug) || !/^[1-9]\d{0,5}$/.test(version)) return null;
  return { slug, version: Number(version) };
}

export const presetId = (ref: PresetRef) => `${PRESET_PREFIX}${ref.slug}@${ref.version}`;

export const isPresetId = (id: string) => id.startsWith(PRESET_PREFIX);
