/**
 * ThreadRoom: one Durable Object per chat thread. It keeps the thread and its messages (storage first, D1 in step),
 * answers single and topper replies one step at a time through the shared stream-and-settle step, and takes a dual
 * reply's vote from the comparison it was voted in. A thread begun elsewhere (a /v1 call) is only in D1 until its
 * room is first asked about it, which then takes it in.
 */
import { openDb } from "../db/queries";
import { settleHoldsWrite } from "../db/spend-queries";
import { runWrites } from "../db/statements";
import { deleteThreadWrites, messageWrites, threadWithMessages, threadWrite } from "../db/thread-queries";
import { settings } from "../shared/config";
import type { ThreadEventBody } from "../shared/events";
import type { Thread, ThreadDetail, ThreadMessage, ThreadMode } from "../shared/thread";
import { Room } from "./room";
import { type Refusal, type RoomResult, refuse } from "./room-result";
import { answerReply, failStuckReply } from "./thread/answer";
import type { ThreadContext } from "./thread/context";
import { applyVote, continueWith, type DualVote } from "./thread/dual";
import { loadThread, type MessageRecord, messageView, type ReplyCall, saveMessage, saveThread } from "./thread/record";

export type { DualVote } from "./thread/dual";

/** A message to send, with its reply as the route resolved it (model, topper's reason, dual's comparison). */
export interface SendMessage {
  content: string;
  reply: {
    id: string;
    mode: ThreadMode;
    modelId: string | null;
    displayName: string | null;
    reason: string | null;
    comparisonId: string | null;
    /** single and topper: the call to make */
    call?: ReplyCall;
  };
}

export type ThreadSettings = Partial<Pick<Thread, "title" | "systemPrompt" | "modelId" | "mode" | "category">>;

const missing = () => refuse("not_found", "No thread with this id.", 404);

/** Why a new message must wait, if it must: a reply still answering, or a dual reply before its vote. */
export function busyRefusal(messages: ThreadMessage[]): Refusal | null {
  const busy = messages.find((m) => m.status === "streaming" || m.status === "awaiting_vote");
  if (!busy) return null;
  return refuse(
    "thread_busy",
    busy.status === "streaming"
      ? "The previous reply is still being written: wait for it to end."
      : "The previous dual reply waits for your vote: vote on it first.",
  );
}

