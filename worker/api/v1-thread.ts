/**
 * A call to /v1/chat/completions kept as a chat thread (source `v1`): the request's conversation, then the answer and
 * the model that gave it, so History shows what other tools asked. Written after the answer went out (from the
 * call's waitUntil), in one D1 batch, so it never holds up the first token; its cost is the call's own `v1` entry.
 */
import { runWrites } from "../db/statements";
import { recordThreadWrites } from "../db/thread-queries";
import { displayName } from "../providers/registry";
import type { ChatMessage } from "../providers/types";
import { logError } from "../rooms/log";
import type { Reply } from "../rooms/reply";
import { THREAD_TITLE_MAX } from "../shared/constants";
import type { Thread, ThreadMessage } from "../shared/thread";
import { newItemId } from "./item-ids";

export interface RecordedCall {
  /** the model that answered */
  modelId: string;
  system?: string;
  messages: ChatMessage[];
}

const TITLE_CHARS = 60;

function titleOf(messages: ChatMessage[]): string {
  const first =
    messages
      .find((m) => m.role === "user")
      ?.content.trim()
      .split("\n")[0]
      .trim() ?? "";
  const title = first.length > TITLE_CHARS ? `${first.slice(0, TITLE_CHARS).trimEnd()}…` : first;
  return (title || "API call").slice(0, THREAD_TITLE_MAX);
}

/** Keeps `call` and its reply as a thread of its own; a failure to keep it is logged, never the caller's. */
export async function recordV1Thread(env: Env, call: RecordedCall, reply: Reply): Promise<void> {
  try {
    const now = Date.now();
    const id = await newItemId(env, "thread");
    const thread: Thread = {
      id,
      title: titleOf(call.messages),
      systemPrompt: call.system ?? null,
      modelId: call.modelId,
      mode: "single",
      category: null,
      source: "v1",
      createdAt: now,
      updatedAt: now,
    };
    const blank = {
      mode: "single" as const,
      status: "done" as const,
      modelId: null,
      displayName: null,
      reason: null,
      comparisonId: null,
      tokensIn: null,
      tokensOut: null,
      latencyMs: null,
      costUsd: null,
      error: null,
      createdAt: now,
    };
    const asked: ThreadMessage[] = call.messages.map((m, i) => ({
      ...blank,
      id: crypto.randomUUID(),
      seq: i + 1,
      role: m.role,
      content: m.content,
    }));
    const answer: ThreadMessage = {
      ...blank,
      id: crypto.randomUUID(),
      seq: asked.length + 1,
      role: "assistant",
      modelId: call.modelId,
      displayName: displayName(call.modelId),
      latencyMs: reply.latencyMs,
      ...(reply.ok
        ? {
            content: reply.generation.text,
            tokensIn: reply.generation.tokensIn,
            tokensOut: reply.generation.tokensOut,
            costUsd: reply.costUsd,
          }
        : { content: "", status: "failed", error: reply.error }),
    };
    await runWrites(env.DB, recordThreadWrites(env.DB, thread, [...asked, answer]));
  } catch (err) {
    logError("keeping a /v1 call as a thread failed:", err);
  }
}
