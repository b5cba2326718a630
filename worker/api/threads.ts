/** /api/threads: chat threads (docs/chat.md). Validate, resolve who answers and set its cost aside, then the ThreadRoom. */
import { Hono } from "hono";
import { describeRoute } from "hono-openapi";
import { openDb } from "../db/queries";
import { listThreads } from "../db/thread-queries";
import { busyRefusal, type SendMessage, type ThreadSettings } from "../rooms/thread-room";
import {
  continueThreadInput,
  createThreadInput,
  exportQuery,
  listThreadsQuery,
  threadMessageInput,
  updateThreadInput,
  wsQuery,
} from "../shared/requests";
import {
  threadDeleted,
  threadDetailResponse,
  threadList,
  threadMessageAccepted,
  threadMessageResponse,
  threadResponse,
} from "../shared/responses";
import { threadJson, threadMarkdown } from "../shared/thread-export";
import type { Thread } from "../shared/thread";
import { namesRecord } from "./contestant-names";
import { resolveContestants } from "./contestants";
import { notFound } from "./errors";
import { knownId, newItemId } from "./item-ids";
import { errorResponses, jsonResponse, mediaResponse, pathParam } from "./openapi-describe";
import { parseCursor } from "./paging";
import { unwrap } from "./room-result";
import { connectRoom, requireUpgrade } from "./sockets";
import { replyFor } from "./thread-reply";
import { validate } from "./validate";
import * as z from "zod/mini";

/** The room of thread `id`: only for an id the server made (item-ids.ts), since addressing a room creates it. */
export const threadRoom = (env: Env, id: string) => env.THREAD_ROOM.get(env.THREAD_ROOM.idFromName(id));

/** A thread's title until it has one: its first message names it. */
export const UNTITLED = "New chat";
const TITLE_FROM_MESSAGE = 60;

const threadId = pathParam("id", "The thread's id, as POST /api/threads returned it.");

const described = {
  create: describeRoute({
    tags: ["Threads"],
    summary: "Start a chat thread",
    responses: { 201: jsonResponse(threadResponse, "The thread."), ...errorResponses(400) },
  }),
  list: describeRoute({
    tags: ["Threads"],
    summary: "List threads, newest activity first (the History page's list)",
    responses: { 200: jsonResponse(threadList, "A page of threads."), ...errorResponses(400) },
  }),
  get: describeRoute({
    tags: ["Threads"],
    summary: "A thread and its messages",
    parameters: [threadId],
    responses: { 200: jsonResponse(threadDetailResponse, "The thread."), ...errorResponses(404) },
  }),
  update: describeRoute({
    tags: ["Threads"],
    summary: "Rename a thread or change its model, system prompt, default mode or topper category",
    parameters: [threadId],
    responses: { 200: jsonResponse(threadResponse, "The thread as changed."), ...errorResponses(400, 404) },
  }),
  delete: describeRoute({
    tags: ["Threads"],
    summary: "Delete a thread and its messages (comparisons its dual messages were voted in stay, with their votes)",
    parameters: [threadId],
    responses: { 200: jsonResponse(threadDeleted, "Deleted."), ...errorResponses(404) },
  }),
  export: describeRoute({
    tags: ["Threads"],
    summary: "Download a thread as Markdown or JSON",
    parameters: [threadId],
    responses: {
      200: mediaResponse("The file, as an attachment.", {
        "application/json": threadDetailResponse,
        "text/markdown": z.string(),
      }),
      ...errorResponses(400, 404),
    },
  }),
  message: describeRoute({
    tags: ["Threads"],
    summary: "Send a message: one model answers (single), the leader does (topper), or two blind models (dual)",
    description:
      "The reply streams over the thread's socket. A dual reply's comparisonId is an arena comparison: its answers stream over /api/comparisons/:id/ws, the arena's vote route votes on it, and the winner's answer then continues the thread (after a tie or both-bad, POST …/continue picks the side).",
    parameters: [threadId],
    responses: {
      202: jsonResponse(threadMessageAccepted, "The message, and its reply as it starts."),
      ...errorResponses(400, 404, 409, 429),
    },
  }),
  continue: describeRoute({
    tags: ["Threads"],
    summary: "After a dual reply's tie or both-bad: continue the thread with side A (left) or B (right)",
    parameters: [threadId, pathParam("messageId", "The dual reply's id.")],
    responses: { 200: jsonResponse(threadMessageResponse, "The reply, now done."), ...errorResponses(400, 404, 409) },
  }),
};

