/** How each live event changes the page's copy of a chat thread, and what the page reads off that copy. */
import type { MessageMode, ThreadDetail, ThreadEvent, ThreadMessage } from "./thread-types";

export const MODE_TEXT: Record<MessageMode, string> = {
  single: "Single",
  dual: "Dual (vote)",
  topper: "Topper",
};

export const MODE_HELP: Record<MessageMode, string> = {
  single: "The thread's model answers.",
  dual: "Two anonymous models answer side by side; your vote picks the one that continues the thread.",
  topper: "The leader of the human leaderboard answers, and the reply says why it was chosen.",
};

const settled = (m: ThreadMessage) => m.status !== "streaming";

/** Puts a message in its place by seq, as the room says it is now (events arrive in order: each is the latest word). */
function putMessage(draft: ThreadDetail, message: ThreadMessage): void {
  const known = draft.messages.find((m) => m.id === message.id);
  // Field by field, so the page keeps the same message (and what it draws of it, a dual reply's socket say).
  if (known) Object.assign(known, message);
  else {
    draft.messages.push(message);
    draft.messages.sort((a, b) => a.seq - b.seq);
  }
}

/**
 * A message from an API response, which may be older than what the socket has already said: a reply the socket
 * has finished (or streamed text into) is not set back by the send's response.
 */
export function upsertMessage(draft: ThreadDetail, message: ThreadMessage): void {
  const known = draft.messages.find((m) => m.id === message.id);
  if (known && message.status === "streaming" && (settled(known) || known.content.length > message.content.length))
    return;
  putMessage(draft, message);
}

/** Applies one event. A reply started again (its stream broke and is asked anew) starts over from its event's text. */
export function applyThreadEvent(draft: ThreadDetail, e: Exclude<ThreadEvent, { type: "snapshot" }>): void {
  switch (e.type) {
    case "message.started":
    case "message.updated":
    case "message.completed":
    case "message.failed":
      putMessage(draft, e.message);
      return;
    case "message.delta": {
      const message = draft.messages.find((m) => m.id === e.messageId);
      if (message?.status === "streaming") message.content += e.text;
      return;
    }
    case "thread.updated":
      draft.thread = e.thread;
      return;
    case "watchdog":
      // The room's own word on a stalled step: the message it stopped arrives as message.failed.
      return;
  }
}

/**
 * The dual reply still waiting for its vote or for a side to continue with, if any: only the thread's last message
 * can be (a tie asked again leaves the earlier reply waiting, set aside).
 */
export function openDual(d: ThreadDetail): ThreadMessage | undefined {
  const last = d.messages.at(-1);
  return last && (last.status === "awaiting_vote" || last.status === "awaiting_choice") ? last : undefined;
}

/** The user message a reply answers: the last one before it. */
export function promptOf(d: ThreadDetail, reply: ThreadMessage): ThreadMessage | undefined {
  return d.messages.filter((m) => m.role === "user" && m.seq < reply.seq).at(-1);
}

/** Why the composer can't send now, or null when it can; `modelId` is the model field's (a single message's model). */
export function sendBlocked(d: ThreadDetail, mode: MessageMode, modelId: string): string | null {
  if (d.messages.some((m) => m.status === "streaming")) return "Wait for the reply to finish.";
  const dual = openDual(d);
  if (dual?.status === "awaiting_vote") return "Vote on the two answers first: the winner continues the thread.";
  if (dual) return "Pick the answer that continues the thread, or ask again.";
  return modelMissing(mode, modelId);
}

/** A single message needs a model to go to. */
export function modelMissing(mode: MessageMode, modelId: string): string | null {
  if (mode === "single" && !modelId.trim()) return "Choose the thread's model first (Model, in the settings).";
  return null;
}

/** "GPT-4o" and why, for the line over a reply; null while nobody may be named. */
export function answeredBy(m: ThreadMessage): string | null {
  if (m.role !== "assistant" || !m.modelId) return null;
  const who = m.displayName ?? m.modelId;
  return m.reason ? `${who} — ${m.reason}` : who;
}
