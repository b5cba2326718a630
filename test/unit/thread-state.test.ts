import { describe, expect, it } from "vitest";
import {
  answeredBy,
  applyThreadEvent,
  openDual,
  promptOf,
  sendBlocked,
  upsertMessage,
} from "../../web/src/lib/thread-state";
import type { ThreadDetail, ThreadMessage } from "../../web/src/lib/thread-types";

const message = (over: Partial<ThreadMessage> & Pick<ThreadMessage, "id" | "seq">): ThreadMessage => ({
  role: "assistant",
  content: "",
  mode: "single",
  status: "streaming",
  modelId: "demo:concise",
  displayName: "Demo Concise",
  reason: null,
  comparisonId: null,
  tokensIn: null,
  tokensOut: null,
  latencyMs: null,
  costUsd: null,
  error: null,
  createdAt: 1_000,
  ...over,
});

const thread = (messages: ThreadMessage[]): ThreadDetail => ({
  thread: {
    id: "t1",
    title: "Recursion",
    systemPrompt: null,
    modelId: "demo:concise",
    mode: "single",
    category: null,
    source: "page",
    createdAt: 1_000,
    updatedAt: 1_000,
  },
  messages,
});

const user = (seq: number, content: string) =>
  message({ id: `u${seq}`, seq, role: "user", content, status: "done", modelId: null, displayName: null });

describe("a thread's events on the page's copy", () => {
  it("streams a reply: started, deltas appended in order, completed with the final text", () => {
    const d = thread([user(1, "Explain recursion")]);
    applyThreadEvent(d, { seq: 2, type: "message.started", message: message({ id: "a2", seq: 2 }) });
    applyThreadEvent(d, { seq: 3, type: "message.delta", messageId: "a2", text: "A function " });
    applyThreadEvent(d, { seq: 4, type: "message.delta", messageId: "a2", text: "that calls itself." });
    expect(d.messages.map((m) => [m.id, m.status, m.content])).toEqual([
      ["u1", "done", "Explain recursion"],
      ["a2", "streaming", "A function that calls itself."],
    ]);
    applyThreadEvent(d, {
      seq: 5,
      type: "message.completed",
      message: message({ id: "a2", seq: 2, status: "done", content: "A function that calls itself.", latencyMs: 40 }),
    });
    expect(d.messages[1]).toMatchObject({ status: "done", content: "A function that calls itself.", latencyMs: 40 });
    // A delta for a finished reply (a replay the page has already applied) changes nothing.
    applyThreadEvent(d, { seq: 6, type: "message.delta", messageId: "a2", text: " again" });
    expect(d.messages[1].content).toBe("A function that calls itself.");
  });

  it("keeps what the socket streamed when the send's response arrives after it", () => {
    const d = thread([user(1, "Hi")]);
    applyThreadEvent(d, { seq: 2, type: "message.started", message: message({ id: "a2", seq: 2 }) });
    applyThreadEvent(d, { seq: 3, type: "message.delta", messageId: "a2", text: "Hello" });
    upsertMessage(d, message({ id: "a2", seq: 2 }));
    expect(d.messages[1].content).toBe("Hello");
    applyThreadEvent(d, {
      seq: 4,
      type: "message.completed",
      message: message({ id: "a2", seq: 2, status: "done", content: "Hello there" }),
    });
    upsertMessage(d, message({ id: "a2", seq: 2 }));
    expect(d.messages[1]).toMatchObject({ status: "done", content: "Hello there" });
  });

  it("starts a reply over when the room starts it again (a broken stream asked anew)", () => {
    const d = thread([user(1, "Hi")]);
    applyThreadEvent(d, { seq: 2, type: "message.started", message: message({ id: "a2", seq: 2 }) });
    applyThreadEvent(d, { seq: 3, type: "message.delta", messageId: "a2", text: "Half an ans" });
    applyThreadEvent(d, { seq: 4, type: "message.started", message: message({ id: "a2", seq: 2 }) });
    applyThreadEvent(d, { seq: 5, type: "message.delta", messageId: "a2", text: "A whole answer." });
    expect(d.messages[1].content).toBe("A whole answer.");
  });

  it("takes a dual reply that now waits for a side, and a watchdog's word changes nothing", () => {
    const waiting = message({ id: "a2", seq: 2, mode: "dual", status: "awaiting_vote", comparisonId: "c1" });
    const d = thread([user(1, "Hi"), waiting]);
    const shown = d.messages[1];
    applyThreadEvent(d, { seq: 3, type: "message.updated", message: { ...waiting, status: "awaiting_choice" } });
    // The same message object, changed in place: what the page draws of it stays.
    expect(d.messages[1]).toBe(shown);
    expect(shown.status).toBe("awaiting_choice");
    applyThreadEvent(d, { seq: 4, type: "watchdog", action: "resumed", message: "A step overran." });
    expect(d.messages.map((m) => m.status)).toEqual(["done", "awaiting_choice"]);
  });

  it("orders messages by seq whichever arrives first, and takes a renamed thread", () => {
    const d = thread([]);
    upsertMessage(d, message({ id: "a2", seq: 2 }));
    upsertMessage(d, user(1, "First"));
    expect(d.messages.map((m) => m.id)).toEqual(["u1", "a2"]);
    applyThreadEvent(d, { seq: 9, type: "thread.updated", thread: { ...d.thread, title: "Renamed" } });
    expect(d.thread.title).toBe("Renamed");
  });
});