/** The thread as its room holds it (it takes in a thread only D1 holds), or the route's 404. */
async function detailOf(env: Env, id: string) {
  const detail = await threadRoom(env, id).detail(id);
  if (!detail) throw notFound("Thread");
  return detail;
}

/** A model or preset named for a thread: refused (400) when unknown or its provider isn't configured. */
async function checkContestant(env: Env, id: string | null | undefined) {
  if (id) await resolveContestants(env, [id]);
}

export const threadsApi = new Hono<{ Bindings: Env }>()
  .post("/", described.create, validate("json", createThreadInput), async (c) => {
    const input = c.req.valid("json");
    await checkContestant(c.env, input.modelId);
    const id = await newItemId(c.env, "thread");
    const now = Date.now();
    const thread: Thread = {
      id,
      title: input.title ?? UNTITLED,
      systemPrompt: input.systemPrompt ?? null,
      modelId: input.modelId ?? null,
      mode: input.mode,
      category: input.category ?? null,
      source: "page",
      createdAt: now,
      updatedAt: now,
    };
    return c.json(unwrap(await threadRoom(c.env, id).create(thread)), 201);
  })
  .get("/", described.list, validate("query", listThreadsQuery), async (c) => {
    const { cursor, limit } = c.req.valid("query");
    const db = openDb(c.env.DB);
    const page = await listThreads(db, limit, parseCursor(cursor));
    const models = page.threads.flatMap((t) => (t.modelId ? [t.modelId] : []));
    return c.json({ ...page, names: await namesRecord(db, models) });
  })
  .get("/:id", described.get, async (c) => c.json(await detailOf(c.env, await knownId(c, "thread"))))
  .patch("/:id", described.update, validate("json", updateThreadInput), async (c) => {
    const id = await knownId(c, "thread");
    const change: ThreadSettings = c.req.valid("json");
    await checkContestant(c.env, change.modelId);
    return c.json(unwrap(await threadRoom(c.env, id).update(id, change)));
  })
  .delete("/:id", described.delete, async (c) => {
    const id = await knownId(c, "thread");
    return c.json(unwrap(await threadRoom(c.env, id).remove(id)));
  })
  .get("/:id/export", described.export, validate("query", exportQuery), async (c) => {
    const detail = await detailOf(c.env, await knownId(c, "thread"));
    const { format } = c.req.valid("query");
    c.header("Content-Disposition", `attachment; filename="quorum-thread-${detail.thread.id}.${format}"`);
    if (format === "md") return c.body(threadMarkdown(detail), 200, { "Content-Type": "text/markdown; charset=utf-8" });
    return c.body(threadJson(detail), 200, { "Content-Type": "application/json; charset=utf-8" });
  })
  .post("/:id/messages", described.message, validate("json", threadMessageInput), async (c) => {
    const id = await knownId(c, "thread");
    const room = threadRoom(c.env, id);
    const detail = await detailOf(c.env, id);
    // Checked before anything is started or set aside (the room checks again as it takes the message).
    const busy = busyRefusal(detail.messages);
    if (busy) unwrap(busy);
    const { content, reply, release } = await replyFor(c, detail, c.req.valid("json"));
    let sent: Awaited<ReturnType<typeof room.send>>;
    try {
      sent = await room.send(id, { content, reply } satisfies SendMessage);
    } catch (err) {
      await release();
      throw err;
    }
    if (!sent.ok) await release();
    const accepted = unwrap(sent);
    if (detail.thread.title === UNTITLED && detail.messages.length === 0)
      await room.update(id, { title: titleFrom(content) });
    return c.json(accepted, 202);
  })
  .post("/:id/messages/:messageId/continue", described.continue, validate("json", continueThreadInput), async (c) => {
    const id = await knownId(c, "thread");
    const { side } = c.req.valid("json");
    return c.json(unwrap(await threadRoom(c.env, id).continueWith(id, c.req.param("messageId"), side)));
  })
  .get("/:id/ws", validate("query", wsQuery), async (c) => {
    requireUpgrade(c);
    const id = await knownId(c, "thread");
    const room = threadRoom(c.env, id);
    if (!(await room.load(id))) throw notFound("Thread");
    return connectRoom(room, c.req.raw, () => notFound("Thread"));
  });

/** A title from the first message: its first line, cut at a word near TITLE_FROM_MESSAGE characters. */
function titleFrom(content: string): string {
  const line = content.trim().split("\n")[0].trim();
  if (line.length <= TITLE_FROM_MESSAGE) return line || UNTITLED;
  const cut = line.slice(0, TITLE_FROM_MESSAGE);
  const space = cut.lastIndexOf(" ");
  return `${(space > 20 ? cut.slice(0, space) : cut).trimEnd()}…`;
}
