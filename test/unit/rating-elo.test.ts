import { describe, expect, it } from "vitest";
import { scoreOfA, WINNERS } from "../../worker/rating/battle-outcome";
import { computeElo, ELO_DEFAULTS, updateElo } from "../../worker/rating/elo";

describe("online Elo", () => {
  it("scores model A 1 for a win, 0 for a loss and 0.5 for either kind of tie", () => {
    expect(WINNERS.map(scoreOfA)).toEqual([1, 0, 0.5, 0.5]);
  });

  it("uses Chatbot Arena's defaults", () => {
    expect(ELO_DEFAULTS).toEqual({ k: 4, base: 10, scale: 400, init: 1000 });
  });

  it("moves 1000/1000 to 1002/998 when A wins, then to 1001.97698/998.02302 on a tie, then to 999.95422/1000.04578 when B wins", () => {
    const ratings = new Map<string, number>();

    // Both start at 1000: ea = 1/(1+10^0) = 0.5, so A gains 4·(1−0.5) = 2 and B loses 2.
    updateElo(ratings, "A", "B", "model_a");
    expect(ratings.get("A")).toBe(1002);
    expect(ratings.get("B")).toBe(998);

    // ea = 1/(1+10^((998−1002)/400)) = 1/(1+10^−0.01) = 1/1.9772372 = 0.5057562;
    // A: 1002 + 4·(0.5 − 0.5057562) = 1002 − 0.0230248 = 1001.9769752; B gains the same 0.0230248.
    updateElo(ratings, "A", "B", "tie");
    expect(ratings.get("A")).toBeCloseTo(1001.9769752, 6);
    expect(ratings.get("B")).toBeCloseTo(998.0230248, 6);

    // gap 3.9539504: ea = 1/(1+10^(−3.9539504/400)) = 1/(1+0.9774963) = 0.5056899;
    // A: 1001.9769752 − 4·0.5056899 = 999.9542154; B: 998.0230248 + 4·(1 − 0.4943101) = 1000.0457846.
    updateElo(ratings, "A", "B", "model_b");
    expect(ratings.get("A")).toBeCloseTo(999.9542154, 6);
    expect(ratings.get("B")).toBeCloseTo(1000.0457846, 6);
  });

  it("treats a tie (bothbad) exactly like a tie", () => {
    const tie = computeElo([
      { modelA: "A", modelB: "B", winner: "model_a" },
      { modelA: "A", modelB: "B", winner: "tie" },
    ]);
    const bothBad = computeElo([
      { modelA: "A", modelB: "B", winner: "model_a" },
      { modelA: "A", modelB: "B", winner: "tie (bothbad)" },
    ]);
    expect([...bothBad]).toEqual([...tie]);
  });

  it("starts a model it has not seen at init and honours other options", () => {
    const ratings = new Map([["A", 1500]]);
    // ea = 1/(1+10^((1200−1500)/400)) = 1/(1+10^−0.75) = 1/1.1778279 = 0.8490204; with K = 32, A loses 32·0.8490204 = 27.1686.
    updateElo(ratings, "A", "B", "model_b", { k: 32, init: 1200 });
    expect(ratings.get("A")).toBeCloseTo(1500 - 27.168654, 5);
    expect(ratings.get("B")).toBeCloseTo(1200 + 27.168654, 5);
  });

  it("depends on the order of battles, which it takes as given", () => {
    const win = { modelA: "A", modelB: "B", winner: "model_a" } as const;
    const loss = { modelA: "A", modelB: "B", winner: "model_b" } as const;
    // A win then a loss: 1002 then 1002 − 4·ea(1002 vs 998) = 1002 − 4·0.5057562 = 999.9769752;
    // a loss then a win: 998 then 998 + 4·(1 − 0.4942438) = 1000.0230248.
    expect(computeElo([win, loss]).get("A")).toBeCloseTo(999.9769752, 6);
    expect(computeElo([loss, win]).get("A")).toBeCloseTo(1000.0230248, 6);
  });

  it("keeps the sum of ratings constant, since every update moves points from one model to the other", () => {
    const models = ["A", "B", "C", "D"];
    const battles = Array.from({ length: 200 }, (_, k) => ({
      modelA: models[k % 4],
      modelB: models[(k * 7 + 1) % 4 === k % 4 ? (k + 1) % 4 : (k * 7 + 1) % 4],
      winner: WINNERS[(k * 5) % 4],
    }));
    const ratings = computeElo(battles);
    expect([...ratings.values()].reduce((sum, r) => sum + r, 0)).toBeCloseTo(1000 * ratings.size, 9);
  });

  it("leaves a model that battles itself where it was, as FastChat does", () => {
    const ratings = computeElo([{ modelA: "A", modelB: "A", winner: "model_a" }]);
    expect(ratings.get("A")).toBe(1000);
  });
});
