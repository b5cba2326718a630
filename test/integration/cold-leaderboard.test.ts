/**
 * The first read of a freshly imported large view: it answers at once with the view's counts and "computing",
 * while rooms fit its pairs and replay its online ratings; the next read after them has the exact standings.
 * Here a read may replay 100 battles itself (QUORUM_INLINE_REPLAY_BATTLES), so a few hundred battles stand for
 * the Arena's million.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { computeStandings, type Standings } from "../../worker/arena/standings";
import { openDb } from "../../worker/db/queries";
import { fitBradleyTerry, type PairCell } from "../../worker/rating/bradley-terry";
import { updateElo } from "../../worker/rating/elo";
import { pairTableOf } from "../../worker/rating/pair-table";
import { sandwichIntervals } from "../../worker/rating/sandwich";
import { type TrueSkillRating, updateTrueSkill } from "../../worker/rating/trueskill";
import { leaderboardQuery } from "../../worker/shared/requests";
import { denseIndex } from "../../worker/shared/memo";
import { mulberry32 } from "../helpers/arena-reference";
import { type RingBattle, ringBattles } from "../helpers/ring-battles";
import { api } from "../helpers/runs";

const MODELS = 30;
const coldEnv = { ...env, QUORUM_INLINE_REPLAY_BATTLES: "100" };
const readView = async (category: string) =>
  (await computeStandings(coldEnv, openDb(env.DB), leaderboardQuery.parse({ source: "import", category }))).standings;
const read = () => readView("cold");

async function importLines(lines: RingBattle[], importId: string): Promise<void> {
  const res = await api(`/battles/import?importId=${importId}`, {
    method: "POST",
    body: lines.map((l) => JSON.stringify(l)).join("\n"),
    headers: { "content-type": "application/x-ndjson" },
  });
  expect(res.status).toBe(200);
}

/** What the view must show once computed, worked out here from the battles themselves. */
function exactly(lines: RingBattle[]) {
  const index = new Map<string, number>();
  const cells = new Map<string, PairCell>();
  const counts = new Map<string, { wins: number; battles: number; ties: number }>();
  const elo = new Map<string, number>();
  const trueskill = new Map<string, TrueSkillRating>();
  for (const l of lines) {
    const [a, b] = [denseIndex(index, l.model_a), denseIndex(index, l.model_b)];
    const [i, j] = a < b ? [a, b] : [b, a];
    const cell = cells.get(`${i},${j}`) ?? { i, j, winsI: 0, winsJ: 0, ties: 0 };
    cells.set(`${i},${j}`, cell);
    if (l.winner === "tie") cell.ties++;
    else if ((l.winner === "model_a") === (a === i)) cell.winsI++;
    else cell.winsJ++;
    for (const [model, won] of [
      [l.model_a, l.winner !== "model_b"],
      [l.model_b, l.winner !== "model_a"],
    ] as const) {
      const t = counts.get(model) ?? { wins: 0, battles: 0, ties: 0 };
      counts.set(model, {
        wins: t.wins + (won ? 1 : 0),
        battles: t.battles + 1,
        ties: t.ties + (l.winner === "tie" ? 1 : 0),
      });
    }
    updateElo(elo, l.model_a, l.model_b, l.winner);
    updateTrueSkill(trueskill, l.model_a, l.model_b, l.winner);
  }
  const fit = fitBradleyTerry(index.size, [...cells.values()]);
  const intervals = sandwichIntervals(index.size, pairTableOf(index.size, [...cells.values()]), fit.ratings);
  return { index, counts, elo, trueskill, fit, intervals };
}

/** Reads the view until its fit is exact and its online ratings replayed, a bounded number of times. */
async function whenComputed(category = "cold", tries = 400): Promise<Standings> {
  for (let k = 0; k < tries; k++) {
    const board = await readView(category);
    if (board.fit.status === "ready" && board.fit.mode === "exact" && board.online.status === "ready") return board;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`the view was not computed after ${tries} reads`);
}

/** `lines` in the order online ratings take them: by time, then as imported. */
const inTimeOrder = (lines: RingBattle[]) =>
  lines
    .map((l, k) => ({ l, k }))
    .sort((x, y) => x.l.tstamp - y.l.tstamp || x.k - y.k)
    .map((x) => x.l);

function expectExact(board: Standings, lines: RingBattle[]) {
  const want = exactly(lines);
  expect(board.totalBattles).toBe(lines.length);
  expect(board.rows).toHaveLength(MODELS);
  for (const row of board.rows) {
    const at = want.index.get(row.modelId)!;
    expect({ wins: row.wins, battles: row.battles }).toEqual({
      wins: want.counts.get(row.modelId)!.wins,
      battles: want.counts.get(row.modelId)!.battles,
    });
    expect(row.tieRate).toBeCloseTo((want.counts.get(row.modelId)!.ties / row.battles) * 100, 9);
    expect(row.bt).toBeCloseTo(want.fit.ratings[at], 6);
    expect(row.ciLower).toBeCloseTo(want.intervals.lower[at], 6);
    expect(row.ciUpper).toBeCloseTo(want.intervals.upper[at], 6);
    expect(row.elo).toBeCloseTo(want.elo.get(row.modelId)!, 9);
    expect(row.mu).toBeCloseTo(want.trueskill.get(row.modelId)!.mu, 9);
    expect(row.sigma).toBeCloseTo(want.trueskill.get(row.modelId)!.sigma, 9);
  }
}

