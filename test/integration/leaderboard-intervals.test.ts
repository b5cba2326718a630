/**
 * The leaderboard's interval methods (issue 26): arena-rank's sandwich by default, its inverse pair-frequency
 * reweighting, the seeded bootstrap on request, and rank spreads consistent with whichever intervals it shows.
 * The math itself is tested in test/unit/rating-sandwich.test.ts; here the served numbers must be exactly
 * those of the same battles put through it, with the options the query names.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { api } from "../helpers/runs";
import { errorOf, leaderboard, type LeaderboardQuery, type Standings } from "../helpers/arena";
import { simulateBattles, type Battle } from "../helpers/arena-reference";
import { bootstrapBradleyTerry } from "../../worker/rating/bootstrap";
import { fitBradleyTerry, fitPairTable, type PairCell } from "../../worker/rating/bradley-terry";
import { pairTableOf } from "../../worker/rating/pair-table";
import { battlesToSeparate, pairWeights, sandwichIntervals, weightedTable } from "../../worker/rating/sandwich";
import { BOOTSTRAP_SEED } from "../../worker/arena/leaderboard";
import { computeStandings } from "../../worker/arena/standings";
import { openDb } from "../../worker/db/queries";
import { leaderboardQuery } from "../../worker/shared/requests";

type Board = Standings;

const CATEGORY = "interval-methods";
const STRENGTHS = { ant: 1200, bee: 1140, cat: 1100, dog: 1060, elk: 1000, fox: 950 };
// Over-sample one pair, so reweighting has something to undo.
const BATTLES: Battle[] = [
  ...simulateBattles(STRENGTHS, 3_000, 41),
  ...simulateBattles({ ant: 1200, bee: 1140 }, 2_000, 42, 1_800_000_000),
].map((b) => ({ ...b, category: CATEGORY }) as Battle);
const MODELS = Object.keys(STRENGTHS);

function board(query: LeaderboardQuery = {}): Promise<Board> {
  return leaderboard({ source: "import", category: CATEGORY, ...query });
}

/** Battles as pair cells in the order of `names`, both tie kinds together, pairs in the server's (lo, hi) order. */
function cellsOf(battles: readonly Battle[], names: readonly string[]): PairCell[] {
  const at = new Map<string, PairCell>();
  for (const b of battles) {
    const [x, y] = [names.indexOf(b.model_a), names.indexOf(b.model_b)];
    const [i, j] = x < y ? [x, y] : [y, x];
    const cell = at.get(`${i},${j}`) ?? { i, j, winsI: 0, winsJ: 0, ties: 0 };
    at.set(`${i},${j}`, cell);
    if (b.winner === "tie" || b.winner === "tie (bothbad)") cell.ties++;
    else if ((b.winner === "model_a") === (x === i)) cell.winsI++;
    else cell.winsJ++;
  }
  return [...at.values()].sort((x, y) => x.i - y.i || x.j - y.j);
}

const cells = () => cellsOf(BATTLES, MODELS);

/** Every model's served rating and interval are those given, computed from the same battles. */
function expectBoard(
  served: Board,
  ratings: ArrayLike<number>,
  intervals: { lower: ArrayLike<number>; upper: ArrayLike<number> },
) {
  MODELS.forEach((m, k) => {
    const row = served.rows.find((r) => r.modelId === m);
    expect(row).toBeDefined();
    expect(row!.bt).toBeCloseTo(ratings[k], 6);
    expect(row!.ciLower).toBeCloseTo(intervals.lower[k], 6);
    expect(row!.ciUpper).toBeCloseTo(intervals.upper[k], 6);
  });
}

