import { describe, expect, it } from "vitest";
import { ProviderGate } from "../../worker/rooms/goal-battle/gate";
import { type SideAfterTurn, turnOutcome } from "../../worker/rooms/goal-battle/outcome";

const replied = (over: Partial<SideAfterTurn> = {}): SideAfterTurn => ({
  failure: null,
  reached: false,
  tokens: 100,
  latencyMs: 1000,
  ...over,
});

describe("a goal battle's outcome after a turn (rooms/goal-battle/outcome.ts)", () => {
  it("goes on while nobody reached the goal or failed and turns are left", () => {
    expect(turnOutcome({ A: replied(), B: replied() }, 3, 25, "goal")).toEqual({ kind: "continue" });
  });

  it("gives the win to the side that reached the goal", () => {
    expect(turnOutcome({ A: replied(), B: replied({ reached: true }) }, 3, 25, "goal")).toMatchObject({
      kind: "decided",
      endedReason: "goal",
      winner: "B",
    });
  });

  it("breaks a same-turn goal by fewer tokens, then lower latency, else a tie", () => {
    const both = (a: Partial<SideAfterTurn>, b: Partial<SideAfterTurn>) =>
      turnOutcome({ A: replied({ reached: true, ...a }), B: replied({ reached: true, ...b }) }, 2, 25, "goal");
    expect(both({ tokens: 90 }, {})).toMatchObject({ winner: "A" });
    expect(both({}, { latencyMs: 10 })).toMatchObject({ winner: "B" });
    expect(both({}, {})).toMatchObject({ winner: "tie", endedReason: "goal" });
  });

  it("leaves a goal reached to the judge or the vote in llm and human modes", () => {
    expect(turnOutcome({ A: replied({ reached: true }), B: replied() }, 2, 25, "llm")).toMatchObject({
      kind: "undecided",
      endedReason: "goal",
    });
  });

  it("hands the limit to the judge, and a failed side loses: by timeout or error; both failing is no contest", () => {
    expect(turnOutcome({ A: replied(), B: replied() }, 25, 25, "goal")).toMatchObject({
      kind: "undecided",
      endedReason: "limit",
    });
    const late = { failure: { timeout: true } };
    const broken = { failure: { timeout: false } };
    expect(turnOutcome({ A: replied(late), B: replied({ reached: true }) }, 4, 25, "goal")).toMatchObject({
      endedReason: "timeout",
      winner: "B",
    });
    expect(turnOutcome({ A: replied(), B: replied(broken) }, 4, 25, "human")).toMatchObject({
      endedReason: "error",
      winner: "A",
    });
    expect(turnOutcome({ A: replied(late), B: replied(late) }, 4, 25, "goal")).toMatchObject({
      endedReason: "timeout",
      winner: "none",
    });
    expect(turnOutcome({ A: replied(late), B: replied(broken) }, 4, 25, "goal")).toMatchObject({
      endedReason: "error",
      winner: "none",
    });
  });
});

describe("the goal battle room's provider gate (rooms/goal-battle/gate.ts)", () => {
  it("keeps each provider within its cap, as evaluations do", async () => {
    // Slots shared with other rooms are granted at once here: this is about the room's own cap.
    const granted = { take: async () => 1, give: () => {} };
    const gate = new ProviderGate(new Map([["openai", 2]]), granted, () => new AbortController().signal);
    let open = 0;
    let peak = 0;
    const releases: (() => void)[] = [];
    const call = () =>
      gate.run("openai:m", async () => {
        peak = Math.max(peak, ++open);
        await new Promise<void>((resolve) => releases.push(resolve));
        open--;
      });
    // Microtasks only: a freed slot is taken within a few turns of the queue, no timer involved.
    const settle = async () => {
      for (let i = 0; i < 20; i++) await Promise.resolve();
    };
    const calls = Array.from({ length: 5 }, call);
    await settle();
    expect(releases).toHaveLength(2);
    for (let done = 0; done < 5; done++) {
      releases.shift()!();
      await settle();
      expect(open).toBeLessThanOrEqual(2);
    }
    await Promise.all(calls);
    expect(peak).toBe(2);
  });
});
