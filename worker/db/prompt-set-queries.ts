/**
 * Prompt sets in D1. A set's items go in with few statements (one JSON parameter each, as the battle import
 * writes its battles), all in one batch, so a set is stored whole or not at all. Once an evaluation used a set
 * (`used_at`) its items never change: every statement that would change them is guarded on `used_at IS NULL`
 * inside the same transaction, so an evaluation starting mid-edit can't see half of one.
 */
import { and, asc, desc, eq, gt } from "drizzle-orm";
import type { PromptSetItem } from "../shared/prompt-set";
import { type Cursor, olderThan, pageOf } from "./paging";
import type { Db } from "./queries";
import { promptSetItems, promptSets } from "./schema";

export type PromptSetRow = typeof promptSets.$inferSelect;

/** Keeps each statement's one JSON parameter well under D1's 2 MB value limit. */
const MAX_JSON_BYTES = 1_500_000;
const utf8 = new TextEncoder();

/**
 * The items as JSON arrays `[position, id, prompt, category, reference, turns, goal, persona, marker]`, in groups that
 * fit a statement.
 */
function itemGroups(items: readonly PromptSetItem[]): string[] {
  const groups: string[] = [];
  let group: string[] = [];
  let size = 0;
  items.forEach((item, k) => {
    const row = JSON.stringify([
      k + 1,
      item.id,
      item.prompt,
      item.category,
      item.reference,
      item.turns,
      item.goal ?? null,
      item.persona ?? null,
      item.marker ?? null,
    ]);
    const bytes = utf8.encode(row).length;
    if (size + bytes > MAX_JSON_BYTES && group.length) {
      groups.push(`[${group.join(",")}]`);
      group = [];
      size = 0;
    }
    group.push(row);
    size += bytes + 1;
  });
  if (group.length) groups.push(`[${group.join(",")}]`);
  return groups;
}

/** Statements that write `items` as set `setId`'s, each doing nothing once the set is used. */
function insertItems(db: Db, setId: string, items: readonly PromptSetItem[]): D1PreparedStatement[] {
  const insert =
    db.$client.prepare(`INSERT INTO prompt_set_items (set_id, position, item_id, prompt, category, reference, turns, goal, persona, marker)
    SELECT ?1, value ->> 0, value ->> 1, value ->> 2, value ->> 3, value ->> 4, value ->> 5, value ->> 6, value ->> 7, value ->> 8
    FROM json_each(?2)
    WHERE EXISTS (SELECT 1 FROM prompt_sets WHERE id = ?1 AND used_at IS NULL)`);
  return itemGroups(items).map((json) => insert.bind(setId, json));
}

export interface NewPromptSet {
  id: string;
  name: string;
  version: number;
  previousId: string | null;
  createdAt: number;
}

/**
 * Writes a new set with its items, in one transaction. A set with a `previousId` is written only while no other
 * set has that `previousId` (two edits of one used set at once make one new version, not two); false when it
 * wasn't written.
 */
export async function insertPromptSet(db: Db, set: NewPromptSet, items: readonly PromptSetItem[]): Promise<boolean> {
  const [row] = await db.$client.batch([
    db.$client
      .prepare(`INSERT INTO prompt_sets (id, name, version, previous_id, items, created_at, used_at)
        SELECT ?1, ?2, ?3, ?4, ?5, ?6, NULL
        WHERE ?4 IS NULL OR NOT EXISTS (SELECT 1 FROM prompt_sets WHERE previous_id = ?4)`)
      .bind(set.id, set.name, set.version, set.previousId, items.length, set.createdAt),
    // Guarded on the set's row: when it wasn't written, neither are its items.
    ...insertItems(db, set.id, items),
  ]);
  return row.meta.changes > 0;
}

/**
 * Replaces an unused set's name and items, in one transaction; false (and nothing changed) when the set is used,
 * or gone, by the time the transaction runs.
 */
export async function replacePromptSetItems(
  db: Db,
  id: string,
  name: string,
  items: readonly PromptSetItem[],
): Promise<boolean> {
  const [update] = await db.$client.batch([
    db.$client
      .prepare("UPDATE prompt_sets SET name = ?2, items = ?3 WHERE id = ?1 AND used_at IS NULL")
      .bind(id, name, items.length),
    db.$client
      .prepare(
        "DELETE FROM prompt_set_items WHERE set_id = ?1 AND EXISTS (SELECT 1 FROM prompt_sets WHERE id = ?1 AND used_at IS NULL)",
      )
      .bind(id),
    ...insertItems(db, id, items),
  ]);
  return update.meta.changes > 0;
}

