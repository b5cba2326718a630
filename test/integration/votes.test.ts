import { env } from "cloudflare:test";
import { describe, expect, inject, it } from "vitest";
import { releaseUncounted } from "../../worker/db/counting-queries";
import { openDb } from "../../worker/db/queries";
import {
  castVote,
  errorOf,
  getComparison,
  hasRoom,
  leaderboard,
  readyComparison,
  rowsOf,
  vote,
  withdraw,
} from "../helpers/arena";
import { api, finished } from "../helpers/runs";
import { scriptModel } from "../helpers/stub-client";

const stub = inject("stubUrl");
/** QUORUM_VOTE_WINDOW_MS's default */
const VOTE_WINDOW_MS = 3_600_000;

/** Which model sits on the left and right, read from D1 (the API hides it until the vote). */
async function sidesOf(id: string): Promise<{ left: string; right: string }> {
  const row = await env.DB.prepare("SELECT model1_id AS left, model2_id AS right FROM comparisons WHERE id = ?")
    .bind(id)
    .first<{ left: string; right: string }>();
  return row!;
}

/** The choice that makes `winner` win, whichever side it landed on. */
async function choiceFor(id: string, winner: string): Promise<"left" | "right"> {
  return (await sidesOf(id)).left === winner ? "left" : "right";
}

/**
 * Seed 000's leaderboard query, made valid SQLite (its win_rate reused an alias, which SQLite can't),
 * over the comparisons of one category. The seed's ai_models table is the models of those comparisons.
 */
async function seedLeaderboard(category: string) {
  const appearances = `(SELECT COUNT(*) FROM comparisons c WHERE (c.model1_id = m.model_id OR c.model2_id = m.model_id) AND c.category = ?1)`;
  const sql = `
    SELECT m.model_id AS modelId, COUNT(v.winner_model_id) AS wins, ${appearances} AS appearances,
           COUNT(v.winner_model_id) * 100.0 / ${appearances} AS winRate
    FROM (SELECT model1_id AS model_id FROM comparisons WHERE category = ?1 UNION SELECT model2_id FROM comparisons WHERE category = ?1) m
    LEFT JOIN model_votes v ON v.winner_model_id = m.model_id AND v.comparison_id IN (SELECT id FROM comparisons WHERE category = ?1)
    GROUP BY m.model_id
    ORDER BY winRate DESC, appearances DESC`;
  return (
    await env.DB.prepare(sql)
      .bind(category)
      .all<{ modelId: string; wins: number; appearances: number; winRate: number }>()
  ).results;
}

const A = "openai:ledger-a";
const B = "anthropic:ledger-b";
const C = "google:ledger-c";

