/** A preset's names: the slug its id is made from, and how it is shown. Zod-free, so the page shares them. */
import { PRESET_SLUG } from "./contestant";

/** "Terse, v2 (Café)" → "terse-v2-cafe"; null when the name holds no letter or digit to make one from. */
export function slugFromName(name: string): string | null {
  const slug = name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .slice(0, 48)
    .replace(/^-+|-+$/g, "");
  return PRESET_SLUG.test(slug) ? slug : null;
}

/** How a preset version is shown: its name and version, "Terse v2". */
export const presetDisplayName = (p: { name: string; version: number }) => `${p.name} v${p.version}`;
