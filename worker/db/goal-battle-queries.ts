/**
 * A goal battle's rows in D1: the battle, its transcript, the paid calls it made, and its one `goal` battle on the
 * leaderboard. Every write is keyed by the battle's own ids, so a room that writes again repeats nothing.
 */
import { and, asc, desc, eq, isNull, sql } from "drizzle-orm";
import type { Winner } from "../rating/battle-outcome";
import type { GoalSide } from "../shared/constants";
import { type Cursor, olderThan, pageOf } from "./paging";
import type { Db } from "./queries";
import * as schema from "./schema";
import { insertRows, type Write } from "./statements";

export type GoalBattleRow = typeof schema.goalBattles.$inferInsert;
export type GoalMessageRow = typeof schema.goalBattleMessages.$inferInsert;
export type StoredGoalBattle = typeof schema.goalBattles.$inferSelect;

/** The battle's row as it stands now (inserted, or overwritten whole). */
export const goalBattleWrites = (d1: D1Database, row: GoalBattleRow): Write[] =>
  insertRows(d1, schema.goalBattles, [row], { update: ["id"] });

export const goalMessageWrites = (d1: D1Database, rows: GoalMessageRow[]): Write[] =>
  insertRows(d1, schema.goalBattleMessages, rows, { update: ["battleId", "side", "turn", "role"] });

/** A paid call of the battle (a side's reply, the simulated user, a goal check, the judge), for the spend figures. */
export const goalSpendWrites = (
  d1: D1Database,
  battleId: string,
  calls: { modelId: string; tokensIn: number | null; tokensOut: number | null; costUsd: number | null }[],
  completedAt = Date.now(),
): Write[] =>
  insertRows(
    d1,
    schema.spendEntries,
    calls.map((c) => ({ kind: "goal" as const, itemId: battleId, completedAt, ...c })),
  );

/** The battle's one rated `goal` battle; its id is the battle's, so it is never written twice. */
export interface RatedGoalBattle {
  battleId: string;
  modelA: string;
  modelB: string;
  winner: Winner;
  /** the judge whose verdict decided it, if one did */
  judge: string | null;
  category: string | null;
}

export const ratedGoalBattleWrite = (d1: D1Database, b: RatedGoalBattle, now = Date.now()): Write =>
  d1
    .prepare(
      `INSERT INTO battles (id, source, model_a, model_b, winner, judge, question_id, category, tstamp)
       VALUES (?1, 'goal', ?2, ?3, ?4, ?5, ?6, ?7, ?8) ON CONFLICT DO NOTHING`,
    )
    .bind(`goal/${b.battleId}`, b.modelA, b.modelB, b.winner, b.judge, b.battleId, b.category, now / 1000);

export async function goalBattleExists(db: Db, id: string): Promise<boolean> {
  const g = schema.goalBattles;
  return (await db.select({ id: g.id }).from(g).where(eq(g.id, id)).get()) !== undefined;
}

/** Goal battles newest first: those launched on their own, or those `evaluation` played. */
export async function listGoalBattles(db: Db, limit: number, cursor?: Cursor, evaluation?: string) {
  const g = schema.goalBattles;
  const rows = await db
    .select()
    .from(g)
    .where(and(evaluation ? eq(g.evaluationId, evaluation) : isNull(g.evaluationId), olderThan(g, cursor)))
    .orderBy(desc(g.createdAt), desc(g.id))
    .limit(limit + 1);
  return pageOf(rows, limit);
}

/** A page of the battle's transcript in turn order (user before assistant, side A before B), from `offset`. */
export async function goalMessages(db: Db, id: string, side: GoalSide | undefined, offset: number, limit: number) {
  const m = schema.goalBattleMessages;
  const rows = await db
    .select()
    .from(m)
    .where(and(eq(m.battleId, id), side ? eq(m.side, side) : undefined))
    .orderBy(asc(m.turn), asc(m.side), sql`${m.role} = 'assistant'`)
    .limit(limit + 1)
    .offset(offset);
  return { rows: rows.slice(0, limit), nextCursor: rows.length > limit ? String(offset + limit) : null };
}
