import { describe, expect, it } from "vitest";
import { answersOfGoal, cellBattles, judgmentOfGoal, type ReportGoal } from "../../worker/evaluation/goal-games";
import { callsOfItem, goalCallsOfItem } from "../../worker/evaluation/plan";

const plan = (ids: string[], repeats = 1, baseline: string | null = null) => ({
  contestants: ids.map((id) => ({ id, modelId: id })),
  baseline,
  judges: [],
  repeats,
  method: "goal" as const,
});

const totals = (tokens: number, failed = false) => ({
  tokensIn: tokens,
  tokensOut: 1,
  latencyMs: 10,
  turns: 2,
  costUsd: 0.5,
  goalReachedAt: null,
  failed,
});

const goal = (over: Partial<ReportGoal>): ReportGoal => ({
  itemId: "q1",
  sample: 0,
  first: "x",
  second: "y",
  battleId: "b1",
  status: "complete",
  winner: "A",
  endedReason: "goal",
  rationale: "Side A reached the goal first, on turn 2.",
  sides: { A: totals(5), B: totals(7) },
  completedAt: 1,
  ...over,
});

describe("a goal evaluation's plan", () => {
  it("has only battles: each pair on each item and sample, with ids made of what they are", () => {
    const calls = callsOfItem(plan(["x", "y", "z"], 2), "q1", 0);
    expect(calls.answers).toEqual([]);
    expect(calls.judges).toEqual([]);
    expect(calls.goals.map((g) => g.id)).toEqual([
      "goal:q1:0:x:y",
      "goal:q1:1:y:x",
      "goal:q1:0:z:x",
      "goal:q1:1:x:z",
      "goal:q1:0:y:z",
      "goal:q1:1:z:y",
    ]);
  });

  it("makes each contestant of a pair side A in half its battles", () => {
    for (const [items, repeats] of [
      [4, 1],
      [3, 2],
      [5, 2],
    ]) {
      const p = plan(["x", "y", "z"], repeats, "x");
      const battles = Array.from({ length: items }, (_, k) => goalCallsOfItem(p, `q${k}`, k)).flat();
      expect(battles).toHaveLength(2 * items * repeats);
      for (const other of ["y", "z"]) {
        const theirs = battles.filter((b) => b.first === other || b.second === other);
        expect(theirs.filter((b) => b.first === other)).toHaveLength((items * repeats) / 2);
      }
    }
  });
});

describe("a goal battle in the report", () => {
  it("is one game for its winner, a tie as a tie, and no contest as a failed judgment with no verdict", () => {
    expect(judgmentOfGoal(goal({ winner: "A" }), "j")).toMatchObject({
      first: "x",
      second: "y",
      verdict: "A>B",
      judge: "goal rule",
    });
    expect(judgmentOfGoal(goal({ winner: "B" }), "j")).toMatchObject({ first: "y", second: "x", verdict: "A>B" });
    expect(judgmentOfGoal(goal({ winner: "tie", endedReason: "limit" }), "j")).toMatchObject({
      verdict: "A=B",
      judge: "j",
    });
    expect(judgmentOfGoal(goal({ winner: "none", status: "failed" }), null)).toMatchObject({
      status: "failed",
      verdict: null,
    });
  });

  it("counts each side's tokens, latency and cost as its contestant's, and shows each battle in the cells", () => {
    const g = goal({ winner: "B", sides: { A: totals(5, true), B: totals(7) } });
    expect(answersOfGoal(g).map((a) => [a.contestant, a.status, a.tokensIn, a.costUsd])).toEqual([
      ["x", "failed", 5, 0.5],
      ["y", "complete", 7, 0.5],
    ]);
    expect(cellBattles([g], "q1", "y")).toEqual([
      {
        battleId: "b1",
        sample: 0,
        opponent: "x",
        side: "B",
        result: "win",
        endedReason: "goal",
        reason: "Side A reached the goal first, on turn 2.",
      },
    ]);
    expect(cellBattles([g], "q1", "x")[0].result).toBe("loss");
  });
});
