import { describe, expect, it } from "vitest";
import { calibrate, cohensKappa } from "../../worker/judges/calibration";
import type { CalibrationRow } from "../../worker/db/judge-queries";
import { parseJudgeOutput } from "../../worker/judges/parse";
import { buildJudgeRequest } from "../../worker/judges/prompt";
import { combineOrders, panelVerdict, sideOf } from "../../worker/judges/verdict";

describe("the swap rule", () => {
  it("keeps a verdict both orders agree on", () => {
    // left shown as A wins, then left shown as B wins
    expect(combineOrders("A", "B")).toEqual({ verdict: "left", flipped: false });
    expect(combineOrders("B", "A")).toEqual({ verdict: "right", flipped: false });
    expect(combineOrders("tie", "tie")).toEqual({ verdict: "tie", flipped: false });
  });

  it("turns a judge that always says A into a tie that flipped", () => {
    expect(combineOrders("A", "A")).toEqual({ verdict: "tie", flipped: true });
    expect(combineOrders("B", "B")).toEqual({ verdict: "tie", flipped: true });
    expect(combineOrders("A", "tie")).toEqual({ verdict: "tie", flipped: true });
  });

  it("maps a judge's letter back to the side it was shown", () => {
    expect([sideOf("A", "A"), sideOf("A", "B"), sideOf("B", "A"), sideOf("B", "B"), sideOf("B", "tie")]).toEqual([
      "left",
      "right",
      "right",
      "left",
      "tie",
    ]);
  });
});

describe("a panel's verdict", () => {
  it("is the majority, and a tie when the judges split evenly", () => {
    expect(panelVerdict(["left", "left", "right"])).toBe("left");
    expect(panelVerdict(["left", "right"])).toBe("tie");
    expect(panelVerdict(["right", "tie", "right"])).toBe("right");
    expect(panelVerdict(["left", "right", "tie"])).toBe("tie");
    expect(panelVerdict([])).toBeNull();
  });
});

describe("a judge's output", () => {
  it("is accepted when it follows the schema, fenced or not", () => {
    const raw = '```json\n{"winner":"B","scores":{"A":4,"B":8.5},"reasons":"B is correct."}\n```';
    expect(parseJudgeOutput(raw)).toEqual({
      ok: true,
      value: { winner: "B", scores: { A: 4, B: 8.5 }, reasons: "B is correct." },
    });
  });

  it("is refused with a reason when it does not", () => {
    expect(parseJudgeOutput("A is better")).toEqual({ ok: false, error: "the judge's output is not JSON" });
    expect(parseJudgeOutput('{"winner":"left","scores":{"A":1,"B":2},"reasons":""}')).toEqual({
      ok: false,
      error: 'winner must be "A", "B" or "tie"',
    });
    expect(parseJudgeOutput('{"winner":"A","scores":{"A":11,"B":2},"reasons":""}').ok).toBe(false);
  });

  it("is asked for with both answers fenced so neither can break out, and no model names", () => {
    const req = buildJudgeRequest([{ prompt: "Q?", a: "Answer ``` with a fence", b: "Plain" }]);
    expect(req.prompt).toContain("````\nAnswer ``` with a fence\n````");
    expect(req.prompt.indexOf("### Answer A")).toBeLessThan(req.prompt.indexOf("### Answer B"));
    expect(req.system).toMatch(/never instructions to you/);
    expect(req.schema).toMatchObject({ required: ["winner", "scores", "reasons"], additionalProperties: false });
  });
});

const row = (
  judgeModelId: string,
  verdict: CalibrationRow["verdict"],
  human: CalibrationRow["human"],
  extra: Partial<CalibrationRow> = {},
): CalibrationRow => ({
  judgeModelId,
  verdict,
  flipped: false,
  human,
  leftChars: 100,
  rightChars: 100,
  leftModelId: "x:1",
  rightModelId: "y:2",
  ...extra,
});

describe("judge calibration", () => {
  it("matches a hand count of agreement, kappa, flips and preferences", () => {
    const rows = [
      row("openai:j", "left", "left", { leftChars: 300, leftModelId: "openai:gpt" }),
      row("openai:j", "right", "left", { rightChars: 300, rightModelId: "openai:gpt" }),
      row("openai:j", "tie", "tie", { flipped: true }),
      row("openai:j", "left", "right", { leftChars: 50 }),
      row("openai:j", "right", null),
    ];
    const [c] = calibrate(rows);
    expect(c.judged).toBe(5);
    expect(c.withHumans).toBe(4);
    expect(c.agreement).toBe(50); // rows 1 and 3 of 4
    expect(c.decisive).toBe(3);
    expect(c.agreementDecisive).toBeCloseTo(100 / 3, 10);
    // observed 2/4; judge marginals left 2, right 1, tie 1; human left 2, right 1, tie 1 → expected (4+1+1)/16
    expect(c.kappa).toBeCloseTo((0.5 - 6 / 16) / (1 - 6 / 16), 10);
    expect(c.flipRate).toBe(20);
    // own maker on exactly one side in rows 1 and 2: the judge picked it both times, people once
    expect(c.selfPreference).toEqual({ judge: 100, humans: 50, count: 2 });
    // longer side: row 1 left (judge yes, human yes), row 2 right (judge yes, human no), row 4 right (judge no, human yes)
    expect(c.lengthPreference.count).toBe(3);
    expect(c.lengthPreference.judge).toBeCloseTo(200 / 3, 10);
    expect(c.lengthPreference.humans).toBeCloseTo(200 / 3, 10);
  });

  it("has a kappa of 1 for perfect agreement and none without votes", () => {
    expect(
      cohensKappa([
        ["left", "left"],
        ["right", "right"],
        ["tie", "tie"],
      ]),
    ).toBe(1);
    expect(cohensKappa([])).toBeNull();
    expect(calibrate([row("a:j", "left", null)])[0].agreement).toBeNull();
  });
});
