import { createExecutionContext, env, SELF, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, inject, it } from "vitest";
import worker from "../../worker/index";
import type { ThreadMessage } from "../../worker/shared/thread";
import { castVote, createComparison, errorOf, getComparison, leaderboard, settled } from "../helpers/arena";
import { client, ok } from "../helpers/client";
import { api } from "../helpers/runs";
import { BASE } from "../helpers/sockets";
import { callsFor, poll, releaseHold, scriptModel } from "../helpers/stub-client";
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
    const preset = await ok(client.presets.$post({ json: { name: "Thread terse", modelId: "openai:thread-list" } }));
    await createThread({ title: "Third", modelId: preset.id });
    const { threads, names } = await ok(client.threads.$get({ query: { limit: "100" } }));
    // History names a thread's model as the leaderboard does: a preset by its name and version, its model beside it.
    expect(names[preset.id]).toEqual({ displayName: "Thread terse v1", modelId: "openai:thread-list" });
    expect(names["openai:thread-list"]).toEqual({ displayName: "thread-list", modelId: null });
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
    const { threads } = await ok(client.threads.$get({ query: { limit: "100" } }));
    expect(threads.find((x) => x.id === t.id)).toMatchObject({ messageCount: 2, title: "Tell me something." });
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

/** POST /api/threads/:id/messages on a Worker with settings of its own (its rooms keep the test's). */
async function sendWithSettings(id: string, body: unknown, settings: Record<string, string>) {
  const ctx = createExecutionContext();
  const res = await worker.fetch(
    new Request(`${BASE}/api/threads/${id}/messages`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    }),
    { ...env, ...settings },
    ctx,
  );
  await waitOnExecutionContext(ctx);
  if (res.status !== 202) throw new Error(`answered ${res.status}: ${await res.text()}`);
  return res.json<{ reply: ThreadMessage }>();
}