describe("votes, exactly as seed 000 defines them", () => {
  it("writes one row for left, right and both-bad, two for a tie, and counts wins, appearances and win rates by hand", async () => {
    const category = { category: "ledger" };
    const c1 = (await readyComparison([A, B], category)).comparison.id;
    const c2 = (await readyComparison([A, B], category)).comparison.id;
    const c3 = (await readyComparison([A, C], category)).comparison.id;
    const c4 = (await readyComparison([B, C], category)).comparison.id;
    await readyComparison([A, C], category); // an appearance with no vote, once its vote window has passed
    await releaseUncounted(openDb(env.DB), Date.now() + VOTE_WINDOW_MS, VOTE_WINDOW_MS);

    const left = await castVote(c1, "left");
    const right = await castVote(c2, "right");
    const tie = await castVote(c3, "tie");
    const bad = await castVote(c4, "both-bad");
    const s1 = await sidesOf(c1);
    const s2 = await sidesOf(c2);
    const s3 = await sidesOf(c3);
    expect(left.rows.map((r) => r.winnerModelId)).toEqual([s1.left]);
    expect(right.rows.map((r) => r.winnerModelId)).toEqual([s2.right]);
    expect(tie.rows.map((r) => r.winnerModelId)).toEqual([s3.left, s3.right]);
    expect(bad.rows.map((r) => r.winnerModelId)).toEqual([null]);
    for (const v of [left, right, tie, bad]) expect(v.flags).toEqual([]);

    const stored = await env.DB.prepare(
      "SELECT vote_id AS voteId, choice, winner_model_id AS winner FROM model_votes WHERE comparison_id IN (?, ?, ?, ?) ORDER BY id",
    )
      .bind(c1, c2, c3, c4)
      .all<{ voteId: string; choice: string; winner: string | null }>();
    expect(stored.results).toHaveLength(5);
    expect(
      stored.results
        .filter((r) => r.voteId === tie.voteId)
        .map((r) => r.winner)
        .sort(),
    ).toEqual([s3.left, s3.right].sort());

    // By hand: each model's wins are its left/right wins plus one per tie; appearances are its comparisons.
    const expected: Record<string, { wins: number; appearances: number }> = {
      [A]: { wins: 0, appearances: 4 },
      [B]: { wins: 0, appearances: 3 },
      [C]: { wins: 0, appearances: 3 },
    };
    expected[s1.left].wins++;
    expected[s2.right].wins++;
    expected[A].wins++; // the tie of c3 (A and C)
    expected[C].wins++;
    const board = rowsOf(await leaderboard({ category: "ledger" }), [A, B, C]);
    for (const model of [A, B, C]) {
      expect(board[model].wins).toBe(expected[model].wins);
      expect(board[model].appearances).toBe(expected[model].appearances);
      expect(board[model].winRate).toBeCloseTo((expected[model].wins / expected[model].appearances) * 100, 10);
    }
    expect(board[A].battles).toBe(3);
    expect(board[A].tieRate).toBeCloseTo(100 / 3, 10);
    expect(board[B].tieRate).toBe(0);

    const seed = await seedLeaderboard("ledger");
    const byWinRate = (await leaderboard({ category: "ledger", order: "winRate" })).rows.filter((r) =>
      [A, B, C].includes(r.modelId),
    );
    expect(byWinRate.map((r) => [r.modelId, r.wins, r.appearances])).toEqual(
      seed.map((r) => [r.modelId, r.wins, r.appearances]),
    );
    byWinRate.forEach((r, i) => {
      expect(r.winRate).toBeCloseTo(seed[i].winRate, 10);
    });
  });

  it("withdraws a vote with its rows and its battle; a vote cast after the names were shown is flagged revealed and left out unless asked", async () => {
    const id = (await readyComparison([A, B], { category: "withdraw" })).comparison.id;
    const first = await castVote(id, await choiceFor(id, A));
    expect(first.flags).toEqual([]);
    expect(rowsOf(await leaderboard({ category: "withdraw" }), [A])[A].wins).toBe(1);

    const res = await withdraw(first.voteId, first.receipt);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ voteId: first.voteId, status: "ready", withdrawn: true });
    const left = await env.DB.prepare("SELECT count(*) AS n FROM model_votes WHERE vote_id = ?")
      .bind(first.voteId)
      .first<{ n: number }>();
    const battles = await env.DB.prepare("SELECT count(*) AS n FROM battles WHERE vote_id = ?")
      .bind(first.voteId)
      .first<{ n: number }>();
    expect([left!.n, battles!.n]).toEqual([0, 0]);
    const after = rowsOf(await leaderboard({ category: "withdraw" }), [A, B]);
    expect([after[A].wins, after[A].battles, after[A].appearances, after[A].bt]).toEqual([0, 0, 1, null]);
    expect((await getComparison(id)).reveal).not.toBeNull(); // a withdrawal does not hide the names again
    expect((await withdraw(first.voteId, first.receipt)).status).toBe(404);

    // Peek, then vote the other way: the names were shown, so the vote is not blind any more.
    const peeked = await castVote(id, await choiceFor(id, B));
    expect(peeked.flags).toEqual(["revealed"]);
    const stored = await env.DB.prepare("SELECT flags FROM model_votes WHERE vote_id = ?")
      .bind(peeked.voteId)
      .first<{ flags: string }>();
    expect(JSON.parse(stored!.flags)).toEqual(["revealed"]);
    const again = rowsOf(await leaderboard({ category: "withdraw" }), [A, B]);
    expect([again[A].wins, again[B].wins, again[B].battles]).toEqual([0, 0, 0]);
    expect((await leaderboard({ category: "withdraw" })).excludedFlagged).toBe(1);
    const flagged = rowsOf(await leaderboard({ category: "withdraw", includeFlagged: "true" }), [A, B]);
    expect([flagged[A].wins, flagged[B].wins, flagged[B].battles]).toEqual([0, 1, 1]);
    // online Elo and TrueSkill (flagged battles counted) are replayed without the withdrawn battle: one win for B from the start
    expect([flagged[A].elo, flagged[B].elo]).toEqual([998, 1002]);
    // TrueSkill's first win from (25, 25/3) with τ = 25/300 and draw probability 0.10, worked out by hand
    expect(flagged[B].mu).toBeCloseTo(29.3958317, 6);
    expect(flagged[A].mu).toBeCloseTo(20.6041683, 6);
    expect(flagged[B].sigma).toBeCloseTo(7.1714758, 6);
    expect(flagged[B].conservative).toBeCloseTo(29.3958317 - 3 * 7.1714758, 5);
  });

  it("answers a vote on a comparison that doesn't exist with a 404, and creates no room for it", async () => {
    const id = crypto.randomUUID();
    const res = await vote(id, "left");
    expect(res.status).toBe(404);
    expect(await errorOf(res)).toEqual({ code: "not_found", message: "Comparison not found." });
    expect(await hasRoom(env.COMPARISON_ROOM, id)).toBe(false);
    expect(
      await env.DB.prepare("SELECT count(*) AS n FROM model_votes WHERE comparison_id = ?").bind(id).first("n"),
    ).toBe(0);
  });

  it("replays an Idempotency-Key with the first response and writes nothing; the same key for another vote is a 409", async () => {
    const id = (await readyComparison([A, C], { category: "idem" })).comparison.id;
    const headers = { "Idempotency-Key": "vote-key-1" };
    const first = await vote(id, "left", headers);
    const replay = await vote(id, "left", headers);
    expect([first.status, replay.status]).toEqual([201, 201]);
    expect(replay.headers.get("Idempotent-Replayed")).toBe("true");
    const body = await first.json();
    expect(await replay.json()).toEqual(body);
    const rows = await env.DB.prepare("SELECT count(*) AS n FROM model_votes WHERE comparison_id = ?")
      .bind(id)
      .first<{ n: number }>();
    expect(rows!.n).toBe(1);
    expect(rowsOf(await leaderboard({ category: "idem" }), [A, C])[A].battles).toBe(1);

    const changed = await vote(id, "right", headers);
    expect(changed.status).toBe(409);
    expect((await errorOf(changed)).code).toBe("idempotency_conflict");
    const other = (await readyComparison([A, C], { category: "idem" })).comparison.id;
    expect((await vote(other, "left", headers)).status).toBe(409);
  });
});