describe("leaderboard intervals", () => {
  it("imports the battles", async () => {
    const body = BATTLES.map((b) => JSON.stringify(b)).join("\n");
    const res = await api("/battles/import?importId=interval-methods", {
      method: "POST",
      body,
      headers: { "content-type": "application/x-ndjson" },
    });
    expect(res.status).toBe(200);
    expect((await res.json()) as { inserted: number }).toMatchObject({ inserted: BATTLES.length });
  });

  it("serves arena-rank's sandwich by default, and says so", async () => {
    const served = await board();
    expect(served).toMatchObject({ ci: "sandwich", reweight: false });
    const table = pairTableOf(MODELS.length, cells());
    const fit = fitBradleyTerry(MODELS.length, cells());
    const expected = sandwichIntervals(MODELS.length, table, fit.ratings);
    expectBoard(served, fit.ratings, expected);
  });

  it("hands the arena's pairing the covariance of the fit it serves, and the same one again from its cache", async () => {
    const q = leaderboardQuery.parse({ source: "import", category: CATEGORY });
    const first = await computeStandings(env, openDb(env.DB), q);
    const table = pairTableOf(MODELS.length, cells());
    const fit = fitBradleyTerry(MODELS.length, cells());
    const expected = sandwichIntervals(MODELS.length, table, fit.ratings);
    const [ant, cat, fox] = ["ant", "cat", "fox"].map((m) => MODELS.indexOf(m));
    expect(first.differenceVariance!("ant", "cat")).toBeCloseTo(expected.differenceVariance(ant, cat), 6);
    expect(first.differenceVariance!("fox", "ant")).toBeCloseTo(expected.differenceVariance(fox, ant), 6);
    expect(first.differenceVariance!("ant", "nobody")).toBeNaN();
    // Nothing changed: no refit, the very same covariance.
    const again = await computeStandings(env, openDb(env.DB), q);
    expect(again.differenceVariance).toBe(first.differenceVariance);
  });

  it("reweights the fit and the intervals by 1 / max(pair battles, 50) with reweight=true", async () => {
    const served = await board({ reweight: "true" });
    expect(served).toMatchObject({ ci: "sandwich", reweight: true });
    const table = pairTableOf(MODELS.length, cells());
    const weights = pairWeights(table);
    const fit = fitPairTable(MODELS.length, weightedTable(table, weights), {});
    const expected = sandwichIntervals(MODELS.length, table, fit.ratings, { weights });
    expectBoard(served, fit.ratings, expected);
    // The over-sampled pair no longer dominates: the ratings move.
    const plain = await board();
    const ant = (b: Board) => b.rows.find((r) => r.modelId === "ant")!.bt!;
    expect(Math.abs(ant(served) - ant(plain))).toBeGreaterThan(0.01);
  });

  it("keeps the seeded bootstrap on ci=bootstrap, rounds as asked", async () => {
    const served = await board({ ci: "bootstrap", rounds: "40" });
    expect(served).toMatchObject({ ci: "bootstrap", rounds: 40, reweight: false });
    const fit = fitBradleyTerry(MODELS.length, cells());
    const expected = bootstrapBradleyTerry(MODELS.length, cells(), { rounds: 40, seed: BOOTSTRAP_SEED });
    expectBoard(served, fit.ratings, expected);
  });

  it("pins an anchor's interval to its rating and widens the rest to their difference from it", async () => {
    const free = await board();
    const pinned = await board({ anchor: "elk", anchorRating: "1000" });
    const elk = pinned.rows.find((r) => r.modelId === "elk")!;
    expect([elk.bt, elk.ciLower, elk.ciUpper]).toEqual([1000, 1000, 1000]);
    const width = (b: Board, m: string) => {
      const row = b.rows.find((r) => r.modelId === m)!;
      return row.ciUpper! - row.ciLower!;
    };
    expect(width(pinned, "ant")).toBeGreaterThan(width(free, "ant"));
  });

  it("gives each row a rank spread consistent with the intervals shown", async () => {
    const queries: LeaderboardQuery[] = [{}, { reweight: "true" }, { ci: "bootstrap", rounds: "40" }];
    for (const query of queries) {
      const { rows } = await board(query);
      for (const row of rows) {
        const above = rows.filter((o) => o.ciLower! > row.ciUpper!).length;
        const maybe = rows.filter((o) => o !== row && o.ciUpper! > row.ciLower!).length;
        expect(row.rankUpper).toBe(1 + above);
        expect(row.rank).toBe(row.rankUpper);
        expect(row.rankLower).toBe(1 + maybe);
      }
      // The strongest and weakest are told apart from each other.
      const byBt = [...rows].sort((a, b) => b.bt! - a.bt!);
      expect(byBt[0].rankLower!).toBeLessThan(byBt.at(-1)!.rankUpper!);
    }
  });

  it("says, for neighbours whose intervals overlap, how many battles between them would separate them", async () => {
    // Three close models and few battles: their intervals overlap.
    const close = { pim: 1010, pom: 1000, pum: 985 };
    const names = Object.keys(close);
    const battles = simulateBattles(close, 600, 43).map((b) => ({ ...b, category: "interval-close" }));
    const res = await api("/battles/import?importId=interval-close", {
      method: "POST",
      body: battles.map((b) => JSON.stringify(b)).join("\n"),
      headers: { "content-type": "application/x-ndjson" },
    });
    expect(res.status).toBe(200);
    const served = await leaderboard({ source: "import", category: "interval-close" });

    const cells = cellsOf(battles, names);
    const fit = fitBradleyTerry(names.length, cells);
    const sandwich = sandwichIntervals(names.length, pairTableOf(names.length, cells), fit.ratings);
    const order = names.map((_, k) => k).sort((a, b) => fit.ratings[b] - fit.ratings[a]);
    let overlapping = 0;
    order.forEach((above, k) => {
      const row = served.rows.find((r) => r.modelId === names[above])!;
      const below = order[k + 1];
      if (below === undefined || sandwich.lower[above] > sandwich.upper[below]) {
        expect(row.separation).toBeNull();
        return;
      }
      overlapping++;
      const gap = fit.ratings[above] - fit.ratings[below];
      expect(row.separation).toEqual({
        modelId: names[below],
        battles: battlesToSeparate(gap, sandwich.differenceVariance(above, below)),
      });
      expect(row.separation!.battles).toBeGreaterThan(0);
    });
    expect(overlapping).toBeGreaterThan(0);
    // The bootstrap gives no covariance to estimate it from.
    const boot = await leaderboard({ source: "import", category: "interval-close", ci: "bootstrap", rounds: "40" });
    expect(boot.rows.every((r) => r.separation === null)).toBe(true);
  });

  it("refuses an interval method it doesn't know with a 400 that names the choices", async () => {
    const res = await api(`/leaderboard?ci=jackknife`);
    expect(res.status).toBe(400);
    expect((await errorOf(res)).message).toMatch(/sandwich|bootstrap/);
  });
});