describe("threads: topper", () => {
  it("falls back while no model has enough appearances, saying so, then answers with the leader the leaderboard shows", async () => {
    await scriptModel(stub, "pool-gpt", [{ text: "The pool's first model." }]);
    const t = await createThread({ mode: "topper" });
    const first = await sendMessage(t.id, { content: "Who answers?" });
    expect(first.reply.modelId).toBe("openai:pool-gpt");
    expect(first.reply.reason).toMatch(
      /^No model has 20 appearances on the human leaderboard yet \(QUORUM_TOPPER_MIN_APPEARANCES\), so the arena pool's first available model answered/,
    );
    expect((await replyEnded(t.id, first.reply.id)).content).toBe("The pool's first model.");

    // Four comparisons the strong model wins three of, one a tie.
    for (const [k, choice] of (["strong", "strong", "strong", "tie"] as const).entries()) {
      await scriptModel(stub, "top-strong", [{ text: "STRONG" }]);
      await scriptModel(stub, "top-weak", [{ text: "weak" }]);
      const { id } = await createComparison({ prompt: `Round ${k}`, models: ["openai:top-strong", "google:top-weak"] });
      const detail = await settled(id);
      const strongSide = detail.turns[0].left.text === "STRONG" ? "left" : "right";
      await castVote(id, choice === "tie" ? "tie" : strongSide);
    }
    const board = await leaderboard();
    const leader = board.rows.filter((r) => r.bt !== null && r.appearances >= 3).sort((a, b) => b.bt! - a.bt!)[0];
    expect(leader.modelId).toBe("openai:top-strong");

    await scriptModel(stub, "top-strong", [{ text: "The leader answers." }]);
    const { reply } = await sendWithSettings(t.id, { content: "And now?" }, { QUORUM_TOPPER_MIN_APPEARANCES: "3" });
    expect(reply.modelId).toBe(leader.modelId);
    expect(reply.mode).toBe("topper");
    const giveOrTake = Math.round((leader.ciUpper! - leader.ciLower!) / 2);
    expect(reply.reason).toBe(
      `#1 on the human leaderboard, ${Math.round(leader.bt!)} (give or take ${giveOrTake}) over ${leader.appearances} appearances`,
    );
    const done = await replyEnded(t.id, reply.id);
    expect(done).toMatchObject({ status: "done", content: "The leader answers.", modelId: "openai:top-strong" });
  });

  it("reads the thread's category view: a category without a leader falls back and names the view", async () => {
    await scriptModel(stub, "pool-gpt", [{ text: "Fallback for poetry." }]);
    const t = await createThread({ mode: "topper", category: "poetry" });
    const { reply } = await sendMessage(t.id, { content: "A haiku?" });
    expect(reply.reason).toMatch(/^No model has 20 appearances on the human leaderboard's poetry view yet/);
    await replyEnded(t.id, reply.id);
  });
});

type Row = Record<string, unknown>;

/**
 * A comparison's arena rows, without ids and times, and with sides named by their models (sides are drawn per
 * comparison): what the comparison and its vote wrote.
 */
async function arenaRows(comparisonId: string) {
  const all = async (sql: string) => (await env.DB.prepare(sql).bind(comparisonId).all<Row>()).results;
  const [comparison] = await all(
    "SELECT model1_id, model2_id, prompt, category, blind, mode, status FROM comparisons WHERE id = ?",
  );
  const sideModel = { left: comparison.model1_id, right: comparison.model2_id } as Record<string, unknown>;
  const messages = await all(
    "SELECT side, turn, role, content, status, error, truncated, tokens, tokens_in FROM messages WHERE comparison_id = ?",
  );
  const votes = await all("SELECT choice, winner_model_id, flags FROM model_votes WHERE comparison_id = ? ORDER BY id");
  const battles = await all(
    "SELECT source, model_a, model_b, winner, category, flagged, turn, anony FROM battles WHERE vote_id IN (SELECT vote_id FROM model_votes WHERE comparison_id = ?)",
  );
  const won = (choice: unknown) =>
    choice === "left" || choice === "right" ? `won by ${sideModel[choice as string]}` : choice;
  const { model1_id, model2_id, ...rest } = comparison;
  return {
    comparison: { ...rest, models: [model1_id, model2_id].sort() } as Row,
    messages: messages
      .map(({ side, ...m }) => ({ ...m, model: sideModel[side as string] }))
      .sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b))),
    votes: votes.map(({ choice, ...v }) => ({ ...v, choice: won(choice) })),
    battles: battles.map(({ model_a, model_b, winner, ...b }) => ({
      ...b,
      models: [model_a, model_b].sort(),
      winner: winner === "model_a" ? model_a : winner === "model_b" ? model_b : winner,
    })),
  };
}

/** Waits for the comparison's sides to settle, then votes for the side whose text is `winnerText` (or `choice`). */
async function voteOn(comparisonId: string, pick: { text: string } | { choice: "tie" | "both-bad" }) {
  const detail = await settled(comparisonId);
  const choice = "text" in pick ? (detail.turns[0].left.text === pick.text ? "left" : "right") : pick.choice;
  return castVote(comparisonId, choice);
}

