import { describe, expect, it } from "vitest";
import { buildLaunch, LAUNCH_DEFAULTS, type LaunchValues, launchRefusal } from "../../web/src/lib/goal-battle-form";
import type { GoalBattleSummary, GoalMessage } from "../../web/src/lib/goal-battle-types";
import {
  awaitsVote,
  canReveal,
  elapsedAt,
  endedText,
  formatElapsed,
  sideName,
  turnText,
  winnerText,
} from "../../web/src/lib/goal-battle-view";
import { goalCheckText, mergeMessages, sideTurns } from "../../web/src/lib/goal-transcript";

const filled = (over: Partial<LaunchValues> = {}): LaunchValues => ({
  ...LAUNCH_DEFAULTS,
  first: "demo:concise",
  second: "preset:terse@1",
  goal: "Get the user to book a table for two",
  userModel: "demo:skeptic",
  ...over,
});

/** An API refusal as lib/api.ts throws it. */
const refusal = (message: string, details?: unknown) =>
  Object.assign(new Error(message), { status: 400, code: "invalid_request", details });

const side = (over: Partial<GoalBattleSummary["sides"]["A"]> = {}) => ({
  contestant: null,
  displayName: null,
  tokensIn: 0,
  tokensOut: 0,
  latencyMs: 0,
  turns: 0,
  costUsd: null,
  goalReachedAt: null,
  failed: false,
  ...over,
});

const battle = (over: Partial<GoalBattleSummary> = {}): GoalBattleSummary => ({
  jobId: "gb_1",
  state: "running",
  currentTurn: 3,
  maxTurns: 25,
  progress: 0.12,
  endedReason: null,
  winner: null,
  rationale: null,
  goal: "Book a table",
  judgeMode: "goal",
  user: { mode: "model", modelId: "demo:skeptic", persona: null },
  category: null,
  createdAt: 0,
  startedAt: 0,
  endedAt: null,
  elapsedMs: 65_000,
  sides: { A: side(), B: side() },
  vote: null,
  ...over,
});

const message = (over: Partial<GoalMessage>): GoalMessage => ({
  turn: 1,
  side: "A",
  role: "assistant",
  content: "",
  tokensIn: null,
  tokensOut: null,
  latencyMs: null,
  goalCheck: null,
  error: null,
  createdAt: 0,
  ...over,
});

describe("the goal battle launch form's request", () => {
  it("sends the two contestants, a model-played user with its persona, the goal check and the limits in the API's units", () => {
    const { body, count, errors } = buildLaunch(filled({ persona: "An impatient diner", count: "3" }));
    expect(errors).toEqual({});
    expect(count).toBe(3);
    expect(body).toEqual({
      contestants: ["demo:concise", "preset:terse@1"],
      systemPrompt: "",
      goal: "Get the user to book a table for two",
      user: { mode: "model", modelId: "demo:skeptic", persona: "An impatient diner" },
      goalCheck: { marker: "GOAL_REACHED" },
      maxTurns: 25,
      turnTimeoutMs: 120_000,
      judgeMode: "goal",
    });
    // Temperature and max tokens are the models' own unless given.
    expect(buildLaunch(filled({ temperature: "0.2", maxTokens: "512" })).body).toMatchObject({
      temperature: 0.2,
      maxTokens: 512,
    });
  });

  it("sends a script as one user message per non-blank line, and a pool instead of a pair", () => {
    const { body } = buildLaunch(
      filled({
        draw: "pool",
        pool: "demo:concise, demo:thorough,demo:skeptic",
        userMode: "script",
        script: "Hi\n\n  I need a table \nFor two, at eight",
        judgeModel: "demo:skeptic",
        marker: "",
        category: " booking ",
      }),
    );
    expect(body?.pool).toEqual(["demo:concise", "demo:thorough", "demo:skeptic"]);
    expect(body?.contestants).toBeUndefined();
    expect(body?.user).toEqual({ mode: "script", script: ["Hi", "I need a table", "For two, at eight"] });
    expect(body?.goalCheck).toEqual({ judgeModelId: "demo:skeptic" });
    expect(body?.category).toBe("booking");
  });

  it("names each field that can't be sent, and sends nothing then", () => {
    const { body, count, errors } = buildLaunch(
      filled({ second: "demo:concise", goal: " ", count: "11", temperature: "3", maxTurns: "51", userModel: "" }),
    );
    expect(body).toBeNull();
    expect(count).toBe(0);
    expect(errors).toEqual({
      second: "The two contestants must differ.",
      goal: "Say what both sides must achieve.",
      count: "A whole number from 1 to 10.",
      maxTurns: "A whole number from 1 to 50.",
      temperature: "A number from 0 to 2.",
      userModel: "Name the model that plays the user.",
    });
    expect(buildLaunch(filled({ judgeMode: "llm" })).errors).toEqual({
      judgeModel: "Judging alone needs a judge model.",
    });
  });

  it("puts the server's validation issues beside their fields and the rest under the form", () => {
    const err = refusal("contestants.1: unknown model", {
      issues: [
        { path: "contestants.1", message: "Unknown model demo:nope." },
        { path: "user.script.2", message: "Too long." },
        { path: "turnTimeoutMs", message: "At most 900000." },
        { path: "goalCheck", message: "A marker or a judge." },
        { path: "somethingNew", message: "Odd." },
      ],
    });
    expect(launchRefusal(err, filled())).toEqual({
      fields: {
        second: "Unknown model demo:nope.",
        script: "Too long.",
        turnTimeoutSeconds: "At most 900000.",
        marker: "A marker or a judge.",
      },
      general: "somethingNew: Odd.",
    });
    // A bare "user" is the script's field when a script plays the user.
    expect(
      launchRefusal(refusal("x", { issues: [{ path: "user", message: "Required." }] }), filled({ userMode: "script" }))
        .fields,
    ).toEqual({
      script: "Required.",
    });
  });

  it("puts a refused model beside the field holding it, and any other refusal once under the form", () => {
    const unconfigured =
      'OpenAI is not configured (no key), so "openai:gpt-4o" can\'t run. Add it to .dev.vars or pick another model.';
    expect(launchRefusal(refusal(unconfigured), filled({ judgeModel: "openai:gpt-4o" }))).toEqual({
      fields: { judgeModel: unconfigured },
      general: null,
    });
    const ownJudge = Object.assign(refusal("The judge demo:concise is one of the contestants."), {
      code: "judge_is_contestant",
    });
    expect(launchRefusal(ownJudge, filled({ judgeModel: "demo:concise" }))).toEqual({
      fields: { judgeModel: "The judge demo:concise is one of the contestants." },
      general: null,
    });
    expect(launchRefusal(refusal("The day's spend cap is reached."), filled())).toEqual({
      fields: {},
      general: "The day's spend cap is reached.",
    });
    expect(launchRefusal(new Error("offline"), filled())).toEqual({ fields: {}, general: "offline" });
  });
});

