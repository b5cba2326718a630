/**
 * Writes as D1 prepared statements, their SQL built once per shape and kept. The rooms write on the same
 * thread that relays their events, and drizzle's query builder rebuilds each statement's SQL from the schema
 * every time, a cost a council run's final batch of some 30 statements would pay on the way to its end
 * (bench/HISTORY.md has the profile). Here a statement costs a cache lookup and its values' encoding. The schema
 * stays the one description of the tables: column names and encodings (JSON text, booleans as 0/1) come
 * from it, and reads still go through drizzle.
 */
import { getTableColumns, getTableName, type InferInsertModel } from "drizzle-orm";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import { cached } from "../shared/memo";

/** One statement of a D1 batch, its values bound when built. */
export type Write = D1PreparedStatement;

/** Runs `writes` as one D1 batch (one transaction, in order); nothing to run is no call at all. */
export async function runWrites(d1: D1Database, writes: Write[]): Promise<void> {
  if (writes.length) await d1.batch(writes);
}

/** D1 binds at most 100 values per statement. */
const MAX_BOUND = 100;

/** Insert a row; "ignore" leaves a row with the same key as it is; `update` overwrites it (keyed by those columns). */
export type OnConflict<T extends SQLiteTable> = "fail" | "ignore" | { update: (keyof T["_"]["columns"] & string)[] };

const columnsOf = new WeakMap<SQLiteTable, Record<string, SQLiteColumn>>();
const sqlOf = new Map<string, string>();

/**
 * INSERTs `rows`, in as few statements as D1's bound-value limit allows. The rows share one shape: the columns
 * written are those the first row has a value for (a column left out takes its default); keys that are not
 * columns of the table are ignored.
 */
export function insertRows<T extends SQLiteTable>(
  d1: D1Database,
  table: T,
  rows: InferInsertModel<T>[],
  onConflict: OnConflict<T> = "fail",
): Write[] {
  if (!rows.length) return [];
  const columns = cached(columnsOf, table, () => getTableColumns(table) as Record<string, SQLiteColumn>);
  const first = rows[0] as Record<string, unknown>;
  const keys = Object.keys(columns).filter((k) => first[k] !== undefined);
  const perStatement = Math.max(1, Math.floor(MAX_BOUND / keys.length));
  const writes: Write[] = [];
  for (let at = 0; at < rows.length; at += perStatement) {
    const chunk = rows.slice(at, at + perStatement) as Record<string, unknown>[];
    const values: unknown[] = [];
    for (const row of chunk)
      for (const k of keys) {
        const v = row[k];
        values.push(v === undefined || v === null ? null : columns[k].mapToDriverValue(v));
      }
    writes.push(d1.prepare(insertSql(table, columns, keys, chunk.length, onConflict)).bind(...values));
  }
  return writes;
}

function insertSql(
  table: SQLiteTable,
  columns: Record<string, SQLiteColumn>,
  keys: string[],
  rows: number,
  onConflict: OnConflict<SQLiteTable>,
): string {
  const name = getTableName(table);
  const target = typeof onConflict === "string" ? onConflict : onConflict.update.join(",");
  const cacheKey = `${name}|${keys.join(",")}|${rows}|${target}`;
  let text = sqlOf.get(cacheKey);
  if (text) return text;
  const quoted = (k: string) => `"${columns[k].name}"`;
  const tuple = `(${keys.map(() => "?").join(", ")})`;
  text = `INSERT INTO "${name}" (${keys.map(quoted).join(", ")}) VALUES ${Array(rows).fill(tuple).join(", ")}`;
  if (onConflict === "ignore") text += " ON CONFLICT DO NOTHING";
  else if (onConflict !== "fail") {
    const set = keys.filter((k) => !onConflict.update.includes(k)).map((k) => `${quoted(k)} = excluded.${quoted(k)}`);
    text += ` ON CONFLICT (${onConflict.update.map(quoted).join(", ")}) ${set.length ? `DO UPDATE SET ${set.join(", ")}` : "DO NOTHING"}`;
  }
  sqlOf.set(cacheKey, text);
  return text;
}
