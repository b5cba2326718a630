/**
 * What the day and each run or comparison have spent and set aside, and the one statement that sets money
 * aside for a request only when it fits under the caps. Figures never show a blind item's own calls before
 * it is revealed: only its holds, whose amounts don't depend on which model is on which side.
 */
import { eq, sql } from "drizzle-orm";
import type { ArenaParams, ComparisonMode } from "../shared/arena";
import type { Db } from "./queries";
import * as schema from "./schema";

/** What counts against a cap: calls paid for and shown, and money set aside for work not yet shown. */
export interface Spend {
  /** US dollars of the calls with a known price, blind work not yet revealed left out */
  spentUsd: number;
  /** US dollars set aside for work under way, and for blind work until it is revealed */
  reservedUsd: number;
}

export interface DaySpend extends Spend {
  /** calls that used tokens but have no price, left out of `spentUsd` */
  unknownCostCalls: number;
}

/**
 * A hold of blind work not yet revealed. A run's end marks its holds revealed; a comparison is revealed by
 * its first vote, whose batch sets `comparisons.revealed_at`, so that is read rather than copied.
 */
const hiddenHold = (h: string) =>
  `(${h}.hidden = 1 AND ${h}.revealed_at IS NULL AND NOT EXISTS (SELECT 1 FROM comparisons rc WHERE rc.id = ${h}.item_id AND rc.revealed_at IS NOT NULL))`;

/** An item (run or comparison) with a hold not yet revealed: its own calls stay out of every figure. */
export const hiddenItemSql = (item: string) =>
  `EXISTS (SELECT 1 FROM spend_holds hh WHERE hh.item_id = ${item} AND ${hiddenHold("hh")})`;

/** A hold that counts: open and unexpired, or blind work not yet revealed (at its reserved amount). */
const countingHold = (now: string) => `((h.settled_at IS NULL AND h.expires_at > ${now}) OR ${hiddenHold("h")})`;

/**
 * Every paid call that ended at or after `since`, with the item that paid for it. D1 allows few terms in one
 * compound SELECT, so the kept entries and an evaluation's three tables are one nested term.
 */
const callsSince = (since: string) => `
  SELECT run_id AS item, cost_usd, tokens_in, tokens_out FROM answers WHERE completed_at >= ${since}
  UNION ALL SELECT run_id, cost_usd, tokens_in, tokens_out FROM review_sets WHERE completed_at >= ${since}
  UNION ALL SELECT run_id, cost_usd, tokens_in, tokens_out FROM syntheses WHERE completed_at >= ${since}
  UNION ALL SELECT comparison_id, cost_usd, tokens_in, tokens FROM messages WHERE completed_at >= ${since} AND role = 'assistant'
  UNION ALL SELECT * FROM (SELECT item_id, cost_usd, tokens_in, tokens_out FROM spend_entries WHERE completed_at >= ${since}
    UNION ALL SELECT evaluation_id, cost_usd, tokens_in, tokens_out FROM evaluation_answers WHERE completed_at >= ${since}
    UNION ALL SELECT evaluation_id, cost_usd, tokens_in, tokens_out FROM evaluation_judgments WHERE completed_at >= ${since}
    UNION ALL SELECT evaluation_id, cost_usd, tokens_in, tokens_out FROM evaluation_reviews WHERE completed_at >= ${since})`;

/** Every paid call of one item. */
const callsOf = (item: string) => `
  SELECT cost_usd FROM answers WHERE run_id = ${item}
  UNION ALL SELECT cost_usd FROM review_sets WHERE run_id = ${item}
  UNION ALL SELECT cost_usd FROM syntheses WHERE run_id = ${item}
  UNION ALL SELECT cost_usd FROM messages WHERE comparison_id = ${item} AND role = 'assistant'
  UNION ALL SELECT * FROM (SELECT cost_usd FROM spend_entries WHERE item_id = ${item}
    UNION ALL SELECT cost_usd FROM evaluation_answers WHERE evaluation_id = ${item}
    UNION ALL SELECT cost_usd FROM evaluation_judgments WHERE evaluation_id = ${item}
    UNION ALL SELECT cost_usd FROM evaluation_reviews WHERE evaluation_id = ${item})`;

const daySpentSql = (start: string) =>
  `(SELECT coalesce(sum(cost_usd), 0) FROM (${callsSince(start)}) WHERE item IS NULL OR NOT ${hiddenItemSql("item")})`;
const dayUnknownSql = (start: string) =>
  `(SELECT count(*) FROM (${callsSince(start)}) WHERE cost_usd IS NULL AND coalesce(tokens_in, 0) + coalesce(tokens_out, 0) > 0 AND (item IS NULL OR NOT ${hiddenItemSql("item")}))`;
const dayReservedSql = (day: string, now: string) =>
  `(SELECT coalesce(sum(h.usd), 0) FROM spend_holds h WHERE h.day = ${day} AND ${countingHold(now)})`;