describe("vote quality flags", () => {
  it("flags duplicate, too-fast, identity-leaking and revealed votes, keeps them, and leaves them out of the statistics unless asked", async () => {
    const D = "openai:flag-d";
    const E = "anthropic:flag-e";
    const category = { category: "flags" };
    const clean = (await readyComparison([D, E], category)).comparison.id;
    const cleanVote = await castVote(clean, await choiceFor(clean, D), { "X-Client-Id": "alice" });
    const duplicate = await castVote(clean, await choiceFor(clean, D), { "X-Client-Id": "alice" });
    const byBob = await castVote(clean, await choiceFor(clean, E), { "X-Client-Id": "bob" });
    // Alice's first vote showed the names: every later vote on the comparison, Bob's too, is cast knowing them.
    expect([cleanVote.flags, duplicate.flags, byBob.flags]).toEqual([[], ["duplicate", "revealed"], ["revealed"]]);

    const fast = (await readyComparison([D, E], category)).comparison.id;
    const room = env.COMPARISON_ROOM.get(env.COMPARISON_ROOM.idFromName(fast));
    const tooFast = await room.vote({
      choice: await choiceFor(fast, D),
      clientId: "client:carol",
      idempotencyKey: null,
      minVoteMs: 600_000,
      maxPerClient: 5,
      maxPerComparison: 20,
    });
    expect(tooFast.ok && tooFast.response.flags).toEqual(["too_fast"]);

    await scriptModel(stub, "flag-leaky", [
      { text: "As Claude, a model made by Anthropic, I would say recursion is self-reference." },
    ]);
    const leaky = (await readyComparison(["anthropic:flag-leaky", D], category)).comparison.id;
    expect((await castVote(leaky, await choiceFor(leaky, D))).flags).toEqual(["identity_leak"]);

    const open = (await readyComparison([D, E], { ...category, blind: false })).comparison.id;
    expect((await getComparison(open)).reveal).not.toBeNull();
    expect((await castVote(open, await choiceFor(open, D))).flags).toEqual(["revealed"]);

    const stored = await env.DB.prepare("SELECT flags FROM model_votes WHERE comparison_id IN (?, ?, ?, ?)")
      .bind(clean, fast, leaky, open)
      .all<{ flags: string }>();
    expect(stored.results).toHaveLength(6);

    // Counted: the clean vote only (D won once), over 4 comparisons of each of D and E.
    const counted = await leaderboard({ category: "flags" });
    expect(counted.excludedFlagged).toBe(5);
    const c = rowsOf(counted, [D, E]);
    expect([c[D].wins, c[D].battles, c[D].appearances, c[E].wins, c[E].battles]).toEqual([1, 1, 4, 0, 1]);

    // With includeFlagged, the numbers are seed 000's SQL exactly.
    const all = await leaderboard({ category: "flags", includeFlagged: "true", order: "winRate" });
    expect(all.excludedFlagged).toBe(0);
    const seed = await seedLeaderboard("flags");
    expect(all.rows.map((r) => [r.modelId, r.wins, r.appearances])).toEqual(
      seed.map((r) => [r.modelId, r.wins, r.appearances]),
    );
    all.rows.forEach((r, i) => {
      expect(r.winRate).toBeCloseTo(seed[i].winRate, 10);
    });
  });
});