describe("what the page reads off a thread", () => {
  it("blocks the composer while a reply streams, while a dual message waits, and for a single message without a model", () => {
    const streaming = thread([user(1, "Hi"), message({ id: "a2", seq: 2 })]);
    expect(sendBlocked(streaming, "single", "demo:concise")).toBe("Wait for the reply to finish.");
    const dual = message({
      id: "a2",
      seq: 2,
      mode: "dual",
      status: "awaiting_vote",
      comparisonId: "c1",
      modelId: null,
    });
    expect(sendBlocked(thread([user(1, "Hi"), dual]), "dual", "")).toMatch(/^Vote on the two answers first/);
    const choosing = { ...dual, status: "awaiting_choice" as const };
    expect(sendBlocked(thread([user(1, "Hi"), choosing]), "single", "x:y")).toMatch(/^Pick the answer/);
    expect(openDual(thread([user(1, "Hi"), choosing]))?.id).toBe("a2");
    const idle = thread([user(1, "Hi"), message({ id: "a2", seq: 2, status: "done" })]);
    expect(sendBlocked(idle, "single", " ")).toMatch(/^Choose the thread's model first/);
    expect(sendBlocked(idle, "topper", "")).toBeNull();
    expect(sendBlocked(idle, "single", "demo:concise")).toBeNull();
  });

  it("after a tie asked again, only the new dual reply is open: the earlier one is set aside", () => {
    const tied = message({ id: "a2", seq: 2, mode: "dual", status: "awaiting_choice", comparisonId: "c1" });
    const again = message({ id: "a4", seq: 4, mode: "dual", status: "awaiting_vote", comparisonId: "c2" });
    const d = thread([user(1, "Hi"), tied, user(3, "Hi"), again]);
    expect(openDual(d)?.id).toBe("a4");
    expect(openDual(thread([user(1, "Hi"), tied, user(3, "Next")]))).toBeUndefined();
  });

  it("names who answered and why, and nobody while a dual message is blind", () => {
    const topper = message({
      id: "a2",
      seq: 2,
      mode: "topper",
      status: "done",
      modelId: "openai:gpt-4o",
      displayName: "GPT-4o",
      reason: "#1 on the human leaderboard, 1187 (give or take 14) over 312 appearances",
    });
    expect(answeredBy(topper)).toBe(
      "GPT-4o — #1 on the human leaderboard, 1187 (give or take 14) over 312 appearances",
    );
    expect(answeredBy(message({ id: "a3", seq: 3, modelId: "demo:concise", displayName: null }))).toBe("demo:concise");
    expect(answeredBy(message({ id: "a4", seq: 4, mode: "dual", modelId: null, displayName: null }))).toBeNull();
  });

  it("finds the prompt a reply answers, for asking again", () => {
    const reply = message({ id: "a4", seq: 4, mode: "dual", status: "awaiting_choice" });
    const d = thread([user(1, "One"), message({ id: "a2", seq: 2, status: "done" }), user(3, "Two"), reply]);
    expect(promptOf(d, reply)?.content).toBe("Two");
  });
});
