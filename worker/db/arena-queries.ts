/** The D1 side of arena comparisons and votes. Votes are never UPDATEd: a withdrawal deletes, a new vote inserts. */
import { and, count, desc, eq, inArray } from "drizzle-orm";
import type { Side } from "../shared/arena";
import type { VoteChoice } from "../shared/constants";
import type { Winner } from "../rating/battle-outcome";
import { styleMetadataOf } from "../rating/style-metadata";
import type { Db } from "./queries";
import { type PromptRow, promptWrites } from "./label-queries";
import type { ComparisonRecord, JudgeRecord, SideRecord, VoteRecord } from "./records";
import * as schema from "./schema";
import { type Cursor, olderThan, pageOf } from "./paging";

export async function insertComparison(db: Db, r: ComparisonRecord): Promise<void> {
  const first = r.turns[0];
  await db.batch([
    db
      .insert(schema.comparisons)
      .values({
        id: r.id,
        createdAt: r.createdAt,
        model1Id: r.models.left,
        model2Id: r.models.right,
        prompt: first.prompt,
        category: r.category,
        blind: r.blind,
        // a blind comparison counts in the leaderboard only from its first vote or once its window passed
        countedAt: r.blind ? null : r.createdAt,
        mode: r.mode,
        modeNote: r.modeNote,
        params: r.params,
        status: r.status,
      })
      .onConflictDoNothing(),
    ...userMessages(db, r.id, first.turn, first.prompt),
  ]);
}

function userMessages(db: Db, comparisonId: string, turn: number, content: string) {
  return (["left", "right"] as const).map((side) =>
    db.insert(schema.messages).values({ comparisonId, side, turn, role: "user", content }).onConflictDoNothing(),
  );
}

export async function saveTurnStart(db: Db, r: ComparisonRecord, turn: number, prompt: string): Promise<void> {
  await db.batch([
    db
      .update(schema.comparisons)
      .set({ status: r.status, bothAnsweredAt: null, params: r.params })
      .where(eq(schema.comparisons.id, r.id)),
    ...userMessages(db, r.id, turn, prompt),
  ]);
}

/** Stores a side's reply as it ended (a failed one keeps what arrived), and the comparison's status. */
export async function saveSide(db: Db, r: ComparisonRecord, turn: number, side: Side, s: SideRecord): Promise<void> {
  const row = {
    comparisonId: r.id,
    side,
    turn,
    role: "assistant" as const,
    content: s.text,
    latencyMs: s.latencyMs,
    tokens: s.tokensOut,
    tokensIn: s.tokensIn,
    status: s.status,
    error: s.error,
    truncated: s.truncated,
    costUsd: s.costUsd ?? null,
    completedAt: s.status === "done" || s.status === "failed" ? Date.now() : null,
  };
  await db.batch([
    db
      .insert(schema.messages)
      .values(row)
      .onConflictDoUpdate({
        target: [schema.messages.comparisonId, schema.messages.side, schema.messages.turn, schema.messages.role],
        set: row,
      }),
    db
      .update(schema.comparisons)
      .set({ status: r.status, bothAnsweredAt: r.bothAnsweredAt })
      .where(eq(schema.comparisons.id, r.id)),
  ]);
}

export interface VoteWrite {
  vote: VoteRecord;
  battle: { winner: Winner; flagged: boolean; turn: number };
  idempotency: { key: string; response: unknown } | null;
  /** false when the comparison's status and revealedAt are what its row already holds (default true) */
  statusChanged?: boolean;
  /** the comparison's prompt, queued for the label pass with its first vote */
  prompt?: PromptRow | null;
}

/** Values D1 binds to one statement. */
type Bindings = (string | number | null)[];

/**
 * A vote as the values of its statements, plain enough to send to a VoteWriter: the comparison's new status
 * (null when its row already holds it), the idempotency key, the model_votes rows and the battle.
 */