describe("the first read of a freshly imported large view", () => {
  it("answers computing at once with the view's counts, then the exact standings once the rooms are done", async () => {
    const lines = ringBattles({
      models: MODELS,
      extra: 600,
      category: "cold",
      random: mulberry32(26),
      winProbability: (a, b) => 1 / (1 + Math.exp((b - a) / 10)),
      tieRate: 0.1,
    });
    await importLines(lines, "cold");

    const first = await read();
    expect(first.fit).toEqual({ status: "computing", models: MODELS, rounds: 0, stale: false, notice: null });
    expect(first.online).toEqual({ status: "computing", battles: lines.length, stale: false });
    // The counts are whole already; the ratings come from the rooms.
    const want = exactly(lines);
    expect(first.totalBattles).toBe(lines.length);
    expect(first.rows).toHaveLength(MODELS);
    for (const row of first.rows) {
      expect(row.wins).toBe(want.counts.get(row.modelId)!.wins);
      expect(row.battles).toBe(want.counts.get(row.modelId)!.battles);
      expect([row.bt, row.ciLower, row.elo, row.mu]).toEqual([null, null, null, null]);
    }

    expectExact(await whenComputed(), lines);

    // More new battles than a read may replay: the last replay's ratings show, marked stale, until the room is done.
    const more = ringBattles({
      models: MODELS,
      extra: 200,
      category: "cold",
      random: mulberry32(27),
      winProbability: () => 0.5,
    }).map((l, k) => ({ ...l, tstamp: 1_800_000_000 + k }));
    const computed = await read();
    await importLines(more, "cold-more");
    const next = await read();
    expect(next.online).toEqual({ status: "computing", battles: more.length, stale: true });
    for (const row of next.rows) expect(row.elo).toBe(computed.rows.find((r) => r.modelId === row.modelId)!.elo);
    expectExact(await whenComputed(), [...lines, ...more]);
  });

  it("hands a whole replay to the room when a few battles older than its snapshot would reorder a large view", async () => {
    const lines = ringBattles({
      models: MODELS,
      extra: 90,
      category: "order",
      random: mulberry32(30),
      winProbability: (a, b) => 1 / (1 + Math.exp((b - a) / 10)),
    });
    await importLines(lines, "order");
    const computed = await whenComputed("order");
    expectExact(computed, lines);

    // Few battles, but older than every replayed one: the whole view must be replayed in time order.
    const older = lines.slice(0, 10).map((l, k) => ({ ...l, tstamp: 1_600_000_000 + k }));
    await importLines(older, "order-older");
    const next = await readView("order");
    expect(next.online).toEqual({ status: "computing", battles: lines.length + older.length, stale: true });
    const all = inTimeOrder([...lines, ...older]);
    expectExact(await whenComputed("order"), all);
  });

  it("replays a view's few new battles on the read itself, and says its online ratings are ready", async () => {
    const lines = ringBattles({
      models: MODELS,
      extra: 20,
      category: "warm",
      random: mulberry32(28),
      winProbability: () => 0.5,
    });
    await importLines(lines, "warm");
    const q = leaderboardQuery.parse({ source: "import", category: "warm" });
    const first = (await computeStandings(coldEnv, openDb(env.DB), q)).standings;
    expect(first.online).toEqual({ status: "ready" });
    expect(first.fit.status).toBe("computing");
    expect(first.rows.every((r) => r.elo !== null)).toBe(true);
  });
});

describe("the per-model counters", () => {
  /** Per source, category, flag and model: model_counts' row against the sums of its pairs in pair_counts. */
  const mismatches = async () =>
    (await env.DB.prepare(
      `WITH sums AS (
          SELECT source, category, flagged, model, sum(wins) AS wins, sum(battles) AS battles, sum(ties) AS ties FROM (
            SELECT source, category, flagged, model_lo AS model, lo_wins + ties AS wins, lo_wins + hi_wins + ties + both_bad AS battles, ties FROM pair_counts
            UNION ALL
            SELECT source, category, flagged, model_hi, hi_wins + ties, lo_wins + hi_wins + ties + both_bad, ties FROM pair_counts
          ) GROUP BY source, category, flagged, model
        )
        SELECT count(*) AS n FROM sums s LEFT JOIN model_counts m
          ON m.source = s.source AND m.category = s.category AND m.flagged = s.flagged AND m.model_id = s.model
        WHERE m.wins IS NOT s.wins OR m.battles IS NOT s.battles OR m.ties IS NOT s.ties`,
    ).first<{ n: number }>())!.n;

  it("hold each model's sums of its pairs, through imports and deletions", async () => {
    const lines = ringBattles({
      models: 5,
      extra: 40,
      category: "sums",
      random: mulberry32(29),
      winProbability: () => 0.5,
      tieRate: 0.3,
    });
    await importLines(lines, "sums");
    await env.DB.prepare(
      "INSERT INTO battles (id, source, model_a, model_b, winner, category, tstamp, flagged) VALUES ('sums-flagged', 'import', 'sums-0', 'sums-1', 'tie (bothbad)', 'sums', 1, 1)",
    ).run();
    expect(await mismatches()).toBe(0);
    await env.DB.prepare(
      "DELETE FROM battles WHERE rowid IN (SELECT rowid FROM battles WHERE category = 'sums' LIMIT 7)",
    ).run();
    expect(await mismatches()).toBe(0);
    const [row] = (
      await env.DB.prepare(
        "SELECT sum(battles) AS sides FROM model_counts WHERE source = 'import' AND category = 'sums' AND flagged = 0",
      ).all<{ sides: number }>()
    ).results;
    expect(row.sides).toBe(2 * (lines.length - 7));
  });
});
