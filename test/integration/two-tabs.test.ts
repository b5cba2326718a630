import { describe, expect, inject, it } from "vitest";
import { releaseHold, scriptModel, waitForHeld } from "../helpers/stub-client";
import { createRun, getRun, openSocket } from "../helpers/runs";
import { createComparison, getComparison, openComparisonSocket } from "../helpers/arena";

const stub = inject("stubUrl");
const WAIT = 20_000;

describe("two tabs on one run", () => {
  it("see the same events, seq for seq and body for body, to the end, and a tab joining mid-run catches up exactly", async () => {
    await scriptModel(stub, "tabs-held", [
      { holdKey: "tabs-run", text: "Held until the second tab is in.", chunkDelayMs: 2 },
    ]);
    await scriptModel(stub, "tabs-quick", [{ text: "A quick answer in several words, streamed in pieces." }]);
    const id = await createRun({
      question: "Two tabs?",
      models: [{ id: "openai:tabs-held" }, { id: "anthropic:tabs-quick" }, { id: "demo:concise" }],
    });
    const [first, second] = await Promise.all([openSocket(id, 0), openSocket(id, 0)]);

    const completed = () => first.events.filter((e) => e.type === "answer.completed").length;
    await first.until(() => completed() === 2, "the two unheld answers", WAIT);
    await waitForHeld(stub, "tabs-run", 1, WAIT);
    const seenSoFar = first.events.at(-1)!.seq;
    const joining = await openSocket(id, seenSoFar);
    const reloading = await openSocket(id);
    const snapshot = await reloading.waitFor("snapshot", undefined, WAIT);
    await releaseHold(stub, "tabs-run");

    const tabs = [first, second, joining, reloading];
    await Promise.all(tabs.map((tab) => tab.waitFor("run.completed", undefined, WAIT)));
    for (const tab of tabs) tab.close();

    expect(first.events[0].seq).toBe(1);
    expect(first.events.map((e) => e.seq)).toEqual(first.events.map((_, i) => i + 1));
    expect(second.events).toEqual(first.events);
    expect(joining.events).toEqual(first.events.filter((e) => e.seq > seenSoFar));
    expect(reloading.events.slice(1)).toEqual(first.events.filter((e) => e.seq > snapshot.seq));
    expect(snapshot.state.answers.filter((a) => a.status === "done")).toHaveLength(2);
    expect(first.events.some((e) => e.type === "answer.delta" && e.seq > seenSoFar)).toBe(true);
    expect((await getRun(id)).run.status).toBe("done");
  });
});

describe("two tabs on one comparison", () => {
  it("see the same events to the end, and a tab joining mid-turn catches up exactly", async () => {
    await scriptModel(stub, "tabs-side-held", [
      { holdKey: "tabs-cmp", text: "The held side answers at last, in a few words.", chunkDelayMs: 2 },
    ]);
    await scriptModel(stub, "tabs-side-quick", [{ text: "The quick side answers in a few words." }]);
    const { id } = await createComparison({
      prompt: "Two tabs?",
      models: ["openai:tabs-side-held", "google:tabs-side-quick"],
    });
    const [first, second] = await Promise.all([openComparisonSocket(id, 0), openComparisonSocket(id, 0)]);

    await first.waitFor("side.completed", undefined, WAIT);
    await waitForHeld(stub, "tabs-cmp", 1, WAIT);
    const seenSoFar = first.events.at(-1)!.seq;
    const joining = await openComparisonSocket(id, seenSoFar);
    const reloading = await openComparisonSocket(id);
    const snapshot = await reloading.waitFor("snapshot", undefined, WAIT);
    await releaseHold(stub, "tabs-cmp");

    const tabs = [first, second, joining, reloading];
    await Promise.all(tabs.map((tab) => tab.waitFor("comparison.status", (e) => e.status === "ready", WAIT)));
    for (const tab of tabs) tab.close();

    expect(first.events.map((e) => e.seq)).toEqual(first.events.map((_, i) => i + 1));
    expect(second.events).toEqual(first.events);
    expect(joining.events).toEqual(first.events.filter((e) => e.seq > seenSoFar));
    expect(reloading.events.slice(1)).toEqual(first.events.filter((e) => e.seq > snapshot.seq));
    expect(first.events.some((e) => e.type === "side.delta" && e.seq > seenSoFar)).toBe(true);
    expect((await getComparison(id)).comparison.status).toBe("ready");
  });
});