describe("ratings from votes", () => {
  it("gives online Elo and Bradley–Terry as worked out by hand, with an interval around each", async () => {
    const F = "openai:rate-f";
    const G = "google:rate-g";
    for (const winner of [F, F, G]) {
      const id = (await readyComparison([F, G], { category: "ratings" })).comparison.id;
      await castVote(id, await choiceFor(id, winner));
    }
    const board = await leaderboard({ category: "ratings" });
    const r = rowsOf(board, [F, G]);
    // Elo, K=4 from 1000: F wins (1002, 998), F wins (+1.97698), G wins (−2.04578)
    expect(r[F].elo).toBeCloseTo(1001.9312, 3);
    expect(r[G].elo).toBeCloseTo(998.0688, 3);
    // Bradley–Terry: 2 wins to 1 is a gap of 400·log10(2) around a mean of 1000
    expect(r[F].bt).toBeCloseTo(1060.206, 2);
    expect(r[G].bt).toBeCloseTo(939.794, 2);
    for (const row of [r[F], r[G]]) {
      expect(row.ciLower!).toBeLessThanOrEqual(row.bt!);
      expect(row.ciUpper!).toBeGreaterThanOrEqual(row.bt!);
      expect(row.provisional).toBe(false);
    }
    expect(board.rows.map((x) => x.modelId)).toEqual([F, G]);
    // the same numbers on a reload: the bootstrap is seeded
    expect(rowsOf(await leaderboard({ category: "ratings" }), [F, G])).toEqual(r);

    const anchored = rowsOf(await leaderboard({ category: "ratings", anchor: G, anchorRating: "1114" }), [F, G]);
    expect(anchored[G].bt).toBeCloseTo(1114, 6);
    expect(anchored[F].bt).toBeCloseTo(1114 + 120.412, 2);
    const bad = await api("/leaderboard?anchor=nobody&anchorRating=1000");
    expect(bad.status).toBe(400);
    expect((await api("/leaderboard?anchor=x")).status).toBe(400);
  });

  it("lists judge battles from council runs under source=judge, apart from human votes", async () => {
    const res = await api("/runs", {
      method: "POST",
      json: {
        question: "Name a prime.",
        models: [{ id: "demo:concise" }, { id: "demo:thorough" }, { id: "demo:skeptic" }],
      },
    });
    const { id } = await res.json<{ id: string }>();
    expect((await finished(id)).run.status).toBe("done");
    const judged = await leaderboard({ source: "judge" });
    const demo = judged.rows.filter((x) => x.modelId.startsWith("demo:"));
    // three reviewers, each ranking the two other answers: one battle each
    expect(judged.totalBattles).toBe(3);
    expect(demo.map((x) => x.battles)).toEqual([2, 2, 2]);
    expect(demo.every((x) => x.appearances === 2)).toBe(true);
    expect((await leaderboard()).rows.some((x) => x.modelId.startsWith("demo:"))).toBe(false);
  });
});

