/** A chat thread as its page sees it (live over the thread's socket), the list of threads, and the calls on them. */
import type { InferRequestType } from "hono/client";
import { api, call, threadLiveUrl } from "../lib/api";
import { createLiveDoc } from "../lib/live-doc";
import { applyThreadEvent, upsertMessage } from "../lib/thread-state";
import type { ThreadDetail, ThreadEvent } from "../lib/thread-types";
import type { ExportFormat, Side } from "../../../worker/shared/constants";

/** What a thread's settings take (POST and PATCH /api/threads). */
export type ThreadSettings = InferRequestType<(typeof api.threads)[":id"]["$patch"]>["json"];
export type SendBody = InferRequestType<(typeof api.threads)[":id"]["messages"]["$post"]>["json"];

export const listThreads = (cursor?: string, limit = 50) =>
  call(api.threads.$get({ query: { limit: String(limit), ...(cursor ? { cursor } : {}) } }));

export const createThread = (settings: InferRequestType<typeof api.threads.$post>["json"]) =>
  call(api.threads.$post({ json: settings }));

export async function deleteThread(id: string): Promise<void> {
  await call(api.threads[":id"].$delete({ param: { id } }));
  try {
    sessionStorage.removeItem(cacheKey(id));
  } catch {
    // Storage disabled: nothing was kept.
  }
}

export const threadExportUrl = (id: string, format: ExportFormat) =>
  api.threads[":id"].export.$url({ param: { id }, query: { format } }).toString();

export const sendMessage = (id: string, body: SendBody) =>
  call(api.threads[":id"].messages.$post({ param: { id }, json: body }));

const cacheKey = (id: string) => `quorum.thread.${id}`;

/** One thread, live: the socket's snapshot and events, and the calls that change it. */
export function createLiveThread(id: string) {
  const doc = createLiveDoc<ThreadDetail, ThreadEvent>({
    cacheKey: cacheKey(id),
    url: (since) => threadLiveUrl(id, since),
    load: () => call(api.threads[":id"].$get({ param: { id } })),
    apply: applyThreadEvent,
    notFound: "This thread doesn't exist (it may have been deleted).",
  });
  return {
    get detail() {
      return doc.state;
    },
    connection: doc.connection,
    loadError: doc.loadError,
    async edit(settings: ThreadSettings) {
      const { thread } = await call(api.threads[":id"].$patch({ param: { id }, json: settings }));
      doc.update((d) => {
        d.thread = thread;
      });
      return thread;
    },
    async send(body: SendBody) {
      const res = await sendMessage(id, body);
      doc.update((d) => {
        upsertMessage(d, res.userMessage);
        upsertMessage(d, res.reply);
      });
      return res;
    },
    /** After a tie or both-bad: the answer on `side` continues the thread. */
    async continueWith(messageId: string, side: Side) {
      const { message } = await call(
        api.threads[":id"].messages[":messageId"].continue.$post({
          param: { id, messageId },
          json: { side: side === "left" ? "A" : "B" },
        }),
      );
      doc.update((d) => upsertMessage(d, message));
      return message;
    },
  };
}

export type LiveThread = ReturnType<typeof createLiveThread>;

const MODEL_KEY = "quorum.chat.model";

/** The model the last thread was given: a new thread starts with it. */
export function lastModel(): string | null {
  try {
    return localStorage.getItem(MODEL_KEY);
  } catch {
    return null;
  }
}

export function rememberModel(modelId: string): void {
  try {
    if (modelId.trim()) localStorage.setItem(MODEL_KEY, modelId.trim());
  } catch {
    // Storage disabled: the next thread starts with the catalog's first model.
  }
}
