/**
 * A chat thread's shapes as the page reads them (the threads API contract): a thread, its messages, the
 * summaries the list shows, and the events of the thread's socket.
 */

export const MESSAGE_MODES = ["single", "dual", "topper"] as const;
export type MessageMode = (typeof MESSAGE_MODES)[number];

export interface Thread {
  id: string;
  title: string;
  systemPrompt: string | null;
  /** a model id or a preset id: who answers a single message */
  modelId: string | null;
  /** the composer's mode for the next message */
  mode: MessageMode;
  /** the topper's category: the leader of that category answers */
  category: string | null;
  source: "page" | "v1";
  createdAt: number;
  updatedAt: number;
}

export interface ThreadSummary {
  id: string;
  title: string;
  mode: MessageMode;
  modelId: string | null;
  source: "page" | "v1";
  messageCount: number;
  lastMessageAt: number | null;
  createdAt: number;
  updatedAt: number;
}

export type MessageStatus = "streaming" | "done" | "failed" | "awaiting_vote" | "awaiting_choice";

export interface ThreadMessage {
  id: string;
  seq: number;
  role: "user" | "assistant";
  content: string;
  mode: MessageMode;
  status: MessageStatus;
  /** who answered; null while a dual message is blind */
  modelId: string | null;
  displayName: string | null;
  /** the topper's why: "#1 on the human leaderboard, 1187 ± 14", or the fallback and its reason */
  reason: string | null;
  /** a dual message's arena comparison */
  comparisonId: string | null;
  tokensIn: number | null;
  tokensOut: number | null;
  latencyMs: number | null;
  costUsd: number | null;
  error: string | null;
  createdAt: number;
}

export interface ThreadDetail {
  thread: Thread;
  messages: ThreadMessage[];
}

export type ThreadEvent =
  | { seq: number; type: "snapshot"; state: ThreadDetail }
  | { seq: number; type: "message.started"; message: ThreadMessage }
  | { seq: number; type: "message.delta"; messageId: string; text: string }
  | { seq: number; type: "message.completed"; message: ThreadMessage }
  | { seq: number; type: "message.failed"; message: ThreadMessage }
  | { seq: number; type: "thread.updated"; thread: Thread };
