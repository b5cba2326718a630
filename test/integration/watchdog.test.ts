import {
  abortAllDurableObjects,
  createExecutionContext,
  createScheduledController,
  env,
  runInDurableObject,
  waitOnExecutionContext,
} from "cloudflare:test";
import worker from "../../worker/index";
import { SWEEP_AFTER_MS, sweepUnfinished } from "../../worker/rooms/sweep";
import { describe, expect, inject, it } from "vitest";
import { callsFor, poll, releaseHold, scriptModel, waitForCalls, waitForHeld } from "../helpers/stub-client";
import { client } from "../helpers/client";
import { createRun, finished, finishedAgain, getRun, openSocket } from "../helpers/runs";
import { createComparison, getComparison, openComparisonSocket } from "../helpers/arena";
import { fireAlarm, passDeadline } from "../helpers/watchdog";
import { storedLog } from "../helpers/sockets";
import { createThread, getThread, replyEnded, sendMessage } from "../helpers/threads";
import { formatMs } from "../../worker/rooms/limits";

const stub = inject("stubUrl");
const runRoom = (id: string) => env.RUN_ROOM.get(env.RUN_ROOM.idFromName(id));
const comparisonRoom = (id: string) => env.COMPARISON_ROOM.get(env.COMPARISON_ROOM.idFromName(id));
const threadRoom = (id: string) => env.THREAD_ROOM.get(env.THREAD_ROOM.idFromName(id));
const WAIT = 15_000;