export class ThreadRoom extends Room<ThreadEventBody> {
  private thread: Thread | null = null;
  private messages: MessageRecord[] = [];
  private readonly pieces: ThreadContext;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.pieces = this.context();
    ctx.blockConcurrencyWhile(async () => {
      const stored = loadThread(ctx.storage.kv);
      if (stored) ({ thread: this.thread, messages: this.messages } = stored);
      // A new instance with a reply still answering means the one answering it is gone: resume now.
      if (this.hasWork()) await ctx.storage.setAlarm(Date.now());
    });
  }

  // ---- RPC, called by the Worker's routes and by a comparison made for the thread ----

  async create(thread: Thread): Promise<RoomResult<{ thread: Thread }>> {
    if (this.thread) return { ok: true, thread: this.thread };
    await runWrites(this.env.DB, threadWrite(this.env.DB, thread));
    this.thread = thread;
    saveThread(this.ctx.storage.kv, thread);
    return { ok: true, thread };
  }

  /** True once the room holds thread `id`, taking in one that only D1 holds (a /v1 call's). */
  async load(id: string): Promise<boolean> {
    if (this.thread) return true;
    const found = await threadWithMessages(openDb(this.env.DB), id);
    if (!found || this.thread) return this.thread !== null;
    this.thread = found.thread;
    this.messages = found.messages;
    saveThread(this.ctx.storage.kv, found.thread);
    for (const m of found.messages) saveMessage(this.ctx.storage.kv, m);
    return true;
  }

  async detail(id: string): Promise<ThreadDetail | null> {
    return (await this.load(id)) ? this.snapshot() : null;
  }

  async update(id: string, change: ThreadSettings): Promise<RoomResult<{ thread: Thread }>> {
    if (!(await this.load(id))) return missing();
    const thread: Thread = { ...this.thread!, ...change, updatedAt: Date.now() };
    await runWrites(this.env.DB, threadWrite(this.env.DB, thread));
    this.thread = thread;
    saveThread(this.ctx.storage.kv, thread);
    this.emit({ type: "thread.updated", thread });
    return { ok: true, thread };
  }

  async send(
    id: string,
    message: SendMessage,
  ): Promise<RoomResult<{ userMessage: ThreadMessage; reply: ThreadMessage }>> {
    if (!(await this.load(id))) return missing();
    const busy = busyRefusal(this.messages);
    if (busy) return busy;
    const now = Date.now();
    const seq = (this.messages.at(-1)?.seq ?? 0) + 1;
    const common = { tokensIn: null, tokensOut: null, latencyMs: null, costUsd: null, error: null, createdAt: now };
    const user: MessageRecord = {
      ...common,
      id: crypto.randomUUID(),
      seq,
      role: "user",
      content: message.content,
      mode: message.reply.mode,
      status: "done",
      modelId: null,
      displayName: null,
      reason: null,
      comparisonId: null,
    };
    const { call, ...shown } = message.reply;
    const reply: MessageRecord = {
      ...common,
      ...shown,
      seq: seq + 1,
      role: "assistant",
      content: "",
      status: message.reply.mode === "dual" ? "awaiting_vote" : "streaming",
      ...(call ? { call } : {}),
    };
    const d1 = this.env.DB;
    await runWrites(d1, [
      ...messageWrites(d1, this.thread!.id, messageView(user), now),
      ...messageWrites(d1, this.thread!.id, messageView(reply), now),
    ]);
    this.messages.push(user, reply);
    saveMessage(this.ctx.storage.kv, user);
    saveMessage(this.ctx.storage.kv, reply);
    this.emit({ type: "message.completed", message: messageView(user) });
    this.emit({ type: "message.started", message: messageView(reply) });
    if (call) this.startWork();
    return { ok: true, userMessage: messageView(user), reply: messageView(reply) };
  }

  /** The first vote on a comparison made for one of this thread's dual replies. */
  async comparisonVoted(threadId: string, vote: DualVote): Promise<void> {
    if (await this.load(threadId)) await applyVote(this.pieces, vote);
  }

  async continueWith(id: string, messageId: string, side: "A" | "B"): Promise<RoomResult<{ message: ThreadMessage }>> {
    if (!(await this.load(id))) return missing();
    const continued = await continueWith(this.pieces, messageId, side);
    return "ok" in continued ? continued : { ok: true, message: messageView(continued) };
  }

  /** Deletes the thread and its messages; comparisons its dual replies were voted in stay. */
  async remove(id: string): Promise<RoomResult<{ deleted: true }>> {
    if (!(await this.load(id))) return missing();
    const holds = this.messages.flatMap((m) => (m.call?.holdId ? [m.call.holdId] : []));
    const d1 = this.env.DB;
    await runWrites(d1, [...deleteThreadWrites(d1, id), ...(holds.length ? [settleHoldsWrite(d1, holds)] : [])]);
    this.thread = null;
    this.messages = [];
    await this.wipe("The thread was deleted.");
    return { ok: true, deleted: true };
  }

  // ---- the work: the replies still to answer, one per step ----

  protected exists() {
    return this.thread !== null;
  }

  protected snapshot(): ThreadDetail {
    return { thread: this.thread!, messages: this.messages.map(messageView) };
  }

  protected hasWork() {
    return this.toAnswer() !== undefined;
  }

  protected stepBudgetMs() {
    return settings(this.env).arena.timeoutMs;
  }

  protected async stopStuck(reason: string) {
    const reply = this.toAnswer();
    if (reply) await failStuckReply(this.pieces, reply, reason);
    await this.ctx.storage.deleteAlarm();
  }

  protected async step(generation: number) {
    const reply = this.toAnswer();
    if (reply) await answerReply(this.pieces, generation, reply);
    if (this.current(generation) && !this.hasWork()) await this.ctx.storage.deleteAlarm();
  }

  private toAnswer(): MessageRecord | undefined {
    return this.messages.find((m) => m.status === "streaming" && m.call);
  }

  private context(): ThreadContext {
    const room = this;
    return {
      env: this.env,
      get thread() {
        return room.thread!;
      },
      get messages() {
        return room.messages;
      },
      saveMessage: (m) => saveMessage(this.ctx.storage.kv, m),
      view: messageView,
      emit: (event) => this.emit(event),
      rules: () => ({
        env: this.env,
        cancel: this.cancelSignal,
        policy: this.retryPolicy(),
        timeoutMs: settings(this.env).arena.timeoutMs,
      }),
      current: (generation) => this.current(generation),
    };
  }
}
