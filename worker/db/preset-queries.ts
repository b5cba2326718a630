/**
 * The D1 side of presets: a model with its own system prompt and parameters, kept as numbered versions of a slug.
 * A version is edited in place only while nothing used it (`used_at` null); after that an edit is version n+1, so
 * every result that names `preset:<slug>@<version>` stays true.
 */
import { and, desc, eq, inArray, isNull, or, sql } from "drizzle-orm";
import type { PresetRef } from "../shared/contestant";
import type { Db } from "./queries";
import * as schema from "./schema";

export type PresetRow = typeof schema.presets.$inferSelect;

/** What a preset says: everything an edit may change. */
export interface PresetFields {
  name: string;
  modelId: string;
  systemPrompt: string | null;
  temperature: number | null;
  maxTokens: number | null;
}

const p = schema.presets;

/** Version 1 of a new slug; null when the slug is taken (by a live or a deleted preset). */
export async function insertPreset(db: Db, slug: string, fields: PresetFields): Promise<PresetRow | null> {
  const taken = await db.select({ slug: p.slug }).from(p).where(eq(p.slug, slug)).get();
  if (taken) return null;
  const row = await db
    .insert(p)
    .values({ slug, version: 1, ...fields })
    .onConflictDoNothing()
    .returning()
    .get();
  return row ?? null;
}

/** Every version of a slug, newest first (deleted ones included: old results still name them). */
export async function presetVersions(db: Db, slug: string): Promise<PresetRow[]> {
  return db.select().from(p).where(eq(p.slug, slug)).orderBy(desc(p.version)).all();
}

/** The newest version of every live preset, newest slug first, with how many versions it has. */
export async function latestPresets(db: Db): Promise<(PresetRow & { versions: number })[]> {
  const newest = db
    .select({
      slug: p.slug,
      version: sql<number>`max(${p.version})`.as("newest"),
      versions: sql<number>`count(*)`.as("versions"),
    })
    .from(p)
    .where(isNull(p.deletedAt))
    .groupBy(p.slug)
    .as("newest");
  const rows = await db
    .select({ row: p, versions: newest.versions })
    .from(p)
    .innerJoin(newest, and(eq(p.slug, newest.slug), eq(p.version, newest.version)))
    .orderBy(desc(p.createdAt), p.slug)
    .all();
  return rows.map(({ row, versions }) => ({ ...row, versions }));
}

/** The named versions, deleted ones included (the caller decides what a deleted one means). */
export async function presetsByRef(db: Db, refs: PresetRef[]): Promise<PresetRow[]> {
  if (!refs.length) return [];
  const slugs = [...new Set(refs.map((r) => r.slug))];
  const rows = await db.select().from(p).where(inArray(p.slug, slugs)).all();
  return rows.filter((row) => refs.some((r) => r.slug === row.slug && r.version === row.version));
}

/**
 * Edits a slug's newest version: in place while it is unused, else as version n+1 with the edit applied. The
 * in-place update holds only while `used_at` is still null, so a use landing at the same moment makes it a new
 * version instead of changing what that use ran with. Null when the slug has no live preset.
 */
export async function editPreset(
  db: Db,
  slug: string,
  edit: (current: PresetFields) => PresetFields,
): Promise<{ row: PresetRow; inPlace: boolean } | null> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const [current] = await presetVersions(db, slug);
    if (!current || current.deletedAt !== null) return null;
    const fields = edit(current);
    if (current.usedAt === null) {
      const updated = await db
        .update(p)
        .set(fields)
        .where(and(eq(p.slug, slug), eq(p.version, current.version), isNull(p.usedAt), isNull(p.deletedAt)))
        .returning()
        .get();
      if (updated) return { row: updated, inPlace: true };
      continue;
    }
    const added = await db
      .insert(p)
      .values({ slug, version: current.version + 1, ...fields })
      .onConflictDoNothing()
      .returning()
      .get();
    if (added) return { row: added, inPlace: false };
  }
  return null;
}

/** Soft-deletes every version of a slug; false when it has no live preset. */
export async function deletePreset(db: Db, slug: string, at: number): Promise<boolean> {
  const deleted = await db
    .update(p)
    .set({ deletedAt: at })
    .where(and(eq(p.slug, slug), isNull(p.deletedAt)))
    .returning({ version: p.version })
    .all();
  return deleted.length > 0;
}

/** Marks the named versions used, once: from then on they never change. */
export async function markUsed(db: Db, refs: PresetRef[], at: number): Promise<void> {
  if (!refs.length) return;
  const named = or(...refs.map((r) => and(eq(p.slug, r.slug), eq(p.version, r.version))));
  await db
    .update(p)
    .set({ usedAt: at })
    .where(and(named, isNull(p.usedAt)))
    .run();
}