describe("a goal battle's card and page", () => {
  it("shows the turn being played, and an elapsed time that ticks on from the server's figure only while it runs", () => {
    // The server counts the turns finished: a running battle is playing the next one.
    expect(turnText(battle())).toBe("4/25");
    expect(turnText(battle({ state: "done", currentTurn: 3 }))).toBe("3/25");
    expect(turnText(battle({ currentTurn: 25 }))).toBe("25/25");
    expect(formatElapsed(65_000)).toBe("1:05");
    expect(formatElapsed(3_729_000)).toBe("1:02:09");
    expect(elapsedAt(battle(), 1_000, 4_500)).toBe(68_500);
    expect(elapsedAt(battle({ state: "stopped" }), 1_000, 4_500)).toBe(65_000);
  });

  it("keeps the sides blind until the battle is over and the server names them", () => {
    const running = battle();
    expect(canReveal(running)).toBe(false);
    expect(sideName(running, "A", true)).toBe("Side A");
    const done = battle({
      state: "done",
      endedReason: "goal",
      winner: "B",
      sides: {
        A: side({ contestant: "demo:concise", displayName: "Concise" }),
        B: side({ contestant: "preset:terse@1", displayName: "Terse" }),
      },
    });
    expect(canReveal(done)).toBe(true);
    expect(winnerText(done, false)).toBe("Side B won");
    expect(winnerText(done, true)).toBe("Terse (B) won");
    expect(endedText(done.endedReason)).toBe("Ended because the goal was reached.");
    expect(winnerText(battle({ state: "done", judgeMode: "human" }), false)).toBe("Waiting for your vote");
    expect(winnerText(battle({ state: "error", endedReason: "error", winner: "none" }), false)).toBe("No contest");
    // A person decides only a battle that ended on the goal or the limit.
    expect(awaitsVote(battle({ state: "done", judgeMode: "human" }))).toBe(true);
    expect(awaitsVote(battle({ state: "stopped", judgeMode: "human" }))).toBe(false);
    expect(awaitsVote(battle({ state: "done", judgeMode: "goal" }))).toBe(false);
  });

  it("groups each side's messages by turn, a message fetched and also announced counted once", () => {
    const messages = {};
    mergeMessages(messages, [
      message({ turn: 2, role: "user", content: "And for two?" }),
      message({ turn: 1, role: "user", content: "Hi" }),
      message({ turn: 1, content: "Hello" }),
      message({ turn: 1, side: "B", role: "user", content: "Hi" }),
    ]);
    mergeMessages(messages, [
      message({ turn: 1, content: "Hello", goalCheck: { reached: false, reason: null, by: "marker" } }),
    ]);
    const a = sideTurns(messages, "A");
    expect(a.map((t) => [t.turn, t.user?.content, t.reply?.content ?? null])).toEqual([
      [1, "Hi", "Hello"],
      [2, "And for two?", null],
    ]);
    expect(goalCheckText(a[0]!.reply!)).toBe("Goal not reached (by its marker)");
    expect(sideTurns(messages, "B")).toHaveLength(1);
    expect(goalCheckText(message({ goalCheck: { reached: true, reason: "The table is booked.", by: "judge" } }))).toBe(
      "Goal reached (by the judge): The table is booked.",
    );
  });
});
