import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { fitRoomName } from "../../worker/arena/fit-plan";
import { fitBradleyTerry, type PairCell } from "../../worker/rating/bradley-terry";
import { pairTableOf } from "../../worker/rating/pair-table";
import { sandwichIntervals } from "../../worker/rating/sandwich";
import type { FitRoom } from "../../worker/rooms/fit-room";
import { type LeaderboardQuery, leaderboard, type Standings } from "../helpers/arena";
import { mulberry32 } from "../helpers/arena-reference";
import { type RingBattle, ringBattles } from "../helpers/ring-battles";
import { denseIndex } from "../../worker/shared/memo";
import { api } from "../helpers/runs";

type Line = RingBattle;

/** A ring plus random pairs among `models` names of one category, a tenth of them ties, strengths spread by index. */
function battlesAmong(models: number, extra: number, category: string, seed: number): Line[] {
  const winProbability = (a: number, b: number) => 1 / (1 + Math.exp((b - a) / models));
  return ringBattles({ models, extra, category, random: mulberry32(seed), winProbability, tieRate: 0.1 });
}

async function importLines(lines: Line[], importId: string): Promise<void> {
  for (let from = 0, part = 0; from < lines.length; from += 10_000, part++) {
    const body = lines
      .slice(from, from + 10_000)
      .map((l) => JSON.stringify(l))
      .join("\n");
    const res = await api(`/battles/import?importId=${importId}-${part}`, {
      method: "POST",
      body,
      headers: { "content-type": "application/x-ndjson" },
    });
    if (res.status !== 200) throw new Error(`import answered ${res.status}: ${await res.text()}`);
  }
}

/** Pair cells of the lines, models indexed in order of first appearance. */
function cellsOfLines(lines: Line[]): { index: Map<string, number>; cells: PairCell[] } {
  const index = new Map<string, number>();
  const at = (m: string) => denseIndex(index, m);
  const cells = new Map<string, PairCell>();
  for (const l of lines) {
    const [a, b] = [at(l.model_a), at(l.model_b)];
    const [i, j] = a < b ? [a, b] : [b, a];
    const cell = cells.get(`${i},${j}`) ?? { i, j, winsI: 0, winsJ: 0, ties: 0 };
    cells.set(`${i},${j}`, cell);
    if (l.winner === "tie") cell.ties++;
    else if ((l.winner === "model_a") === (a === i)) cell.winsI++;
    else cell.winsJ++;
  }
  return { index, cells: [...cells.values()] };
}

/** Reads the view until its fit is exact, a bounded number of times. */
async function whenExact(query: LeaderboardQuery, tries = 400): Promise<Standings> {
  for (let k = 0; k < tries; k++) {
    const board = await leaderboard(query);
    if (board.fit.status === "ready" && board.fit.mode === "exact") return board;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`the fit of ${JSON.stringify(query)} was not exact after ${tries} reads`);
}

/** Reads the view until its fit is ready, a bounded number of times. */
async function whenReady(query: LeaderboardQuery, tries = 400): Promise<Standings> {
  for (let k = 0; k < tries; k++) {
    const board = await leaderboard(query);
    if (board.fit.status === "ready") return board;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`the fit of ${JSON.stringify(query)} was not ready after ${tries} reads`);
}

function fitRoom(category: string, rounds: number) {
  const name = fitRoomName({
    slice: { sources: ["import"], category, includeFlagged: false },
    ci: "bootstrap",
    rounds,
    reweight: false,
    anchorModel: null,
  });
  return env.FIT_ROOM.get(env.FIT_ROOM.idFromName(name));
}

