/** A chat thread as its page sees it (live over the thread's socket), the list of threads, and the calls on them. */
import type { ClientResponse } from "hono/client";
import { authHeaders } from "../lib/access";
import { call } from "../lib/api";
import { createLiveDoc } from "../lib/live-doc";
import { applyThreadEvent, upsertMessage } from "../lib/thread-state";
import type { MessageMode, Thread, ThreadDetail, ThreadEvent, ThreadMessage, ThreadSummary } from "../lib/thread-types";
import type { ExportFormat, Side } from "../../../worker/shared/constants";

/** What a thread's settings take (POST and PATCH /api/threads). */
export interface ThreadSettings {
  title?: string;
  modelId?: string | null;
  systemPrompt?: string | null;
  mode?: MessageMode;
  category?: string | null;
}

/** One JSON call on /api/threads, answered (or refused) as `call` answers every other API call. */
function threadCall<T>(method: string, path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { ...authHeaders() };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const request = fetch(`/api/threads${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  }) as unknown as Promise<ClientResponse<T, 200, "json">>;
  return call(request) as Promise<T>;
}

const at = (id: string) => `/${encodeURIComponent(id)}`;

export const listThreads = (cursor?: string, limit = 50) =>
  threadCall<{ threads: ThreadSummary[]; nextCursor: string | null }>(
    "GET",
    `?${new URLSearchParams({ limit: String(limit), ...(cursor ? { cursor } : {}) })}`,
  );

export const createThread = (settings: ThreadSettings) => threadCall<{ thread: Thread }>("POST", "", settings);

export const editThread = (id: string, settings: ThreadSettings) =>
  threadCall<{ thread: Thread }>("PATCH", at(id), settings);

export async function deleteThread(id: string): Promise<void> {
  const res = await fetch(`/api/threads${at(id)}`, { method: "DELETE", headers: authHeaders() });
  if (res.status !== 204) await call(Promise.resolve(res as unknown as ClientResponse<unknown, 200, "json">));
  try {
    sessionStorage.removeItem(cacheKey(id));
  } catch {
    // Storage disabled: nothing was kept.
  }
}

export const threadExportUrl = (id: string, format: ExportFormat) =>
  `/api/threads${at(id)}/export?${new URLSearchParams({ format })}`;

export interface SendBody {
  content: string;
  mode?: MessageMode;
  modelId?: string;
}

export const sendMessage = (id: string, body: SendBody) =>
  threadCall<{ userMessage: ThreadMessage; reply: ThreadMessage }>("POST", `${at(id)}/messages`, body);

function threadLiveUrl(id: string, since: number | undefined): string {
  const url = new URL(`/api/threads${at(id)}/ws`, location.href);
  url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
  if (since !== undefined) url.searchParams.set("since", String(since));
  return url.toString();
}

const cacheKey = (id: string) => `quorum.thread.${id}`;

/** One thread, live: the socket's snapshot and events, and the calls that change it. */
export function createLiveThread(id: string) {
  const doc = createLiveDoc<ThreadDetail, ThreadEvent>({
    cacheKey: cacheKey(id),
    url: (since) => threadLiveUrl(id, since),
    load: () => threadCall<ThreadDetail>("GET", at(id)),
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
      const { thread } = await editThread(id, settings);
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
      const { message } = await threadCall<{ message: ThreadMessage }>(
        "POST",
        `${at(id)}/messages/${encodeURIComponent(messageId)}/continue`,
        { side: side === "left" ? "A" : "B" },
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