describe("threads: dual", () => {
  it("writes exactly the arena's rows, keeps the names hidden until the vote, and continues with the winner", async () => {
    await scriptModel(stub, "dual-solo", [{ text: "Earlier answer." }]);
    const t = await createThread({ modelId: "openai:dual-solo" });
    const earlier = await sendMessage(t.id, { content: "Earlier question?" });
    await replyEnded(t.id, earlier.reply.id);

    for (const name of ["dual-a", "arena-a"]) await scriptModel(stub, name, [{ text: "Answer A." }]);
    for (const name of ["dual-b", "arena-b"]) await scriptModel(stub, name, [{ text: "Answer B." }]);
    const { reply } = await sendMessage(t.id, {
      content: "Which is better?",
      mode: "dual",
      models: ["openai:dual-a", "anthropic:dual-b"],
    });
    expect(reply).toMatchObject({
      mode: "dual",
      status: "awaiting_vote",
      content: "",
      modelId: null,
      displayName: null,
    });
    const comparisonId = reply.comparisonId!;
    expect(comparisonId).toBeTruthy();
    const blind = await settled(comparisonId);
    expect(blind.reveal).toBeNull();
    expect((await getThread(t.id)).messages.at(-1)).toMatchObject({
      modelId: null,
      content: "",
      status: "awaiting_vote",
    });
    // Both sides read the thread's conversation before the new message.
    const [call] = await callsFor(stub, "dual-a");
    expect(call.body.messages).toEqual([
      { role: "user", content: "Earlier question?" },
      { role: "assistant", content: "Earlier answer." },
      { role: "user", content: "Which is better?" },
    ]);

    const voted = await voteOn(comparisonId, { text: "Answer B." });
    const done = await replyEnded(t.id, reply.id);
    expect(done).toMatchObject({ status: "done", content: "Answer B.", modelId: "anthropic:dual-b" });
    expect(voted.reveal).not.toBeNull();

    // The same question and vote in the arena itself writes the same rows.
    const arena = await createComparison({
      prompt: "Which is better?",
      models: ["openai:arena-a", "anthropic:arena-b"],
    });
    await voteOn(arena.id, { text: "Answer B." });
    const rename = (rows: unknown) =>
      JSON.parse(JSON.stringify(rows).replaceAll("arena-a", "dual-a").replaceAll("arena-b", "dual-b"));
    const ours = await arenaRows(comparisonId);
    expect(ours).toEqual(rename(await arenaRows(arena.id)));
    expect(ours.votes).toEqual([
      { winner_model_id: "anthropic:dual-b", flags: "[]", choice: "won by anthropic:dual-b" },
    ]);
    expect(ours.battles).toHaveLength(1);
    expect(ours.messages).toHaveLength(4);

    // The leaderboard counts it as any arena vote.
    const board = await leaderboard();
    expect(board.rows.find((r) => r.modelId === "anthropic:dual-b")?.wins).toBe(1);

    // The next message reads the winner's answer.
    await scriptModel(stub, "dual-solo", [{ text: "Next." }]);
    const next = await sendMessage(t.id, { content: "And then?", mode: "single" });
    await replyEnded(t.id, next.reply.id);
    const calls = await callsFor(stub, "dual-solo");
    expect(calls.at(-1)!.body.messages).toEqual([
      { role: "user", content: "Earlier question?" },
      { role: "assistant", content: "Earlier answer." },
      { role: "user", content: "Which is better?" },
      { role: "assistant", content: "Answer B." },
      { role: "user", content: "And then?" },
    ]);
  });

  it("after a tie waits for the side that continues; continue picks it", async () => {
    await scriptModel(stub, "tie-a", [{ text: "Tie A." }]);
    await scriptModel(stub, "tie-b", [{ text: "Tie B." }]);
    const t = await createThread({ mode: "dual" });
    const { reply } = await sendMessage(t.id, { content: "Either?", models: ["openai:tie-a", "google:tie-b"] });
    const early = await api(`/threads/${t.id}/messages/${reply.id}/continue`, { method: "POST", json: { side: "A" } });
    expect(early.status).toBe(409);
    const busy = await api(`/threads/${t.id}/messages`, { method: "POST", json: { content: "More?" } });
    expect(busy.status).toBe(409);
    await voteOn(reply.comparisonId!, { choice: "tie" });
    const waiting = await replyEnded(t.id, reply.id);
    expect(waiting).toMatchObject({ status: "awaiting_choice", content: "" });
    expect((await getThread(t.id)).messages.at(-1)!.status).toBe("awaiting_choice");
    const left = (await getComparison(reply.comparisonId!)).reveal!.left.modelId;
    const { message } = await ok(
      client.threads[":id"].messages[":messageId"].continue.$post({
        param: { id: t.id, messageId: reply.id },
        json: { side: "A" },
      }),
    );
    expect(message).toMatchObject({ status: "done", modelId: left });
    expect(message.content).toBe(left === "openai:tie-a" ? "Tie A." : "Tie B.");
  });

  it("deleting the thread keeps the comparison and its vote", async () => {
    await scriptModel(stub, "keep-a", [{ text: "Keep A." }]);
    await scriptModel(stub, "keep-b", [{ text: "Keep B." }]);
    const t = await createThread({ mode: "dual" });
    const { reply } = await sendMessage(t.id, { content: "Keep?", models: ["openai:keep-a", "google:keep-b"] });
    await voteOn(reply.comparisonId!, { text: "Keep A." });
    await replyEnded(t.id, reply.id);
    const before = await arenaRows(reply.comparisonId!);
    await ok(client.threads[":id"].$delete({ param: { id: t.id } }));
    expect(await arenaRows(reply.comparisonId!)).toEqual(before);
    expect((await getComparison(reply.comparisonId!)).reveal).not.toBeNull();
  });

  it("draws the pair from the arena's pool when none is named", async () => {
    for (const name of ["pool-gpt", "pool-claude", "pool-gemini"]) await scriptModel(stub, name, [{ text: name }]);
    const t = await createThread({ mode: "dual" });
    const { reply } = await sendMessage(t.id, { content: "Drawn?" });
    const voted = await voteOn(reply.comparisonId!, { choice: "both-bad" });
    const pool = ["openai:pool-gpt", "anthropic:pool-claude", "google:pool-gemini"];
    expect(pool).toContain(voted.reveal.left.modelId);
    expect(pool).toContain(voted.reveal.right.modelId);
    expect((await arenaRows(reply.comparisonId!)).comparison.mode).toBe("sampled");
  });
});

