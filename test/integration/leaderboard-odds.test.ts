/**
 * GET /api/leaderboard/odds: who beats whom in a leaderboard view, read off the ratings the view's rows carry —
 * fitted on the request for a small view, by the view's FitRoom for a large one.
 */
import { describe, expect, it } from "vitest";
import { fitRoomName } from "../../worker/arena/fit-plan";
import { ODDS_TOP_MODELS } from "../../worker/shared/constants";
import { mulberry32 } from "../helpers/arena-reference";
import { ringBattles } from "../helpers/ring-battles";
import { errorOf, hasRoom, leaderboard, type LeaderboardQuery, type Standings } from "../helpers/arena";
import { client, ok } from "../helpers/client";
import { api } from "../helpers/runs";
import { env } from "cloudflare:test";

type OddsQuery = LeaderboardQuery & { models?: string };

const odds = (query: OddsQuery) => ok(client.leaderboard.odds.$get({ query }));

/** Battles among `models` models of `category` (a ring both ways, so every rating exists, then random pairs). */
function battles(category: string, models: number, extra: number, seed: number): string {
  const winProbability = (a: number, b: number) => 1 / (1 + Math.exp((b - a) / 3));
  return ringBattles({ models, extra, category, random: mulberry32(seed), winProbability })
    .map((l) => JSON.stringify(l))
    .join("\n");
}

async function importBattles(body: string, importId: string): Promise<void> {
  const res = await api(`/battles/import?importId=${importId}`, {
    method: "POST",
    body,
    headers: { "content-type": "application/x-ndjson" },
  });
  expect(res.status).toBe(200);
}

const chance = (a: number, b: number) => 1 / (1 + 10 ** ((b - a) / 400));
const ratingOf = (board: Standings, id: string) => board.rows.find((r) => r.modelId === id)!.bt!;