const itemSpentSql = (item: string) =>
  `(SELECT CASE WHEN ${hiddenItemSql(item)} THEN 0 ELSE (SELECT coalesce(sum(cost_usd), 0) FROM (${callsOf(item)})) END)`;
const itemReservedSql = (item: string, now: string) =>
  `(SELECT coalesce(sum(h.usd), 0) FROM spend_holds h WHERE h.item_id = ${item} AND ${countingHold(now)})`;

/** The day's figures: `day` is 00:00 UTC of it (ms). */
export async function daySpend(db: Db, day: number, now = Date.now()): Promise<DaySpend> {
  const row = await db.$client
    .prepare(
      `SELECT ${daySpentSql("?1")} AS spent, ${dayReservedSql("?1", "?2")} AS reserved, ${dayUnknownSql("?1")} AS unknown`,
    )
    .bind(day, now)
    .first<{ spent: number; reserved: number; unknown: number }>();
  return { spentUsd: row?.spent ?? 0, reservedUsd: row?.reserved ?? 0, unknownCostCalls: row?.unknown ?? 0 };
}

/** One run's or comparison's figures, everything it ever spent included. */
export async function itemSpend(db: Db, itemId: string, now = Date.now()): Promise<Spend> {
  const row = await db.$client
    .prepare(`SELECT ${itemSpentSql("?1")} AS spent, ${itemReservedSql("?1", "?2")} AS reserved`)
    .bind(itemId, now)
    .first<{ spent: number; reserved: number }>();
  return { spentUsd: row?.spent ?? 0, reservedUsd: row?.reserved ?? 0 };
}

export interface Hold {
  id: string;
  itemId: string;
  day: number;
  usd: number;
  hidden: boolean;
  blindPrices: { priceIn: number; priceOut: number } | null;
  createdAt: number;
  expiresAt: number;
}

/**
 * Sets `hold` aside only if the day's figure plus it stays within `dayCap` (and the day has not reached it:
 * then even free work waits for tomorrow) and the item's figure plus it within `itemCap` (null: no such cap). One statement, its condition evaluated by D1 as it inserts, so
 * requests arriving together can't all pass a check made before any of them was counted. True when set aside.
 */
export async function reserve(
  db: Db,
  hold: Hold,
  caps: { dayCap: number | null; itemCap: number | null },
): Promise<boolean> {
  const result = await db.$client
    .prepare(
      `INSERT INTO spend_holds (id, item_id, day, usd, hidden, blind_price_in, blind_price_out, created_at, expires_at)
       SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9
       WHERE (?10 IS NULL OR (SELECT used < ?10 AND used + ?4 <= ?10 FROM (SELECT ${daySpentSql("?3")} + ${dayReservedSql("?3", "?8")} AS used)))
         AND (?11 IS NULL OR ${itemSpentSql("?2")} + ${itemReservedSql("?2", "?8")} + ?4 <= ?11)`,
    )
    .bind(
      hold.id,
      hold.itemId,
      hold.day,
      hold.usd,
      hold.hidden ? 1 : 0,
      hold.blindPrices?.priceIn ?? null,
      hold.blindPrices?.priceOut ?? null,
      hold.createdAt,
      hold.expiresAt,
      caps.dayCap,
      caps.itemCap,
    )
    .run();
  return result.meta.changes === 1;
}

/** A hold whose request the room refused: nothing was started, so nothing is set aside. */
export async function releaseHold(db: Db, id: string): Promise<void> {
  await db.$client.prepare("DELETE FROM spend_holds WHERE id = ?").bind(id).run();
}

/** The work these holds covered has ended: from now on its calls' own rows count (once revealed). */
export const settleHoldsWrite = (d1: D1Database, ids: string[], now = Date.now()): D1PreparedStatement =>
  d1
    .prepare(
      "UPDATE spend_holds SET settled_at = ?1 WHERE settled_at IS NULL AND id IN (SELECT value FROM json_each(?2))",
    )
    .bind(now, JSON.stringify(ids));

/**
 * Work under way gave back part of what it set aside (an evaluation's finished items), or needs longer: the
 * hold now counts `usd` and lasts until `expiresAt`.
 */
export const resizeHoldWrite = (d1: D1Database, id: string, usd: number, expiresAt: number): D1PreparedStatement =>
  d1
    .prepare("UPDATE spend_holds SET usd = ?1, expires_at = ?2 WHERE id = ?3 AND settled_at IS NULL")
    .bind(usd, expiresAt, id);

/**
 * Hands hold `id` over to `parts` (an evaluation spread over shard rooms: each shard resizes and settles its own):
 * each part is a hold of the same item, day and expiry for its amount, and `id` is settled at zero. Run as one
 * batch (a transaction), so the day never counts both the whole and its parts, nor neither. The parts' ids are
 * deterministic and the copy reads only an open `id`: a batch run again after it took changes nothing.
 */