describe("votes that can't be stuffed", () => {
  it("store every accepted vote of hundreds fired at once exactly once, answer every refused one, and replay retries", async () => {
    const id = (await readyComparison([A, C], { category: "stuffing" })).comparison.id;
    // 30 clients fire 10 votes each, all at once; every third vote is sent twice with the same key.
    const attempts = Array.from({ length: 300 }, (_, k) => ({
      client: `c${k % 30}`,
      key: `stuff-${k}`,
      choice: (["left", "right", "tie", "both-bad"] as const)[k % 4],
    }));
    const sends = attempts.flatMap((a, k) => (k % 3 === 0 ? [a, a] : [a]));
    const answers = await Promise.all(
      sends.map((a) => vote(id, a.choice, { "X-Client-Id": a.client, "Idempotency-Key": a.key })),
    );
    const bodies = await Promise.all(
      answers.map((r) => r.json() as Promise<{ voteId?: string; rows?: unknown[]; error?: { code: string } }>),
    );
    expect(answers.every((r) => r.status === 201 || r.status === 429)).toBe(true);
    for (const [i, r] of answers.entries()) if (r.status === 429) expect(bodies[i].error!.code).toBe("vote_limit");

    const accepted = new Map<string, { voteId: string; rows: number }>();
    for (const [i, r] of answers.entries())
      if (r.status === 201) {
        const prior = accepted.get(sends[i].key);
        // a replayed key returns the first answer exactly
        if (prior) expect(bodies[i].voteId).toBe(prior.voteId);
        else accepted.set(sends[i].key, { voteId: bodies[i].voteId!, rows: bodies[i].rows!.length });
      }
    // at most 20 live votes on a comparison, at most 5 per client
    expect(accepted.size).toBe(20);
    const stored = await env.DB.prepare(
      "SELECT vote_id AS voteId, count(*) AS n FROM model_votes WHERE comparison_id = ? GROUP BY vote_id",
    )
      .bind(id)
      .all<{ voteId: string; n: number }>();
    expect(stored.results).toHaveLength(20);
    const rowsByVote = new Map([...accepted.values()].map((v) => [v.voteId, v.rows]));
    for (const row of stored.results) expect(row.n).toBe(rowsByVote.get(row.voteId));
    const battles = await env.DB.prepare(
      "SELECT count(*) AS n FROM battles WHERE comparison_id = ? AND source = 'human'",
    )
      .bind(id)
      .first<{ n: number }>();
    expect(battles!.n).toBe(20);
    const perClient = new Map<string, number>();
    for (const [key] of accepted) {
      const client = attempts.find((a) => a.key === key)!.client;
      perClient.set(client, (perClient.get(client) ?? 0) + 1);
    }
    expect(Math.max(...perClient.values())).toBeLessThanOrEqual(5);
  });
});