describe("a leaderboard over many models", () => {
  it("says computing over 1,000 models, then answers with the ratings of the exact fit", async () => {
    const lines = battlesAmong(1000, 6000, "big", 1);
    await importLines(lines, "big");
    const query: LeaderboardQuery = { source: "import", category: "big", ci: "bootstrap", rounds: "10" };
    const first = await leaderboard(query);
    expect(first.fit).toEqual({ status: "computing", models: 1000, rounds: 10, stale: false, notice: null });
    expect(first.rows).toHaveLength(1000);
    expect(first.rows.every((r) => r.bt === null && r.wins >= 0)).toBe(true);

    const ready = await whenReady(query);
    expect(ready.fit).toEqual({ status: "ready", mode: "exact", models: 1000, rounds: 10, notice: null });
    const { index, cells } = cellsOfLines(lines);
    const direct = fitBradleyTerry(1000, cells);
    for (const row of ready.rows) {
      expect(row.bt).toBeCloseTo(direct.ratings[index.get(row.modelId)!], 6);
      expect(row.ciLower).toBeLessThanOrEqual(row.ciUpper!);
    }

    // An anchor: one fit for every rating of it, each rating a shift of the same numbers.
    const pinned = await whenReady({ ...query, anchor: "big-3", anchorRating: "1114" });
    const directPinned = fitBradleyTerry(1000, [...cells.values()], {
      anchor: { index: index.get("big-3")!, rating: 1114 },
    });
    for (const row of pinned.rows) expect(row.bt).toBeCloseTo(directPinned.ratings[index.get(row.modelId)!], 6);
    const moved = await leaderboard({ ...query, anchor: "big-3", anchorRating: "1214" });
    expect(moved.fit.status).toBe("ready");
    for (const row of moved.rows) {
      const before = pinned.rows.find((r) => r.modelId === row.modelId)!;
      expect(row.bt! - before.bt!).toBeCloseTo(100, 9);
      expect(row.ciUpper! - before.ciUpper!).toBeCloseTo(100, 9);
    }

    // A new battle: the view refits, showing the last finished fit meanwhile, marked stale.
    await importLines(
      [{ model_a: "big-0", model_b: "big-1", winner: "model_a", tstamp: 1_800_000_000, category: "big" }],
      "big-late",
    );
    const refitting = await leaderboard(query);
    expect(refitting.fit).toEqual({ status: "computing", models: 1000, rounds: 10, stale: true, notice: null });
    expect(refitting.rows.find((r) => r.modelId === "big-7")!.bt).toBe(
      ready.rows.find((r) => r.modelId === "big-7")!.bt,
    );
    expect((await whenReady(query)).totalBattles).toBe(lines.length + 1);
  });

  it("shows a new vote in the very next read, updated from the last fit (incremental), then refits exactly", async () => {
    const lines = battlesAmong(60, 3000, "live", 4);
    await importLines(lines, "live");
    // Sandwich intervals, the default: past 24 models the fit runs in the view's room.
    const query: LeaderboardQuery = { source: "import", category: "live" };
    const before = await whenExact(query);
    expect(before.fit).toEqual({ status: "ready", mode: "exact", models: 60, rounds: 0, notice: null });
    const row = (board: Standings, id: string) => board.rows.find((r) => r.modelId === id)!;

    // The weakest model beats the strongest: its rating must rise in the next read.
    const vote: Line = {
      model_a: "live-0",
      model_b: "live-59",
      winner: "model_a",
      tstamp: 1_800_000_000,
      category: "live",
    };
    await importLines([vote], "live-vote");
    const next = await leaderboard(query);
    expect(next.fit).toEqual({ status: "ready", mode: "incremental", models: 60, rounds: 0, notice: null });
    expect(next.totalBattles).toBe(lines.length + 1);
    // Read without the pair counts, the rest of the answer is whole: every category of this file's imports so far.
    expect(next.categories).toEqual(["big", "live"]);
    expect(row(next, "live-0").battles).toBe(row(before, "live-0").battles + 1);
    expect(row(next, "live-0").wins).toBe(row(before, "live-0").wins + 1);
    expect(row(next, "live-0").bt!).toBeGreaterThan(row(before, "live-0").bt!);

    // The update reaches the exact fit of all the battles; its intervals keep the last exact fit's widths.
    const { index, cells } = cellsOfLines([...lines, vote]);
    const direct = fitBradleyTerry(60, cells);
    for (const r of next.rows) {
      expect(r.bt).toBeCloseTo(direct.ratings[index.get(r.modelId)!], 6);
      const old = row(before, r.modelId);
      expect(r.ciUpper! - r.ciLower!).toBeCloseTo(old.ciUpper! - old.ciLower!, 9);
    }

    // The exact refit follows in the background: the same ratings, and the intervals of the new counts.
    const exact = await whenExact(query);
    const intervals = sandwichIntervals(60, pairTableOf(60, cells), direct.ratings);
    for (const r of exact.rows) {
      const at = index.get(r.modelId)!;
      expect(r.bt).toBeCloseTo(row(next, r.modelId).bt!, 6);
      expect(r.ciLower).toBeCloseTo(intervals.lower[at], 6);
      expect(r.ciUpper).toBeCloseTo(intervals.upper[at], 6);
    }
  });

  it("answers /api/health while a large fit is still in progress", async () => {
    await importLines(battlesAmong(1500, 15_000, "busy", 2), "busy");
    const query: LeaderboardQuery = { source: "import", category: "busy", ci: "bootstrap", rounds: "40" };
    const first = await leaderboard(query);
    // Over 1,000 models the bootstrap runs at most 20 rounds, and says so.
    expect(first.fit).toMatchObject({ status: "computing", models: 1500, rounds: 20 });
    expect(first.fit.status === "computing" && first.fit.notice).toMatch(/20 bootstrap rounds, not 40/);
    // The fit has started: its room has run slices of it.
    const room = fitRoom("busy", 20);
    let started = false;
    for (let k = 0; k < 400 && !started; k++) {
      started = (await runInDurableObject(room, (instance: FitRoom) => instance.slicesDone)) > 0;
      if (!started) await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(started).toBe(true);

    const health = await api("/health");
    expect(health.status).toBe(200);
    // ...and had not finished when health answered.
    expect((await leaderboard(query)).fit.status).toBe("computing");
    expect(await runInDurableObject(room, (instance: FitRoom) => instance.slicesDone)).toBeGreaterThan(0);

    expect((await whenReady(query)).rows.every((r) => r.bt !== null)).toBe(true);
  });

  it("past QUORUM_MAX_FIT_MODELS shows no ratings and says why, at once", async () => {
    await importLines(battlesAmong(5001, 0, "huge", 3), "huge");
    const board = await leaderboard({ source: "import", category: "huge", rounds: "0" });
    expect(board.fit).toMatchObject({ status: "refused", models: 5001, maxModels: 5000 });
    expect(board.fit.status === "refused" && board.fit.notice).toMatch(
      /more than the 5000 one Bradley–Terry fit may take \(QUORUM_MAX_FIT_MODELS\)/,
    );
    expect(board.rows).toHaveLength(5001);
    expect(board.rows.every((r) => r.bt === null && r.battles === 4)).toBe(true);
    // Style control keeps the same ceiling.
    const styled = (await leaderboard({
      source: "import",
      category: "huge",
      rounds: "0",
      style: "true",
    })) as Standings & {
      style: { status: string; notice: string };
    };
    expect(styled.style.status).toBe("refused");
    expect(styled.style.notice).toMatch(/QUORUM_MAX_FIT_MODELS/);
    expect((await api("/health")).status).toBe(200);
  });
});
