/** A preset's slug from its name, zod-free so the page can show the id a name will get before it is saved. */
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
