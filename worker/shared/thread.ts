/** What a client sees of a chat thread and its messages (docs/chat.md): the API's and the thread socket's shapes. */
import * as z from "zod/mini";
import { THREAD_MESSAGE_STATUSES, THREAD_MODES, THREAD_SOURCES } from "./constants";

export const threadMode = z.enum(THREAD_MODES);
export const threadSource = z.enum(THREAD_SOURCES);
export const threadMessageStatus = z.enum(THREAD_MESSAGE_STATUSES);

export const thread = z.object({
  id: z.string(),
  title: z.string(),
  systemPrompt: z.nullable(z.string()),
  /** the single mode's model: a model id or a preset id */
  modelId: z.nullable(z.string()),
  /** the composer's default for the next message */
  mode: threadMode,
  /** the leaderboard view topper reads (a category or prompt label), null for the whole board */
  category: z.nullable(z.string()),
  source: threadSource,
  createdAt: z.number(),
  updatedAt: z.number(),
});

export const threadSummary = z.object({
  id: z.string(),
  title: z.string(),
  mode: threadMode,
  modelId: z.nullable(z.string()),
  source: threadSource,
  messageCount: z.number(),
  lastMessageAt: z.nullable(z.number()),
  createdAt: z.number(),
  updatedAt: z.number(),
});

export const threadMessage = z.object({
  id: z.string(),
  seq: z.number(),
  role: z.enum(["user", "assistant"]),
  content: z.string(),
  mode: threadMode,
  status: threadMessageStatus,
  /** who answered; null while a dual reply is blind */
  modelId: z.nullable(z.string()),
  displayName: z.nullable(z.string()),
  /** topper: why this model answered (its place and rating, or the fallback and why) */
  reason: z.nullable(z.string()),
  /** dual: the arena comparison the reply was voted in (kept when the message is deleted) */
  comparisonId: z.nullable(z.string()),
  tokensIn: z.nullable(z.number()),
  tokensOut: z.nullable(z.number()),
  latencyMs: z.nullable(z.number()),
  costUsd: z.nullable(z.number()),
  error: z.nullable(z.string()),
  createdAt: z.number(),
});

export const threadDetail = z.object({ thread, messages: z.array(threadMessage) });

export type Thread = z.infer<typeof thread>;
export type ThreadSummary = z.infer<typeof threadSummary>;
export type ThreadMessage = z.infer<typeof threadMessage>;
export type ThreadDetail = z.infer<typeof threadDetail>;
export type ThreadMode = z.infer<typeof threadMode>;
export type ThreadMessageStatus = z.infer<typeof threadMessageStatus>;
