/** Keyset paging, newest first, shared by the list queries: the cursor is `createdAt:id` of a page's last row. */
import { and, eq, lt, or, type SQL } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";

export interface Cursor {
  createdAt: number;
  id: string;
}

/** The condition for rows after the cursor in (createdAt, id) descending order; none without a cursor. */
export function olderThan(columns: { createdAt: SQLiteColumn; id: SQLiteColumn }, cursor?: Cursor): SQL | undefined {
  if (!cursor) return undefined;
  return or(
    lt(columns.createdAt, cursor.createdAt),
    and(eq(columns.createdAt, cursor.createdAt), lt(columns.id, cursor.id)),
  );
}

/**
 * A page from the `limit + 1` rows a query asked for: the first `limit`, the cursor to the next page, and
 * `extra`, the next page's first row, for a caller that merges this list with another (arena/history.ts).
 */
export function pageOf<T extends Cursor>(
  rows: T[],
  limit: number,
): { rows: T[]; nextCursor: string | null; extra?: T } {
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return {
    rows: page,
    nextCursor: rows.length > limit && last ? `${last.createdAt}:${last.id}` : null,
    extra: rows.at(limit),
  };
}
