/**
 * A dual reply after its comparison's vote: a side that won continues the thread with its answer; after a tie or
 * both-bad the reply waits for the person to pick the side that continues (or for a new message, which asks again).
 */
import { runWrites } from "../../db/statements";
import { messageWrites } from "../../db/thread-queries";
import type { VoteChoice } from "../../shared/arena";
import { type Refusal, refuse } from "../room-result";
import type { ThreadContext } from "./context";
import type { DualCandidate, MessageRecord } from "./record";

/** What a comparison made for a thread tells its thread once its first vote named the sides. */
export interface DualVote {
  messageId: string;
  comparisonId: string;
  choice: VoteChoice;
  left: DualCandidate;
  right: DualCandidate;
}

/** Takes the vote into the reply it was cast for; a reply that no longer waits for one (deleted, answered) is left. */
export async function applyVote(ctx: ThreadContext, vote: DualVote): Promise<void> {
  const reply = ctx.messages.find((m) => m.id === vote.messageId);
  if (!reply || reply.comparisonId !== vote.comparisonId || reply.status !== "awaiting_vote") return;
  if (vote.choice === "left" || vote.choice === "right") return settleWith(ctx, reply, vote[vote.choice]);
  reply.status = "awaiting_choice";
  reply.candidates = { A: vote.left, B: vote.right };
  await keep(ctx, reply);
  ctx.emit({ type: "message.updated", message: ctx.view(reply) });
}

/** After a tie or both-bad: side A (the comparison's left) or B continues the thread. */
export async function continueWith(
  ctx: ThreadContext,
  messageId: string,
  side: "A" | "B",
): Promise<MessageRecord | Refusal> {
  const reply = ctx.messages.find((m) => m.id === messageId);
  if (!reply) return refuse("not_found", "No message with this id in this thread.", 404);
  if (reply.status !== "awaiting_choice" || !reply.candidates)
    return refuse(
      "not_awaiting_choice",
      reply.status === "awaiting_vote"
        ? "This reply's comparison has no vote yet: vote first (a win continues the thread by itself)."
        : "Only a dual reply voted a tie or both-bad waits for a side to continue with.",
    );
  // A reply to an earlier message: the conversation has moved on from it.
  if (ctx.messages.at(-1) !== reply)
    return refuse("not_latest", "A newer message was sent since this reply, so it can no longer continue the thread.");
  await settleWith(ctx, reply, reply.candidates[side]);
  return reply;
}

async function settleWith(ctx: ThreadContext, reply: MessageRecord, winner: DualCandidate): Promise<void> {
  Object.assign(reply, {
    status: "done",
    content: winner.text,
    modelId: winner.modelId,
    displayName: winner.displayName,
    tokensIn: winner.tokensIn,
    tokensOut: winner.tokensOut,
    latencyMs: winner.latencyMs,
    costUsd: winner.costUsd,
  });
  delete reply.candidates;
  await keep(ctx, reply);
  ctx.emit({ type: "message.completed", message: ctx.view(reply) });
}

async function keep(ctx: ThreadContext, reply: MessageRecord): Promise<void> {
  await runWrites(ctx.env.DB, messageWrites(ctx.env.DB, ctx.thread.id, ctx.view(reply), Date.now()));
  ctx.saveMessage(reply);
}
