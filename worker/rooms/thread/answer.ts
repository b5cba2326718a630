/** A single or topper reply, streamed and settled: the thread's message, its D1 row, its spend entry, its hold. */
import { settleHoldsWrite } from "../../db/spend-queries";
import { runWrites } from "../../db/statements";
import { chatSpendWrite, messageWrites } from "../../db/thread-queries";
import { pendingReply, type StreamedRecord, streamAndSettle } from "../stream-and-settle";
import type { ThreadContext } from "./context";
import { conversationOf, type MessageRecord } from "./record";

export async function answerReply(ctx: ThreadContext, generation: number, reply: MessageRecord): Promise<void> {
  const call = reply.call!;
  const at = ctx.messages.indexOf(reply);
  // What the model reads: the conversation before the person's message, then that message.
  const before = ctx.messages.slice(0, at - 1);
  const ask = ctx.messages[at - 1];
  const live: StreamedRecord = pendingReply();
  await streamAndSettle({
    rules: ctx.rules(),
    request: {
      modelId: call.modelId,
      messages: [...conversationOf(before), { role: "user", content: ask.content }],
      system: call.system,
      temperature: call.temperature,
      maxTokens: call.maxTokens,
    },
    record: live,
    current: () => ctx.current(generation),
    save: () => ctx.saveMessage(reply),
    // The reply was announced when it was asked for; an attempt that throws text away starts it again.
    announceStart: (_attempt, voided) => {
      reply.content = "";
      if (voided) ctx.emit({ type: "message.started", message: ctx.view(reply) });
    },
    announceDelta: (text) => {
      reply.content += text;
      ctx.emit({ type: "message.delta", messageId: reply.id, text });
    },
    keep: async (done) => {
      Object.assign(reply, {
        status: live.status === "done" ? "done" : "failed",
        content: live.text,
        tokensIn: live.tokensIn,
        tokensOut: live.tokensOut,
        latencyMs: live.latencyMs,
        costUsd: live.costUsd ?? null,
        error: live.error,
      });
      delete reply.call;
      const now = Date.now();
      const d1 = ctx.env.DB;
      await runWrites(d1, [
        ...messageWrites(d1, ctx.thread.id, ctx.view(reply), now),
        ...(done.ok ? [chatSpendWrite(d1, { itemId: reply.id, modelId: call.modelId, ...usageOf(live) }, now)] : []),
        ...(call.holdId ? [settleHoldsWrite(d1, [call.holdId], now)] : []),
      ]);
      ctx.saveMessage(reply);
    },
    log: { run: ctx.thread.id, step: "chat", model: call.modelId },
    announceEnd: (done) =>
      ctx.emit({ type: done.ok ? "message.completed" : "message.failed", message: ctx.view(reply) }),
  });
}

const usageOf = (s: StreamedRecord) => ({ tokensIn: s.tokensIn, tokensOut: s.tokensOut, costUsd: s.costUsd ?? null });

/** The watchdog gave up on a reply still answering: it fails with `reason`, its hold settled. */
export async function failStuckReply(ctx: ThreadContext, reply: MessageRecord, reason: string): Promise<void> {
  const holdId = reply.call?.holdId ?? null;
  Object.assign(reply, { status: "failed", error: reason });
  delete reply.call;
  const d1 = ctx.env.DB;
  const now = Date.now();
  await runWrites(d1, [
    ...messageWrites(d1, ctx.thread.id, ctx.view(reply), now),
    ...(holdId ? [settleHoldsWrite(d1, [holdId], now)] : []),
  ]);
  ctx.saveMessage(reply);
  ctx.emit({ type: "message.failed", message: ctx.view(reply) });
}
