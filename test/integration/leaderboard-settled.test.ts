/**
 * The leaderboard's new-model marks and its settled notice (issue 26, item 6), on battles imported through the
 * battle-log API: rows under QUORUM_NEW_MODEL_BATTLES battles say `newModel`, and the ranking in focus
 * (QUORUM_ARENA_FOCUS) is said to be settled once no 95% interval overlaps another where it matters.
 */
import { describe, expect, it } from "vitest";
import { api } from "../helpers/runs";
import { leaderboard, type Standings } from "../helpers/arena";
import { simulateBattles, type Battle } from "../helpers/arena-reference";
import { withSettings } from "../helpers/spend";

const CATEGORY = "settled-notice";
const query = `/leaderboard?source=import&category=${CATEGORY}`;

async function importBattles(battles: Battle[], importId: string) {
  const body = battles.map((b) => JSON.stringify({ ...b, category: CATEGORY })).join("\n");
  const res = await api(`/battles/import?importId=${importId}`, {
    method: "POST",
    body,
    headers: { "content-type": "application/x-ndjson" },
  });
  expect(res.status).toBe(200);
  expect((await res.json()) as { inserted: number }).toMatchObject({ inserted: battles.length });
}

async function boardWith(settings: Record<string, string>): Promise<Standings> {
  const res = await withSettings(query, settings);
  expect(res.status).toBe(200);
  return (await res.json()) as Standings;
}

const byId = (s: Standings) => Object.fromEntries(s.rows.map((r) => [r.modelId, r]));

describe("new models and the settled notice", () => {
  it("says the whole order is settled once three models far apart have been compared enough", async () => {
    await importBattles(simulateBattles({ ant: 1400, bee: 1000, cat: 600 }, 1_200, 61), "settled-apart");
    const board = await leaderboard({ source: "import", category: CATEGORY });
    const rows = byId(board);
    expect(Object.values(rows).map((r) => [r.modelId, r.rankUpper, r.rankLower])).toEqual([
      ["ant", 1, 1],
      ["bee", 2, 2],
      ["cat", 3, 3],
    ]);
    expect(Object.values(rows).every((r) => !r.newModel && r.battles >= 50)).toBe(true);
    expect(board.settled).toEqual({ focus: "all", models: ["ant", "bee", "cat"], confidence: 0.95 });
  });

  it("marks a model with fewer than 50 battles as new, and the whole order is open again while its interval overlaps", async () => {
    // Six wins each way against bee: rated about as bee, with an interval far wider than bee's.
    const newcomer: Battle[] = Array.from({ length: 12 }, (_, k) => ({
      model_a: "newbie",
      model_b: "bee",
      winner: k % 2 ? "model_a" : "model_b",
      tstamp: 1_800_000_000 + k,
    }));
    await importBattles(newcomer, "settled-newcomer");
    const board = await leaderboard({ source: "import", category: CATEGORY });
    const rows = byId(board);
    expect(rows.newbie.battles).toBe(12);
    expect(rows.newbie.newModel).toBe(true);
    expect(rows.newbie.provisional).toBe(false);
    expect(rows.bee.newModel).toBe(false);
    expect(rows.newbie.ciLower!).toBeLessThan(rows.bee.ciUpper!);
    expect(rows.newbie.ciUpper!).toBeGreaterThan(rows.bee.ciLower!);
    expect(board.settled).toBeNull();
  });

  it("with QUORUM_ARENA_FOCUS=top1, says the top is settled while lower places are not", async () => {
    const board = await boardWith({ QUORUM_ARENA_FOCUS: "top1" });
    expect(board.settled).toEqual({ focus: "top1", models: ["ant"], confidence: 0.95 });
    expect(byId(board).ant.rankLower).toBe(1);
    const two = await boardWith({ QUORUM_ARENA_FOCUS: "top2" });
    expect(two.settled).toBeNull();
  });

  it("reads the battles a model needs from QUORUM_NEW_MODEL_BATTLES", async () => {
    const rows = byId(await boardWith({ QUORUM_NEW_MODEL_BATTLES: "12" }));
    expect(rows.newbie.newModel).toBe(false);
    expect(byId(await boardWith({ QUORUM_NEW_MODEL_BATTLES: "13" })).newbie.newModel).toBe(true);
  });
});