export const splitHoldWrites = (
  d1: D1Database,
  id: string,
  parts: { id: string; usd: number }[],
  now = Date.now(),
): D1PreparedStatement[] => [
  ...parts.map((part) =>
    d1
      .prepare(
        `INSERT OR IGNORE INTO spend_holds (id, item_id, day, usd, hidden, blind_price_in, blind_price_out, created_at, expires_at)
         SELECT ?1, item_id, day, ?2, hidden, blind_price_in, blind_price_out, created_at, expires_at FROM spend_holds
         WHERE id = ?3 AND settled_at IS NULL`,
      )
      .bind(part.id, part.usd, id),
  ),
  d1.prepare("UPDATE spend_holds SET usd = 0, settled_at = ?1 WHERE id = ?2 AND settled_at IS NULL").bind(now, id),
];

/** A blind run ended: its calls show at their cost from now on. */
export const revealHoldsWrite = (d1: D1Database, itemId: string, now = Date.now()): D1PreparedStatement =>
  d1
    .prepare("UPDATE spend_holds SET revealed_at = ?1 WHERE item_id = ?2 AND hidden = 1 AND revealed_at IS NULL")
    .bind(now, itemId);

/**
 * Drops holds that can count no more: settled or expired, of a day before `before`, and not blind work still
 * waiting for its reveal (its later requests read their prices from it). At most `limit` a call.
 */
export async function pruneHolds(db: Db, before: number, now = Date.now(), limit = 1000): Promise<number> {
  const result = await db.$client
    .prepare(
      `DELETE FROM spend_holds WHERE rowid IN (SELECT h.rowid FROM spend_holds h WHERE h.day < ?1 AND (h.settled_at IS NOT NULL OR h.expires_at <= ?2) AND NOT ${hiddenHold("h")} LIMIT ?3)`,
    )
    .bind(before, now, limit)
    .run();
  return result.meta.changes;
}

/** The prices an item's blind work was first reserved at, so its later requests are reserved alike. */
export async function blindPricesOf(db: Db, itemId: string): Promise<{ priceIn: number; priceOut: number } | null> {
  const row = await db.$client
    .prepare(
      "SELECT blind_price_in AS priceIn, blind_price_out AS priceOut FROM spend_holds WHERE item_id = ? AND blind_price_in IS NOT NULL ORDER BY created_at LIMIT 1",
    )
    .bind(itemId)
    .first<{ priceIn: number; priceOut: number }>();
  return row ?? null;
}

export async function insertSpendEntry(db: Db, entry: typeof schema.spendEntries.$inferInsert): Promise<void> {
  await db.insert(schema.spendEntries).values(entry);
}

/**
 * A call that was no run's or comparison's has ended: its cost (when it answered) is kept and its hold (when it had
 * one) settled in one batch, so the day's figures never count it twice or not at all.
 */
export async function settleCall(
  db: Db,
  holdId: string | null,
  entry: typeof schema.spendEntries.$inferInsert | null,
  now = Date.now(),
): Promise<void> {
  const settle = holdId === null ? [] : [settleHoldsWrite(db.$client, [holdId], now)];
  if (!entry) {
    if (settle.length) await db.$client.batch(settle);
    return;
  }
  const insert = db.$client
    .prepare(
      "INSERT INTO spend_entries (kind, item_id, model_id, tokens_in, tokens_out, cost_usd, completed_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
    )
    .bind(
      entry.kind,
      entry.itemId ?? null,
      entry.modelId,
      entry.tokensIn ?? null,
      entry.tokensOut ?? null,
      entry.costUsd ?? null,
      entry.completedAt,
    );
  await db.$client.batch([insert, ...settle]);
}

export interface ComparisonForEstimate {
  models: { left: string; right: string };
  params: ArenaParams;
  mode: ComparisonMode;
  /** blind and not yet voted on: its work is reserved at prices that don't depend on its pair */
  hidden: boolean;
  /** characters of every prompt so far, and of each side's replies */
  promptChars: number;
  sideChars: { left: number; right: number };
}

/** The models, settings and conversation size of a comparison, for estimating its next calls. */
export async function comparisonForEstimate(db: Db, id: string): Promise<ComparisonForEstimate | null> {
  const c = await db.select().from(schema.comparisons).where(eq(schema.comparisons.id, id)).get();
  if (!c) return null;
  const m = schema.messages;
  const rows = await db
    .select({ side: m.side, role: m.role, chars: sql<number>`sum(length(${m.content}))` })
    .from(m)
    .where(eq(m.comparisonId, id))
    .groupBy(m.side, m.role);
  const chars = (side: "left" | "right", role: "user" | "assistant") =>
    rows.find((r) => r.side === side && r.role === role)?.chars ?? 0;
  return {
    models: { left: c.model1Id, right: c.model2Id },
    params: c.params ?? {},
    mode: c.mode,
    hidden: c.blind && c.revealedAt === null,
    promptChars: chars("left", "user"),
    sideChars: { left: chars("left", "assistant"), right: chars("right", "assistant") },
  };
}
