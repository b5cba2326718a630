/**
 * A comparison made for a chat thread's dual reply tells that thread of its first vote, with both sides named (the
 * vote revealed them): the thread continues with the winner, or waits for the person's pick after a tie or both-bad.
 */
import { displayName } from "../../providers/registry";
import type { ComparisonRecord, SideRecord } from "../comparison-record";
import { logError } from "../log";

const candidate = (modelId: string, s: SideRecord) => ({
  modelId,
  displayName: displayName(modelId),
  text: s.text,
  tokensIn: s.tokensIn,
  tokensOut: s.tokensOut,
  latencyMs: s.latencyMs,
  costUsd: s.costUsd,
});

/** Passes the first vote on to the thread, if the comparison has one; the vote stands whatever the thread says. */
export async function tellThread(env: Env, r: ComparisonRecord): Promise<void> {
  const link = r.thread;
  const vote = r.votes[0];
  if (!link || !vote) return;
  const turn = r.turns.at(-1)!;
  try {
    await env.THREAD_ROOM.get(env.THREAD_ROOM.idFromName(link.id)).comparisonVoted(link.id, {
      messageId: link.messageId,
      comparisonId: r.id,
      choice: vote.choice,
      left: candidate(r.models.left, turn.left),
      right: candidate(r.models.right, turn.right),
    });
  } catch (err) {
    logError("telling a thread of its comparison's vote failed:", err);
  }
}
