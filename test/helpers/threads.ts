/** Test helpers that drive chat threads as the page does: over HTTP and the thread's WebSocket. */
import type { InferRequestType } from "hono/client";
import { type ThreadEvent, threadEvent } from "../../worker/shared/events";
import type { ThreadDetail, ThreadMessage } from "../../worker/shared/thread";
import { client, ok } from "./client";
import { type EventSocket, openEventSocket } from "./sockets";

export type ThreadSocket = EventSocket<ThreadEvent>;

export function openThreadSocket(id: string, since?: number): Promise<ThreadSocket> {
  return openEventSocket(`/api/threads/${id}/ws`, threadEvent, since);
}

export type CreateThreadBody = InferRequestType<typeof client.threads.$post>["json"];
export type ThreadMessageBody = InferRequestType<(typeof client.threads)[":id"]["messages"]["$post"]>["json"];

export async function createThread(body: CreateThreadBody = {}) {
  return (await ok(client.threads.$post({ json: body }))).thread;
}

export function getThread(id: string): Promise<ThreadDetail> {
  return ok(client.threads[":id"].$get({ param: { id } }));
}

export function sendMessage(id: string, body: ThreadMessageBody) {
  return ok(client.threads[":id"].messages.$post({ param: { id }, json: body }));
}

/** Waits through the thread's live events until reply `messageId` has ended (done, failed, or its vote's outcome). */
export async function replyEnded(id: string, messageId: string, timeoutMs = 15_000): Promise<ThreadMessage> {
  const socket = await openThreadSocket(id, 0);
  try {
    const ended = await socket.until(
      (e) =>
        (e.type === "message.completed" || e.type === "message.failed" || e.type === "message.updated") &&
        e.message.id === messageId,
      `the end of reply ${messageId}`,
      timeoutMs,
    );
    return (ended as Extract<ThreadEvent, { message: ThreadMessage }>).message;
  } finally {
    socket.close();
  }
}