export interface VoteRows {
  status: Bindings | null;
  idempotency: Bindings | null;
  modelVotes: Bindings[];
  battle: Bindings;
  /** the comparison's prompt for the label pass, written once (a later vote's is ignored) */
  prompt?: PromptRow | null;
}

/** The vote's rows, its battle, its idempotency key and the comparison's new status: one transaction. */
export async function recordVote(db: Db, r: ComparisonRecord, write: VoteWrite): Promise<void> {
  // A key taken by another request fails the whole batch, so nothing of this vote is written twice.
  await db.$client.batch(voteStatements(db.$client, voteRows(r, write)));
}

/** The values of a vote's statements; the values are encoded as drizzle's schema does (json columns as JSON text, booleans as 0/1). */
export function voteRows(
  r: ComparisonRecord,
  { vote, battle, idempotency, statusChanged = true, prompt = null }: VoteWrite,
): VoteRows {
  return {
    prompt,
    // The first vote reveals the comparison and sets it voted; later ones leave its row as it is.
    status: statusChanged ? [r.status, r.revealedAt, r.id] : null,
    idempotency: idempotency ? [idempotency.key, r.id, JSON.stringify(idempotency.response), vote.createdAt] : null,
    modelVotes: vote.rows.map((row) => [
      row.id,
      row.comparisonId,
      row.voteId,
      row.choice,
      row.winnerModelId,
      vote.clientId,
      row.createdAt,
      row.flags === null ? null : JSON.stringify(row.flags),
    ]),
    battle: [
      `vote:${vote.voteId}`,
      r.models.left,
      r.models.right,
      battle.winner,
      r.category,
      vote.createdAt / 1000,
      battle.flagged ? 1 : 0,
      vote.voteId,
      r.id,
      battle.turn,
      r.blind ? 1 : 0,
      JSON.stringify(styleOf(r)),
    ],
  };
}

/**
 * A vote's statements (also for callers that write several votes in one batch: VoteWriter, bench/d1-rate.ts).
 * Plain prepared statements, not drizzle's builder: this runs on every vote. Columns left out take their defaults.
 */
export function voteStatements(d1: D1Database, rows: VoteRows): D1PreparedStatement[] {
  const out: D1PreparedStatement[] = [];
  // The first vote also lets a blind comparison count in the leaderboard (unless its window already had).
  if (rows.status)
    out.push(
      d1
        .prepare(
          "UPDATE comparisons SET status = ?1, revealed_at = ?2, counted_at = coalesce(counted_at, ?2) WHERE id = ?3",
        )
        .bind(...rows.status),
    );
  if (rows.idempotency)
    out.push(
      d1
        .prepare("INSERT INTO idempotency_keys (key, comparison_id, response, created_at) VALUES (?, ?, ?, ?)")
        .bind(...rows.idempotency),
    );
  for (const row of rows.modelVotes)
    out.push(
      d1
        .prepare(
          "INSERT INTO model_votes (id, comparison_id, vote_id, choice, winner_model_id, client_id, created_at, flags) VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
        )
        .bind(...row),
    );
  out.push(
    d1
      .prepare(
        "INSERT INTO battles (id, source, model_a, model_b, winner, category, tstamp, flagged, vote_id, comparison_id, turn, anony, conv_metadata) VALUES (?, 'human', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
      )
      .bind(...rows.battle),
  );
  if (rows.prompt) out.push(...promptWrites(d1, [rows.prompt], []));
  return out;
}

const styleOf = (r: ComparisonRecord) =>
  styleMetadataOf(
    r.turns.map((t) => t.left.text),
    r.turns.map((t) => t.right.text),
  );

const JUDGE_WINNER = { left: "model_a", right: "model_b", tie: "tie" } as const;