export async function getPromptSet(db: Db, id: string): Promise<PromptSetRow | null> {
  return (await db.select().from(promptSets).where(eq(promptSets.id, id)).get()) ?? null;
}

/** The newest set edited from `id` (its `previousId`), if any. */
export async function nextVersionOf(db: Db, id: string): Promise<PromptSetRow | null> {
  return (
    (await db
      .select()
      .from(promptSets)
      .where(eq(promptSets.previousId, id))
      .orderBy(desc(promptSets.createdAt))
      .get()) ?? null
  );
}

/** A page of sets, newest first. */
export async function listPromptSets(db: Db, limit: number, cursor?: Cursor) {
  const rows = await db
    .select()
    .from(promptSets)
    .where(olderThan(promptSets, cursor))
    .orderBy(desc(promptSets.createdAt), desc(promptSets.id))
    .limit(limit + 1);
  const { rows: page, nextCursor } = pageOf(rows, limit);
  return { rows: page, nextCursor };
}

const itemColumns = {
  position: promptSetItems.position,
  id: promptSetItems.itemId,
  prompt: promptSetItems.prompt,
  category: promptSetItems.category,
  reference: promptSetItems.reference,
  turns: promptSetItems.turns,
  goal: promptSetItems.goal,
  persona: promptSetItems.persona,
  marker: promptSetItems.marker,
};

const withoutPosition = ({ position: _, ...item }: PromptSetItem & { position: number }): PromptSetItem => item;

/** Up to `limit` items after position `after` (0: from the first), in the set's order, and the next page's cursor. */
export async function promptSetItemsPage(db: Db, setId: string, after: number, limit: number) {
  const rows = await db
    .select(itemColumns)
    .from(promptSetItems)
    .where(and(eq(promptSetItems.setId, setId), gt(promptSetItems.position, after)))
    .orderBy(asc(promptSetItems.position))
    .limit(limit + 1);
  const page = rows.slice(0, limit);
  return {
    items: page.map(withoutPosition),
    nextCursor: rows.length > limit ? String(page.at(-1)!.position) : null,
  };
}

/** Every item of a set, in its order (an evaluation reads them all once, when it starts). */
export async function loadPromptSetItems(db: Db, setId: string): Promise<PromptSetItem[]> {
  const rows = await db
    .select(itemColumns)
    .from(promptSetItems)
    .where(eq(promptSetItems.setId, setId))
    .orderBy(asc(promptSetItems.position));
  return rows.map(withoutPosition);
}

/**
 * Marks a set used by an evaluation (the first use's time is kept), after which its items never change; call it
 * before reading the items the evaluation will run over. False when there is no such set.
 */
export async function markPromptSetUsed(db: Db, id: string): Promise<boolean> {
  const result = await db.$client
    .prepare("UPDATE prompt_sets SET used_at = coalesce(used_at, ?2) WHERE id = ?1")
    .bind(id, Date.now())
    .run();
  return result.meta.changes > 0;
}

/** Deletes an unused set with its items; false (nothing deleted) when it is used, or gone. */
export async function deleteUnusedPromptSet(db: Db, id: string): Promise<boolean> {
  const [, set] = await db.$client.batch([
    db.$client
      .prepare(
        "DELETE FROM prompt_set_items WHERE set_id = ?1 AND EXISTS (SELECT 1 FROM prompt_sets WHERE id = ?1 AND used_at IS NULL)",
      )
      .bind(id),
    db.$client.prepare("DELETE FROM prompt_sets WHERE id = ?1 AND used_at IS NULL").bind(id),
  ]);
  return set.meta.changes > 0;
}

/**
 * Runs' questions by id, for "save these prompts" from History (ids not in D1 are absent). The ids go as one JSON
 * parameter: History may send thousands, within the 1 MiB body cap.
 */
export async function runQuestions(db: Db, ids: readonly string[]): Promise<Map<string, string>> {
  const { results } = await db.$client
    .prepare("SELECT id, question FROM runs WHERE id IN (SELECT value FROM json_each(?))")
    .bind(JSON.stringify(ids))
    .all<{ id: string; question: string }>();
  return new Map(results.map((r) => [r.id, r.question]));
}

/** Comparisons' first prompts and categories by id (ids not in D1, e.g. archived ones, are absent). */
export async function comparisonPrompts(
  db: Db,
  ids: readonly string[],
): Promise<Map<string, { prompt: string; category: string | null }>> {
  const { results } = await db.$client
    .prepare("SELECT id, prompt, category FROM comparisons WHERE id IN (SELECT value FROM json_each(?))")
    .bind(JSON.stringify(ids))
    .all<{ id: string; prompt: string; category: string | null }>();
  return new Map(results.map((c) => [c.id, { prompt: c.prompt, category: c.category }]));
}
