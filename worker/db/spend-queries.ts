/** What the day has spent, read from where each call's cost is kept, and what a comparison's next call reads. */
import { eq, sql } from "drizzle-orm";
import type { ArenaParams } from "../shared/arena";
import type { Db } from "./queries";
import * as schema from "./schema";

export interface DaySpend {
  /** US dollars of the calls with a known price */
  usd: number;
  /** calls that used tokens but have no price, left out of `usd` */
  unknownCostCalls: number;
}

/**
 * Spend of every call that ended at or after `since` (ms): council answers, reviews and syntheses, arena
 * sides, and spend_entries (judge calls, and the calls of rows deleted since).
 */
export async function spendSince(db: Db, since: number): Promise<DaySpend> {
  const row = await db.get<{ usd: number | null; unknown: number | null }>(sql`
    SELECT sum(cost_usd) AS usd, sum(cost_usd IS NULL AND coalesce(tokens_in, 0) + coalesce(tokens_out, 0) > 0) AS unknown FROM (
      SELECT cost_usd, tokens_in, tokens_out FROM answers WHERE completed_at >= ${since}
      UNION ALL SELECT cost_usd, tokens_in, tokens_out FROM review_sets WHERE completed_at >= ${since}
      UNION ALL SELECT cost_usd, tokens_in, tokens_out FROM syntheses WHERE completed_at >= ${since}
      UNION ALL SELECT cost_usd, tokens_in, tokens AS tokens_out FROM messages WHERE completed_at >= ${since} AND role = 'assistant'
      UNION ALL SELECT cost_usd, tokens_in, tokens_out FROM spend_entries WHERE completed_at >= ${since}
    )`);
  return { usd: row?.usd ?? 0, unknownCostCalls: row?.unknown ?? 0 };
}

export async function insertSpendEntry(db: Db, entry: typeof schema.spendEntries.$inferInsert): Promise<void> {
  await db.insert(schema.spendEntries).values(entry);
}

export interface ComparisonForEstimate {
  models: { left: string; right: string };
  params: ArenaParams;
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
  const chars = (side: "left" | "right", role: "user" | "assistant") => rows.find((r) => r.side === side && r.role === role)?.chars ?? 0;
  return {
    models: { left: c.model1Id, right: c.model2Id },
    params: c.params ?? {},
    promptChars: chars("left", "user"),
    sideChars: { left: chars("left", "assistant"), right: chars("right", "assistant") },
  };
}