/** A judge's verdict and its battle (source judge, the judge named), written only once the comparison has a vote. */
export async function saveJudgeVerdict(db: Db, r: ComparisonRecord, j: JudgeRecord): Promise<void> {
  const chars = (side: "left" | "right") => r.turns.reduce((n, t) => n + t[side].text.length, 0);
  const now = Date.now();
  await db.batch([
    db
      .insert(schema.judgeVerdicts)
      .values({
        comparisonId: r.id,
        judgeModelId: j.judgeModelId,
        verdict: j.verdict!,
        flipped: j.flipped,
        orders: j.orders,
        leftChars: chars("left"),
        rightChars: chars("right"),
        createdAt: now,
      })
      .onConflictDoNothing(),
    db
      .insert(schema.battles)
      .values({
        id: `judge:${r.id}:${j.judgeModelId}`,
        source: "judge",
        modelA: r.models.left,
        modelB: r.models.right,
        winner: JUDGE_WINNER[j.verdict!],
        category: r.category,
        tstamp: now / 1000,
        judge: j.judgeModelId,
        comparisonId: r.id,
        turn: r.turns.length,
        anony: r.blind,
        convMetadata: styleOf(r),
      })
      .onConflictDoNothing(),
  ]);
}

export async function withdrawVote(db: Db, r: ComparisonRecord, voteId: string): Promise<void> {
  await db.batch([
    db.delete(schema.modelVotes).where(eq(schema.modelVotes.voteId, voteId)),
    db.delete(schema.battles).where(and(eq(schema.battles.source, "human"), eq(schema.battles.voteId, voteId))),
    db.update(schema.comparisons).set({ status: r.status }).where(eq(schema.comparisons.id, r.id)),
  ]);
}

export async function findIdempotencyKey(db: Db, key: string) {
  return (await db.select().from(schema.idempotencyKeys).where(eq(schema.idempotencyKeys.key, key)).get()) ?? null;
}

export async function comparisonExists(db: Db, id: string): Promise<boolean> {
  return (
    (await db
      .select({ id: schema.comparisons.id })
      .from(schema.comparisons)
      .where(eq(schema.comparisons.id, id))
      .get()) !== undefined
  );
}

export async function comparisonOfVote(db: Db, voteId: string): Promise<string | null> {
  const row = await db
    .select({ id: schema.modelVotes.comparisonId })
    .from(schema.modelVotes)
    .where(eq(schema.modelVotes.voteId, voteId))
    .get();
  return row?.id ?? null;
}

/** Newest first; the cursor is `createdAt:id` of the last item of the previous page. */
export async function listComparisons(db: Db, limit: number, cursor?: Cursor) {
  const c = schema.comparisons;
  const rows = await db
    .select()
    .from(c)
    .where(olderThan(c, cursor))
    .orderBy(desc(c.createdAt), desc(c.id))
    .limit(limit + 1);
  return pageOf(rows, limit);
}

/**
 * For a page of the history list: each comparison's latest vote (a changed vote replaces the earlier one) and how
 * many judges gave a verdict. Comparisons without either are absent from the maps.
 */
export async function votesAndVerdictsOf(db: Db, ids: string[]) {
  const votes = new Map<string, { choice: VoteChoice; at: number }>();
  const verdicts = new Map<string, number>();
  if (!ids.length) return { votes, verdicts };
  const v = schema.modelVotes;
  const j = schema.judgeVerdicts;
  const [voteRows, verdictRows] = await Promise.all([
    db
      .select({ comparisonId: v.comparisonId, choice: v.choice, at: v.createdAt })
      .from(v)
      .where(inArray(v.comparisonId, ids))
      .orderBy(v.createdAt),
    db
      .select({ comparisonId: j.comparisonId, judges: count() })
      .from(j)
      .where(inArray(j.comparisonId, ids))
      .groupBy(j.comparisonId),
  ]);
  for (const row of voteRows) votes.set(row.comparisonId, { choice: row.choice, at: row.at });
  for (const row of verdictRows) verdicts.set(row.comparisonId, row.judges);
  return { votes, verdicts };
}