describe("threads: /v1 calls", () => {
  /** The v1 thread titled `title`, once the call's after-response write has kept it. */
  const v1Thread = (title: string) =>
    poll(
      async () => (await ok(client.threads.$get({ query: { limit: "100" } }))).threads.find((t) => t.title === title),
      (t) => t !== undefined && t.messageCount > 0,
      5_000,
      `the v1 thread "${title}"`,
    );

  it("keeps a call as a thread: its messages, the answer and the model that answered", async () => {
    await scriptModel(stub, "v1-kept", [{ text: "Kept as a thread.", tokensIn: 7, tokensOut: 4 }]);
    const res = await SELF.fetch(`${BASE}/v1/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        model: "openai:v1-kept",
        messages: [
          { role: "system", content: "Be kind." },
          { role: "user", content: "Keep this call?" },
        ],
      }),
    });
    expect(res.status).toBe(200);
    const summary = (await v1Thread("Keep this call?"))!;
    expect(summary).toMatchObject({ source: "v1", modelId: "openai:v1-kept", messageCount: 2 });
    const { thread, messages } = await getThread(summary.id);
    expect(thread.systemPrompt).toBe("Be kind.");
    expect(messages.map((m) => [m.role, m.content, m.modelId, m.status])).toEqual([
      ["user", "Keep this call?", null, "done"],
      ["assistant", "Kept as a thread.", "openai:v1-kept", "done"],
    ]);
    expect(messages[1]).toMatchObject({ tokensIn: 7, tokensOut: 4 });
  });

  it("keeps a streamed call too, and the page can continue it", async () => {
    await scriptModel(stub, "v1-streamed", [{ text: "Streamed and kept." }, { text: "Continued on the page." }]);
    const res = await SELF.fetch(`${BASE}/v1/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        model: "openai:v1-streamed",
        stream: true,
        messages: [{ role: "user", content: "Stream and keep?" }],
      }),
    });
    expect(await res.text()).toContain("[DONE]");
    const summary = (await v1Thread("Stream and keep?"))!;
    const { reply } = await sendMessage(summary.id, { content: "Go on." });
    expect((await replyEnded(summary.id, reply.id)).content).toBe("Continued on the page.");
    const calls = await callsFor(stub, "v1-streamed");
    expect(calls[1].body.messages).toEqual([
      { role: "user", content: "Stream and keep?" },
      { role: "assistant", content: "Streamed and kept." },
      { role: "user", content: "Go on." },
    ]);
  });
});
