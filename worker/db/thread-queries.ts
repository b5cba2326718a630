/**
 * Chat threads' rows: a thread's settings and its messages as the ThreadRoom keeps them (upserts keyed by their ids,
 * so a step written again writes nothing twice), the History list, and a /v1 call kept as a thread of its own.
 */
import { asc, desc, eq, sql } from "drizzle-orm";
import type { Thread, ThreadMessage, ThreadSummary } from "../shared/thread";
import { type Cursor, olderThan } from "./paging";
import type { Db } from "./queries";
import * as schema from "./schema";
import { insertRows, type Write } from "./statements";

type ThreadRow = typeof schema.threads.$inferSelect;
type MessageRow = typeof schema.threadMessages.$inferSelect;

const toThread = (r: ThreadRow): Thread => ({
  id: r.id,
  title: r.title,
  systemPrompt: r.systemPrompt,
  modelId: r.modelId,
  mode: r.mode,
  category: r.category,
  source: r.source,
  createdAt: r.createdAt,
  updatedAt: r.updatedAt,
});

const toMessage = (r: MessageRow): ThreadMessage => ({
  id: r.id,
  seq: r.seq,
  role: r.role,
  content: r.content,
  mode: r.mode,
  status: r.status,
  modelId: r.modelId,
  displayName: r.displayName,
  reason: r.reason,
  comparisonId: r.comparisonId,
  tokensIn: r.tokensIn,
  tokensOut: r.tokensOut,
  latencyMs: r.latencyMs,
  costUsd: r.costUsd,
  error: r.error,
  createdAt: r.createdAt,
});

/** The thread's row as it is now (its settings, and when it last moved). */
export const threadWrite = (d1: D1Database, thread: Thread): Write[] =>
  insertRows(d1, schema.threads, [thread], { update: ["id"] });

/** A message as it is now; its thread's activity moves to `at`. */
export function messageWrites(d1: D1Database, threadId: string, message: ThreadMessage, at: number): Write[] {
  return [
    ...insertRows(d1, schema.threadMessages, [{ ...message, threadId }], { update: ["id"] }),
    d1.prepare("UPDATE threads SET updated_at = max(updated_at, ?1) WHERE id = ?2").bind(at, threadId),
  ];
}

/** The thread and its messages go; comparisons its dual replies were voted in stay, with their votes. */
export const deleteThreadWrites = (d1: D1Database, id: string): Write[] => [
  d1.prepare("DELETE FROM thread_messages WHERE thread_id = ?").bind(id),
  d1.prepare("DELETE FROM threads WHERE id = ?").bind(id),
];

/** A thread begun elsewhere (a /v1 call) kept whole in one batch: the thread and its messages. */
export const recordThreadWrites = (d1: D1Database, thread: Thread, messages: ThreadMessage[]): Write[] => [
  ...threadWrite(d1, thread),
  ...insertRows(
    d1,
    schema.threadMessages,
    messages.map((m) => ({ ...m, threadId: thread.id })),
    "ignore",
  ),
];

/**
 * A chat reply's cost as a spend entry of its own (the `chat` feature), kept once: the reply's id is its item, so a
 * step written again finds it there.
 */
export const chatSpendWrite = (
  d1: D1Database,
  entry: { itemId: string; modelId: string; tokensIn: number | null; tokensOut: number | null; costUsd: number | null },
  completedAt: number,
): Write =>
  d1
    .prepare(
      `INSERT INTO spend_entries (kind, item_id, model_id, tokens_in, tokens_out, cost_usd, completed_at)
       SELECT 'chat', ?1, ?2, ?3, ?4, ?5, ?6 WHERE NOT EXISTS (SELECT 1 FROM spend_entries WHERE item_id = ?1)`,
    )
    .bind(entry.itemId, entry.modelId, entry.tokensIn, entry.tokensOut, entry.costUsd, completedAt);

/** One thread with its messages in order, or null. */
export async function threadWithMessages(
  db: Db,
  id: string,
): Promise<{ thread: Thread; messages: ThreadMessage[] } | null> {
  const [row] = await db.select().from(schema.threads).where(eq(schema.threads.id, id));
  if (!row) return null;
  const messages = await db
    .select()
    .from(schema.threadMessages)
    .where(eq(schema.threadMessages.threadId, id))
    .orderBy(asc(schema.threadMessages.seq));
  return { thread: toThread(row), messages: messages.map(toMessage) };
}

export async function threadExists(db: Db, id: string): Promise<boolean> {
  const [row] = await db.select({ id: schema.threads.id }).from(schema.threads).where(eq(schema.threads.id, id));
  return row !== undefined;
}

/** A page of threads, newest activity first; the cursor is `updatedAt:id` of the page's last thread. */
export async function listThreads(
  db: Db,
  limit: number,
  cursor?: Cursor,
): Promise<{ threads: ThreadSummary[]; nextCursor: string | null }> {
  const t = schema.threads;
  const rows = await db
    .select({
      id: t.id,
      title: t.title,
      mode: t.mode,
      modelId: t.modelId,
      source: t.source,
      createdAt: t.createdAt,
      updatedAt: t.updatedAt,
      messageCount: sql<number>`(SELECT count(*) FROM thread_messages m WHERE m.thread_id = threads.id)`,
      lastMessageAt: sql<
        number | null
      >`(SELECT max(m.created_at) FROM thread_messages m WHERE m.thread_id = threads.id)`,
    })
    .from(t)
    .where(olderThan({ createdAt: t.updatedAt, id: t.id }, cursor))
    .orderBy(desc(t.updatedAt), desc(t.id))
    .limit(limit + 1);
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return { threads: page, nextCursor: rows.length > limit && last ? `${last.updatedAt}:${last.id}` : null };
}
