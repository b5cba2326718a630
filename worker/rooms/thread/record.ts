/**
 * A thread room's state in its storage: the thread under `record`, each message under a key of its own (a long
 * thread never rewrites its earlier messages), numbered with the version of their shape. What a client may see of
 * a message is the ThreadMessage part; the rest (the call a reply makes, a tie's two answers) stays in the room.
 */
import type { ChatMessage } from "../../providers/types";
import type { Thread, ThreadMessage } from "../../shared/thread";

type Kv = DurableObjectStorage["kv"];

/** The shape this code writes. */
export const THREAD_RECORD_VERSION = 1;

export interface ThreadRecord {
  version: typeof THREAD_RECORD_VERSION;
  thread: Thread;
}

/** The provider call a single or topper reply makes (a preset's model and parameters already resolved). */
export interface ReplyCall {
  modelId: string;
  system?: string;
  temperature?: number;
  maxTokens?: number;
  /** the money set aside for it (api/spend.ts), settled when it ends */
  holdId: string | null;
}

/** One side's answer of a dual reply's comparison, once its vote named it. */
export interface DualCandidate {
  modelId: string;
  displayName: string;
  text: string;
  tokensIn: number | null;
  tokensOut: number | null;
  latencyMs: number | null;
  costUsd: number | null;
}

export interface MessageRecord extends ThreadMessage {
  /** a single or topper reply still to answer, or answering */
  call?: ReplyCall;
  /** a dual reply after a tie or both-bad: the two answers the person picks from (A = left, B = right) */
  candidates?: { A: DualCandidate; B: DualCandidate };
}

const RECORD_KEY = "record";
const MESSAGE_PREFIX = "message:";
const messageKey = (seq: number) => `${MESSAGE_PREFIX}${String(seq).padStart(9, "0")}`;

export function saveThread(kv: Kv, thread: Thread): void {
  kv.put(RECORD_KEY, { version: THREAD_RECORD_VERSION, thread } satisfies ThreadRecord);
}

export function saveMessage(kv: Kv, message: MessageRecord): void {
  kv.put(messageKey(message.seq), message);
}

/** The stored thread and its messages in order, or null for a room that holds none. */
export function loadThread(kv: Kv): { thread: Thread; messages: MessageRecord[] } | null {
  const stored = kv.get<ThreadRecord>(RECORD_KEY);
  if (!stored) return null;
  const messages = [...kv.list<MessageRecord>({ prefix: MESSAGE_PREFIX })].map(([, m]) => m);
  return { thread: stored.thread, messages };
}

/** What a client may see of a message: none of the room's own fields. */
export function messageView(m: MessageRecord): ThreadMessage {
  const { call: _call, candidates: _candidates, ...view } = m;
  return view;
}

/**
 * The conversation so far, as a model reads it: each user message with the reply that answered it. A message whose
 * reply didn't end in an answer (failed, or a tie no side was picked for) is left out, so asking again reads cleanly.
 */
export function conversationOf(messages: MessageRecord[]): ChatMessage[] {
  const out: ChatMessage[] = [];
  for (let i = 0; i + 1 < messages.length; i++) {
    const [ask, reply] = [messages[i], messages[i + 1]];
    if (ask.role !== "user" || reply.role !== "assistant" || reply.status !== "done") continue;
    out.push({ role: "user", content: ask.content }, { role: "assistant", content: reply.content });
  }
  return out;
}
