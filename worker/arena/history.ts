/**
 * The history list of comparisons, newest first, across D1 and the archive: with QUORUM_ARCHIVE_AFTER_HOURS
 * set, old comparison rows move to R2 (db/archive.ts), a thousand to an object, and the list goes on
 * into them. Objects may overlap in time (a comparison voted on late is archived later than newer ones), so a
 * page merges D1's rows with every object that could hold one of its items, and reads no object that can't.
 */
import { listComparisons } from "../db/arena-queries";
import type { Db } from "../db/queries";
import type * as schema from "../db/schema";
import { comparisonArchiveObjects, readListedObject } from "../db/archive";
import type { ComparisonMode, ComparisonStatus } from "../shared/arena";

export type HistoryRow = Pick<
  typeof schema.comparisons.$inferSelect,
  "id" | "createdAt" | "prompt" | "status" | "category" | "blind" | "mode" | "revealedAt" | "model1Id" | "model2Id"
>;

/** A comparison row as the archive keeps it: D1's columns by name. */
interface ArchivedComparison {
  id: string;
  created_at: number;
  model1_id: string;
  model2_id: string;
  prompt: string;
  category: string | null;
  blind: number;
  mode: ComparisonMode;
  status: ComparisonStatus;
  revealed_at: number | null;
}

type Cursor = { createdAt: number; id: string };

const newerFirst = (a: HistoryRow, b: HistoryRow) =>
  b.createdAt - a.createdAt || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);
const before = (row: HistoryRow, cursor: Cursor | undefined) =>
  !cursor || row.createdAt < cursor.createdAt || (row.createdAt === cursor.createdAt && row.id < cursor.id);

export async function comparisonHistory(
  db: Db,
  d1: D1Database,
  bucket: R2Bucket | undefined,
  limit: number,
  cursor?: Cursor,
) {
  const [listed, { results: objects }] = await Promise.all([
    listComparisons(db, limit, cursor),
    comparisonArchiveObjects(d1, cursor?.createdAt ?? Number.MAX_SAFE_INTEGER),
  ]);
  if (!objects.length) return listed;
  // D1's first limit + 1 and the archive's rows together hold the page and whether another follows.
  let rows: HistoryRow[] = listed.extra ? [...listed.rows, listed.extra] : listed.rows;
  for (const { key, last } of objects) {
    if (rows.length > limit && last < rows[limit].createdAt) break;
    const archived = (await readListedObject<ArchivedComparison>(bucket, key, "comparison archive"))
      .map(fromArchive)
      .filter((row) => before(row, cursor));
    rows = [...rows, ...archived].sort(newerFirst).slice(0, limit + 1);
  }
  const page = rows.slice(0, limit);
  const end = page.at(-1);
  return { rows: page, nextCursor: rows.length > limit && end ? `${end.createdAt}:${end.id}` : null };
}

function fromArchive(r: ArchivedComparison): HistoryRow {
  return {
    id: r.id,
    createdAt: r.created_at,
    prompt: r.prompt,
    status: r.status,
    category: r.category,
    blind: r.blind === 1,
    mode: r.mode,
    revealedAt: r.revealed_at,
    model1Id: r.model1_id,
    model2Id: r.model2_id,
  };
}