describe("the watchdog", () => {
  it("resumes a run stuck past its deadline once, then ends it with what it has and says why", async () => {
    await scriptModel(stub, "wd-hang-gpt", [{ hang: true }, { hang: true }]);
    const id = await createRun({
      question: "Will it hang?",
      models: [{ id: "openai:wd-hang-gpt" }, { id: "demo:concise" }, { id: "demo:thorough" }],
    });
    const socket = await openSocket(id);
    await socket.until(
      (e) => socket.events.filter((x) => x.type === "answer.completed").length === 2 && e.type === "answer.completed",
      "two answers",
      WAIT,
    );
    await waitForCalls(stub, "wd-hang-gpt", 1, WAIT);
    const room = runRoom(id);

    const first = await passDeadline(room);
    // at least its own calls' timeout (the default 120 s) plus the default slack of 30 s
    expect(first.resumes).toBe(0);
    expect(first.allowanceMs).toBeGreaterThanOrEqual(150_000);
    const resuming = fireAlarm(room);
    const resumed = await socket.waitFor("watchdog", (e) => e.action === "resumed", WAIT);
    expect(resumed.message).toBe(
      `No progress within ${formatMs(first.allowanceMs)}: the watchdog resumed the unfinished work once.`,
    );
    await waitForCalls(stub, "wd-hang-gpt", 2, WAIT);

    const second = await passDeadline(room);
    expect(second.resumes).toBe(1);
    const stopping = fireAlarm(room);
    const end = await socket.waitFor("run.completed", undefined, WAIT);
    expect(await stopping).toBe(true);
    await resuming;
    socket.close();

    expect(end.status).toBe("partial");
    const stopped = socket.events.find((e) => e.type === "watchdog" && e.action === "stopped");
    const reason = `Stopped by the watchdog: no progress within ${formatMs(second.allowanceMs)} after one resume.`;
    expect(stopped).toMatchObject({ message: reason });
    const detail = await getRun(id);
    expect(detail.run).toMatchObject({ status: "partial", error: reason });
    const hung = detail.answers.find((a) => a.modelId === "openai:wd-hang-gpt")!;
    expect(hung).toMatchObject({ status: "failed", error: reason });
    expect(
      detail.answers
        .filter((a) => a.status === "done")
        .map((a) => a.modelId)
        .sort(),
    ).toEqual(["demo:concise", "demo:thorough"]);
    // asked once, then once more by the resume, and never again
    expect((await callsFor(stub, "wd-hang-gpt")).filter((c) => c.kind === "answer")).toHaveLength(2);
    // the answers that came back can still be ranked
    const ranked = await finishedAgain(
      id,
      async () => expect((await client.runs[":id"].evaluate.$post({ param: { id } })).status).toBe(202),
      WAIT,
    );
    expect(ranked.run.status).toBe("done");
    expect(ranked.aggregation!.finalRanking).toHaveLength(2);
  });

  it("gives a step that finishes after a resume no second chance to be stopped: the run completes", async () => {
    await scriptModel(stub, "wd-late-claude", [{ hang: true }, { holdKey: "wd-late-1", text: "Late but here." }]);
    const id = await createRun({
      question: "Late?",
      models: [{ id: "anthropic:wd-late-claude" }, { id: "demo:concise" }],
    });
    const socket = await openSocket(id);
    await waitForCalls(stub, "wd-late-claude", 1, WAIT);
    const room = runRoom(id);
    await passDeadline(room);
    const resuming = fireAlarm(room);
    await waitForCalls(stub, "wd-late-claude", 2, WAIT);
    await waitForHeld(stub, "wd-late-1", 1, WAIT);
    await releaseHold(stub, "wd-late-1");
    await resuming;
    const end = await socket.waitFor("run.completed", undefined, WAIT);
    socket.close();
    expect(end.status).toBe("done");
    const detail = await getRun(id);
    expect(detail.run.error).toBeNull();
    expect(detail.answers.find((a) => a.modelId === "anthropic:wd-late-claude")!.text).toBe("Late but here.");
    expect(detail.aggregation!.finalRanking).toHaveLength(2);
  });

  it("counts a restart found past the deadline as the resume", async () => {
    await scriptModel(stub, "wd-crash-gpt", [{ hang: true }, { text: "Answered after the restart." }]);
    const id = await createRun({
      question: "Crash past the deadline?",
      models: [{ id: "openai:wd-crash-gpt" }, { id: "demo:concise" }],
    });
    await waitForCalls(stub, "wd-crash-gpt", 1, WAIT);
    const room = runRoom(id);
    await passDeadline(room);
    // the instance dies with its step; the next one finds the step overdue and resumes it once
    await abortAllDurableObjects();
    const detail = await finished(id, WAIT);
    expect(detail.run.status).toBe("done");
    expect(detail.answers.find((a) => a.modelId === "openai:wd-crash-gpt")!.text).toBe("Answered after the restart.");
    // The room's stored log (a replay from 0 would need the old instance's deltas, so a client gets a snapshot instead).
    const watchdog = (await storedLog(runRoom(id))).events.filter((e) => e.type === "watchdog");
    expect(watchdog.map((e) => e.action)).toEqual(["resumed"]);
    expect(watchdog[0].message).toMatch(/resumed/);
  });

  it("the cron sweep wakes a run that lost its alarm with its instance, and it finishes", async () => {
    await scriptModel(stub, "wd-lost-gpt", [{ hang: true }, { text: "Woken by the sweep." }]);
    const id = await createRun({
      question: "Lost alarm?",
      models: [{ id: "openai:wd-lost-gpt" }, { id: "demo:concise" }],
    });
    await waitForCalls(stub, "wd-lost-gpt", 1, WAIT);
    await runInDurableObject(runRoom(id), (_room, state) => state.storage.deleteAlarm());
    await abortAllDurableObjects();
    // as D1 sees it, the run started well before the sweep looks
    await env.DB.prepare("UPDATE runs SET created_at = ? WHERE id = ?")
      .bind(Date.now() - SWEEP_AFTER_MS - 60_000, id)
      .run();

    const ctx = createExecutionContext();
    worker.scheduled(createScheduledController({ cron: "*/10 * * * *" }), env, ctx);
    await waitOnExecutionContext(ctx);
    await waitForCalls(stub, "wd-lost-gpt", 2, WAIT);
    const detail = await finished(id, WAIT);
    expect(detail.run.status).toBe("done");
    expect(detail.answers.find((a) => a.modelId === "openai:wd-lost-gpt")!.text).toBe("Woken by the sweep.");
  });

  it("the cron sweep wakes a thread whose reply lost its alarm, and the reply ends; a thread at rest is left alone", async () => {
    await scriptModel(stub, "wd-lost-chat", [{ hang: true }, { text: "Answered after the sweep." }]);
    const answering = await createThread({ modelId: "openai:wd-lost-chat" });
    const resting = await createThread({ modelId: "demo:concise" });
    const { reply } = await sendMessage(answering.id, { content: "Still there?" });
    const rested = await sendMessage(resting.id, { content: "Hello?" });
    await replyEnded(resting.id, rested.reply.id);
    await waitForCalls(stub, "wd-lost-chat", 1, WAIT);
    await runInDurableObject(threadRoom(answering.id), (_room, state) => state.storage.deleteAlarm());
    await abortAllDurableObjects();
    // as D1 sees them, both threads were last sent a message well before the sweep looks
    await env.DB.prepare("UPDATE threads SET updated_at = ? WHERE id IN (?, ?)")
      .bind(Date.now() - SWEEP_AFTER_MS - 60_000, answering.id, resting.id)
      .run();

    const found = await sweepUnfinished(env);
    expect(found.threads).toContain(answering.id);
    expect(found.threads).not.toContain(resting.id);
    // Nothing but the sweep has asked the room anything since it was lost: the call is its doing.
    await waitForCalls(stub, "wd-lost-chat", 2, WAIT);
    const ended = await poll(
      async () => (await getThread(answering.id)).messages.find((m) => m.id === reply.id)!,
      (m) => m.status !== "streaming",
      WAIT,
      "the reply woken by the sweep to end",
    );
    expect(ended).toMatchObject({ status: "done", content: "Answered after the sweep." });
    expect(await callsFor(stub, "wd-lost-chat")).toHaveLength(2);
  });

  it("resumes a comparison side stuck past its deadline once, then fails that side with the reason, blind still", async () => {
    await scriptModel(stub, "wd-hang-side", [{ hang: true }, { hang: true }]);
    await scriptModel(stub, "wd-fine-side", [{ text: "A fine answer about recursion." }]);
    const { id } = await createComparison({
      prompt: "Explain recursion.",
      models: ["openai:wd-hang-side", "anthropic:wd-fine-side"],
    });
    const socket = await openComparisonSocket(id);
    await socket.waitFor("side.completed", undefined, WAIT);
    await waitForCalls(stub, "wd-hang-side", 1, WAIT);
    const room = comparisonRoom(id);

    // the arena's timeout in tests is 10 s, plus the default slack of 30 s
    expect(await passDeadline(room)).toMatchObject({ allowanceMs: 40_000, resumes: 0 });
    const resuming = fireAlarm(room);
    await socket.waitFor("watchdog", (e) => e.action === "resumed", WAIT);
    await waitForCalls(stub, "wd-hang-side", 2, WAIT);
    await passDeadline(room);
    const stopping = fireAlarm(room);
    await socket.waitFor("comparison.status", (e) => e.status === "failed", WAIT);
    await stopping;
    await resuming;
    socket.close();

    const reason = "Stopped by the watchdog: no progress within 40 s after one resume.";
    const failed = socket.events.find((e) => e.type === "side.failed");
    expect(failed).toMatchObject({ error: reason });
    const detail = await getComparison(id);
    expect(detail.comparison.status).toBe("failed");
    expect(detail.reveal).toBeNull();
    const sides = [detail.turns[0].left, detail.turns[0].right];
    expect(sides.map((s) => s.status).sort()).toEqual(["done", "failed"]);
    expect(sides.find((s) => s.status === "failed")!.error).toBe(reason);
    expect((await callsFor(stub, "wd-hang-side")).filter((c) => c.kind === "answer")).toHaveLength(2);
    expect((await callsFor(stub, "wd-fine-side")).filter((c) => c.kind === "answer")).toHaveLength(1);

    // a retry starts afresh, with a deadline and a resume of its own
    await scriptModel(stub, "wd-hang-side", [{ text: "Now I answer." }]);
    const again = await openComparisonSocket(id);
    await again.waitFor("snapshot");
    expect((await client.comparisons[":id"].retry.$post({ param: { id } })).status).toBe(202);
    await again.waitFor("comparison.status", (e) => e.status === "ready", WAIT);
    again.close();
    expect((await getComparison(id)).comparison.status).toBe("ready");
  });
});
