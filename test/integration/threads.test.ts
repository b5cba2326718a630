import { env } from "cloudflare:test";
import { describe, expect, inject, it } from "vitest";
import { errorOf } from "../helpers/arena";
import { client, ok } from "../helpers/client";
import { api } from "../helpers/runs";
import { callsFor, releaseHold, scriptModel } from "../helpers/stub-client";
import { createThread, getThread, openThreadSocket, replyEnded, sendMessage } from "../helpers/threads";

const stub = inject("stubUrl");

describe("threads: create, list, get, rename, delete, export", () => {
  it("creates a thread with its settings and lists it, newest activity first", async () => {
    const first = await createThread({ title: "First", modelId: "openai:thread-list", systemPrompt: "Be brief." });
    expect(first).toMatchObject({
      title: "First",
      modelId: "openai:thread-list",
      systemPrompt: "Be brief.",
      mode: "single",
      category: null,
      source: "page",
    });
    const second = await createThread({ title: "Second", mode: "topper", category: "coding" });
    const { threads } = await ok(client.threads.$get({ query: { limit: "100" } }));
    const ids = threads.map((t) => t.id);
    expect(ids.indexOf(second.id)).toBeLessThan(ids.indexOf(first.id));
    expect(threads.find((t) => t.id === first.id)).toEqual({
      id: first.id,
      title: "First",
      mode: "single",
      modelId: "openai:thread-list",
      source: "page",
      messageCount: 0,
      lastMessageAt: null,
      createdAt: first.createdAt,
      updatedAt: first.updatedAt,
    });
  });

  it("pages the list with its cursor", async () => {
    for (const title of ["p1", "p2", "p3"]) await createThread({ title });
    const page = await ok(client.threads.$get({ query: { limit: "2" } }));
    expect(page.threads).toHaveLength(2);
    expect(page.nextCursor).not.toBeNull();
    const next = await ok(client.threads.$get({ query: { limit: "2", cursor: page.nextCursor! } }));
    expect(next.threads[0].id).not.toBe(page.threads[1].id);
  });

  it("renames a thread and changes its settings; null clears them", async () => {
    const t = await createThread({ title: "Old", modelId: "openai:thread-rename", systemPrompt: "x" });
    const { thread } = await ok(
      client.threads[":id"].$patch({ param: { id: t.id }, json: { title: "New", systemPrompt: null, mode: "dual" } }),
    );
    expect(thread).toMatchObject({ title: "New", systemPrompt: null, mode: "dual", modelId: "openai:thread-rename" });
    expect((await getThread(t.id)).thread.title).toBe("New");
  });

  it("deletes a thread: it is gone from the list and its address answers 404", async () => {
    const t = await createThread({ title: "Doomed" });
    expect(await ok(client.threads[":id"].$delete({ param: { id: t.id } }))).toEqual({ deleted: true });
    const gone = await api(`/threads/${t.id}`);
    expect(gone.status).toBe(404);
    expect((await errorOf(gone)).code).toBe("not_found");
    const { threads } = await ok(client.threads.$get({ query: { limit: "100" } }));
    expect(threads.some((x) => x.id === t.id)).toBe(false);
  });

  it("exports a thread as Markdown naming each message's model, and as JSON", async () => {
    await scriptModel(stub, "thread-export", [{ text: "Paris is the capital." }]);
    const t = await createThread({ title: "Capitals", modelId: "openai:thread-export" });
    const { reply } = await sendMessage(t.id, { content: "What is the capital of France?" });
    await replyEnded(t.id, reply.id);
    const md = await api(`/threads/${t.id}/export?format=md`);
    expect(md.headers.get("content-type")).toMatch(/^text\/markdown/);
    expect(md.headers.get("content-disposition")).toBe(`attachment; filename="quorum-thread-${t.id}.md"`);
    const text = await md.text();
    expect(text).toContain("# Capitals");
    expect(text).toContain("## You\n\nWhat is the capital of France?");
    expect(text).toMatch(/## .+ \(`openai:thread-export`\)\n\nParis is the capital\./);
    const json = await api(`/threads/${t.id}/export?format=json`);
    const body = await json.json<{ thread: { id: string }; messages: { content: string }[] }>();
    expect(body.thread.id).toBe(t.id);
    expect(body.messages.map((m) => m.content)).toEqual(["What is the capital of France?", "Paris is the capital."]);
  });

  it("refuses bad input with a clear 4xx", async () => {
    const bad = await api("/threads", { method: "POST", json: { title: "" } });
    expect(bad.status).toBe(400);
    const unknownField = await api("/threads", { method: "POST", json: { colour: "red" } });
    expect(unknownField.status).toBe(400);
    const badModel = await api("/threads", { method: "POST", json: { modelId: "nope:model" } });
    expect(badModel.status).toBe(400);
    const unknown = await api("/threads/not-a-thread");
    expect(unknown.status).toBe(404);
    const t = await createThread({ title: "No model" });
    const noModel = await api(`/threads/${t.id}/messages`, { method: "POST", json: { content: "Hi" } });
    expect(noModel.status).toBe(400);
    expect((await errorOf(noModel)).code).toBe("no_model");
    const empty = await api(`/threads/${t.id}/messages`, { method: "POST", json: { content: "  " } });
    expect(empty.status).toBe(400);
    const mixed = await api(`/threads/${t.id}/messages`, {
      method: "POST",
      json: { content: "Hi", mode: "single", models: ["openai:a", "openai:b"] },
    });
    expect(mixed.status).toBe(400);
    const patchNothing = await api(`/threads/${t.id}`, { method: "PATCH", json: {} });
    expect(patchNothing.status).toBe(400);
    const badContinue = await api(`/threads/${t.id}/messages/nope/continue`, { method: "POST", json: { side: "C" } });
    expect(badContinue.status).toBe(400);
    const noMessage = await api(`/threads/${t.id}/messages/nope/continue`, { method: "POST", json: { side: "A" } });
    expect(noMessage.status).toBe(404);
  });
});

describe("threads: a single message", () => {
  it("streams the reply over the socket and stores both messages, with the thread's system prompt sent on", async () => {
    await scriptModel(stub, "thread-single", [{ text: "A streamed answer in pieces.", tokensIn: 9, tokensOut: 6 }]);
    const t = await createThread({ modelId: "openai:thread-single", systemPrompt: "Answer plainly." });
    const socket = await openThreadSocket(t.id);
    const { userMessage, reply } = await sendMessage(t.id, { content: "Tell me something." });
    expect(userMessage).toMatchObject({ role: "user", seq: 1, content: "Tell me something.", status: "done" });
    expect(reply).toMatchObject({ role: "assistant", seq: 2, status: "streaming", modelId: "openai:thread-single" });
    const done = await socket.waitFor("message.completed", (e) => e.message.id === reply.id);
    const deltas = socket.events.flatMap((e) =>
      e.type === "message.delta" && e.messageId === reply.id ? [e.text] : [],
    );
    socket.close();
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.join("")).toBe("A streamed answer in pieces.");
    expect(done.message).toMatchObject({
      status: "done",
      content: "A streamed answer in pieces.",
      tokensIn: 9,
      tokensOut: 6,
    });
    const stored = await getThread(t.id);
    expect(stored.messages.map((m) => [m.role, m.status, m.content])).toEqual([
      ["user", "done", "Tell me something."],
      ["assistant", "done", "A streamed answer in pieces."],
    ]);
    // Named by its first message, and kept in D1 as the History list reads it.
    expect(stored.thread.title).toBe("Tell me something.");
    const row = await env.DB.prepare("SELECT count(*) AS n FROM thread_messages WHERE thread_id = ?")
      .bind(t.id)
      .first<{ n: number }>();
    expect(row?.n).toBe(2);
    const [call] = await callsFor(stub, "thread-single");
    expect(call.body.messages).toEqual([
      { role: "system", content: "Answer plainly." },
      { role: "user", content: "Tell me something." },
    ]);
    const entry = await env.DB.prepare("SELECT kind, model_id AS modelId FROM spend_entries WHERE item_id = ?")
      .bind(reply.id)
      .first();
    expect(entry).toEqual({ kind: "chat", modelId: "openai:thread-single" });
  });

  it("sends the conversation so far with the next message", async () => {
    await scriptModel(stub, "thread-history", [{ text: "First answer." }, { text: "Second answer." }]);
    const t = await createThread({ modelId: "openai:thread-history" });
    const a = await sendMessage(t.id, { content: "One?" });
    await replyEnded(t.id, a.reply.id);
    const b = await sendMessage(t.id, { content: "Two?" });
    await replyEnded(t.id, b.reply.id);
    const calls = await callsFor(stub, "thread-history");
    expect(calls[1].body.messages).toEqual([
      { role: "user", content: "One?" },
      { role: "assistant", content: "First answer." },
      { role: "user", content: "Two?" },
    ]);
  });

  it("refuses a second message while the reply is still being written", async () => {
    await scriptModel(stub, "thread-busy", [{ text: "Slow answer.", holdKey: "thread-busy" }]);
    const t = await createThread({ modelId: "openai:thread-busy" });
    const { reply } = await sendMessage(t.id, { content: "Wait for it." });
    const again = await api(`/threads/${t.id}/messages`, { method: "POST", json: { content: "Again?" } });
    expect(again.status).toBe(409);
    expect((await errorOf(again)).code).toBe("thread_busy");
    await releaseHold(stub, "thread-busy");
    await replyEnded(t.id, reply.id);
  });

  it("resumes after a reload: a socket opened mid-stream gets the text so far in its snapshot, then the rest", async () => {
    const text = "one two three four five six seven eight nine ten";
    await scriptModel(stub, "thread-resume", [{ text, chunkDelayMs: 60 }]);
    const t = await createThread({ modelId: "openai:thread-resume" });
    const first = await openThreadSocket(t.id);
    const { reply } = await sendMessage(t.id, { content: "Count." });
    await first.waitFor("message.delta", (e) => e.messageId === reply.id);
    first.close();
    // The reload: a new socket, no `since`.
    const second = await openThreadSocket(t.id);
    const snapshot = await second.waitFor("snapshot");
    const sofar = snapshot.state.messages.find((m) => m.id === reply.id)!;
    expect(sofar.status).toBe("streaming");
    const done = await second.waitFor("message.completed", (e) => e.message.id === reply.id);
    const rest = second.events.flatMap((e) => (e.type === "message.delta" && e.messageId === reply.id ? [e.text] : []));
    second.close();
    expect(sofar.content + rest.join("")).toBe(text);
    expect(done.message.content).toBe(text);
  });
});