describe("who beats whom", () => {
  it("gives P(row beats column) from the view's own ratings, for the models listed in their order", async () => {
    await importBattles(battles("duel", 4, 300, 1), "duel");
    const view: LeaderboardQuery = { source: "import", category: "duel" };
    const board = await leaderboard(view);
    const listed = ["duel-2", "duel-0", "duel-3"];
    const answer = await odds({ ...view, models: listed.join(",") });
    expect(answer.models.map((m) => m.modelId)).toEqual(listed);
    expect(answer.fit.status).toBe("ready");
    expect(answer).toMatchObject({ source: "import", category: "duel", includeFlagged: false, style: null });
    for (const [i, a] of listed.entries()) {
      expect(answer.models[i].bt).toBe(ratingOf(board, a));
      for (const [j, b] of listed.entries()) {
        if (i === j) {
          expect(answer.odds[i][j]).toBeNull();
          continue;
        }
        expect(answer.odds[i][j]).toBeCloseTo(chance(ratingOf(board, a), ratingOf(board, b)), 12);
        expect(answer.odds[i][j]! + answer.odds[j][i]!).toBeCloseTo(1, 12);
      }
    }
    // the stronger model (planted: a higher number wins more often) is favoured
    expect(answer.odds[2][1]).toBeGreaterThan(0.5);
  });

  it("sets the view's top 10 by rating against each other when no models are listed", async () => {
    await importBattles(battles("many", 14, 2000, 2), "many");
    const view: LeaderboardQuery = { source: "import", category: "many", order: "winRate" };
    const board = await leaderboard(view);
    const top = [...board.rows].sort((a, b) => b.bt! - a.bt!).slice(0, ODDS_TOP_MODELS);
    const answer = await odds(view);
    expect(answer.models.map((m) => m.modelId)).toEqual(top.map((r) => r.modelId));
    expect(answer.odds).toHaveLength(ODDS_TOP_MODELS);
    expect(answer.odds[0][ODDS_TOP_MODELS - 1]).toBeCloseTo(chance(top[0].bt!, top[ODDS_TOP_MODELS - 1].bt!), 12);
  });

  it("follows the view: reweighted ratings give reweighted odds", async () => {
    await importBattles(battles("weighed", 5, 600, 3), "weighed");
    const view: LeaderboardQuery = { source: "import", category: "weighed", reweight: "true" };
    const board = await leaderboard(view);
    const answer = await odds({ ...view, models: "weighed-4,weighed-0" });
    expect(answer.reweight).toBe(true);
    expect(answer.odds[0][1]).toBeCloseTo(chance(ratingOf(board, "weighed-4"), ratingOf(board, "weighed-0")), 12);
  });

  it("with style=true, once the style fit is ready, gives the odds of the style-controlled ratings", async () => {
    const random = mulberry32(6);
    const lines = Array.from({ length: 600 }, (_, k) => {
      const [a, b] = [k % 3, (k + 1 + (k % 2)) % 3];
      const [ta, tb] = [100 + Math.floor(random() * 400), 100 + Math.floor(random() * 400)];
      const winner = random() < 1 / (1 + Math.exp((b - a) / 2 - (ta - tb) / (ta + tb))) ? "model_a" : "model_b";
      const side = (tokens: number, s: "a" | "b") => ({
        [`sum_assistant_${s}_tokens`]: tokens,
        [`header_count_${s}`]: { h1: k % 2 },
        [`list_count_${s}`]: { ordered: k % 3 },
        [`bold_count_${s}`]: { "**": k % 4 },
      });
      const conv_metadata = { ...side(ta, "a"), ...side(tb, "b") };
      return {
        model_a: `styled-${a}`,
        model_b: `styled-${b}`,
        winner,
        tstamp: 1_700_000_000 + k,
        category: "styled",
        conv_metadata,
      };
    });
    await importBattles(lines.map((l) => JSON.stringify(l)).join("\n"), "styled");
    const view: LeaderboardQuery = { source: "import", category: "styled", style: "true" };
    let answer = await odds(view);
    for (let tries = 0; answer.style?.status !== "ready" && tries < 400; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 25));
      answer = await odds(view);
    }
    expect(answer.style).toMatchObject({ status: "ready", method: "arena-rank" });
    const styled = await leaderboard(view);
    const plain = await leaderboard({ source: "import", category: "styled" });
    const [top, next] = answer.models;
    expect(top.bt).toBe(ratingOf(styled, top.modelId));
    expect(top.bt).not.toBe(ratingOf(plain, top.modelId));
    expect(answer.odds[0][1]).toBeCloseTo(chance(ratingOf(styled, top.modelId), ratingOf(styled, next.modelId)), 12);
  });

  it("refuses a model that is not in the view with a 404 naming it, and a malformed list with a 400", async () => {
    await importBattles(battles("strict", 3, 50, 4), "strict");
    const view = { source: "import", category: "strict" } as const;
    const unknown = await client.leaderboard.odds.$get({ query: { ...view, models: "strict-0,nobody,strict-1" } });
    expect(unknown.status).toBe(404);
    const error = await errorOf(unknown);
    expect(error.code).toBe("unknown_model");
    expect(error.message).toContain('"nobody" is not in this view');
    // in the view's battles, but below its minimum appearances: not in the view either
    const filtered = await client.leaderboard.odds.$get({
      query: { ...view, minAppearances: "100000", models: "strict-0,strict-1" },
    });
    expect(filtered.status).toBe(404);

    for (const [models, message] of [
      ["strict-0", "lists 2 to 30 model ids; got 1"],
      ["strict-0,,strict-1", "comma-separated list of model ids"],
      ["strict-0,strict-1,strict-0", "lists strict-0 twice"],
      [Array.from({ length: 31 }, (_, k) => `m${k}`).join(","), "got 31"],
    ]) {
      const res = await client.leaderboard.odds.$get({ query: { ...view, models } });
      expect(res.status).toBe(400);
      expect((await errorOf(res)).message).toContain(message);
    }
    const badView = await client.leaderboard.odds.$get({ query: { source: "nowhere" as "import" } });
    expect(badView.status).toBe(400);
  });

  it("reads a large view's odds from the same FitRoom fit as its leaderboard: computing first, then its ratings", async () => {
    await importBattles(battles("wide", 30, 1500, 5), "wide");
    const view: LeaderboardQuery = { source: "import", category: "wide" };
    const room = fitRoomName({
      slice: { sources: ["import"], category: "wide", includeFlagged: false },
      ci: "sandwich",
      rounds: 0,
      reweight: false,
      anchorModel: null,
    });
    expect(await hasRoom(env.FIT_ROOM, room)).toBe(false);
    const first = await odds({ ...view, models: "wide-0,wide-29" });
    // asked first through the odds, the view's one room starts the fit; no rating exists until it is done
    expect(first.fit).toMatchObject({ status: "computing", models: 30, stale: false });
    expect(first.odds).toEqual([
      [null, null],
      [null, null],
    ]);
    expect(await hasRoom(env.FIT_ROOM, room)).toBe(true);
    let board = await leaderboard(view);
    for (let tries = 0; board.fit.status !== "ready" && tries < 400; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      board = await leaderboard(view);
    }
    expect(board.fit.status).toBe("ready");
    const ready = await odds(view);
    expect(ready.fit.status).toBe("ready");
    const top = [...board.rows].sort((a, b) => b.bt! - a.bt!).slice(0, ODDS_TOP_MODELS);
    expect(ready.models).toEqual(top.map((r) => ({ modelId: r.modelId, displayName: r.displayName, bt: r.bt })));
    expect(ready.odds[1][0]).toBeCloseTo(chance(top[1].bt!, top[0].bt!), 12);
  });
});
