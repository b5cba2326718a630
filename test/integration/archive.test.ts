import {
  createExecutionContext,
  createScheduledController,
  env,
  runInDurableObject,
  waitOnExecutionContext,
} from "cloudflare:test";
import type { InferResponseType } from "hono/client";
import { beforeEach, describe, expect, it } from "vitest";
import { comparisonRoom } from "../../worker/api/comparisons";
import {
  archiveBattles,
  archiveComparisons,
  archiveConversations,
  dropIdempotencyKeys,
  readJsonLines,
  SEGMENT_BATTLES,
} from "../../worker/db/archive";
import { releaseUncounted } from "../../worker/db/counting-queries";
import { openDb } from "../../worker/db/queries";
import { sliceBattles } from "../../worker/db/style-queries";
import app from "../../worker/index";
import type { ComparisonRecord } from "../../worker/rooms/comparison-record";
import type { ComparisonRoom } from "../../worker/rooms/comparison-room";
import type { RunRecord } from "../../worker/rooms/record";
import type { RunRoom } from "../../worker/rooms/run-room";

import {
  castVote,
  errorOf,
  getComparison,
  leaderboard,
  readyComparison,
  type Standings,
  withdraw as withdrawVote,
} from "../helpers/arena";
import { type Battle, referenceElo, simulateBattles } from "../helpers/arena-reference";
import { exportedLines } from "../helpers/battle-export";
import { client, ok } from "../helpers/client";
import { api, createRun, finished } from "../helpers/runs";

type HistoryPage = InferResponseType<typeof client.comparisons.$get, 200>;

// vitest.config.ts sets QUORUM_ARCHIVE_AFTER_HOURS to 720 (30 days) for every test file.
const HOURS = 720;
const HOUR_MS = 3_600_000;

/** QUORUM_VOTE_WINDOW_MS's default: these comparisons' windows passed long ago. */
const VOTE_WINDOW_MS = 3_600_000;

async function importLines(battles: unknown[], query: string) {
  const res = await api(`/battles/import${query}`, {
    method: "POST",
    body: battles.map((b) => JSON.stringify(b)).join("\n"),
  });
  if (res.status !== 200) throw new Error(`import answered ${res.status}: ${await res.text()}`);
  return res.json<{ accepted: number; inserted: number; alreadyImported: number }>();
}

const count = async (sql: string) => (await env.DB.prepare(sql).first<{ n: number }>())!.n;
const exported = () => exportedLines({ source: "import", includeFlagged: "true" });
/** The one object under `prefix` in the archive's bucket, and its rows. */
async function onlyObject(prefix: string) {
  const { objects } = await env.ARCHIVE.list({ prefix });
  expect(objects).toHaveLength(1);
  const [{ key }] = objects;
  return { key, rows: await readJsonLines<Record<string, unknown>>((await env.ARCHIVE.get(key))!) };
}
/**
 * The import view once its online ratings are replayed: past QUORUM_INLINE_REPLAY_BATTLES new battles a room
 * replays them while the read says computing. A bounded number of reads.
 */
async function replayedBoard(tries = 400): Promise<Standings> {
  for (let k = 0; k < tries; k++) {
    const board = await leaderboard({ source: "import", rounds: "0" });
    if (board.online.status === "ready") return board;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`the online ratings were not replayed after ${tries} reads`);
}
const ratings = (board: Standings) =>
  board.rows.map((r) => ({ modelId: r.modelId, wins: r.wins, battles: r.battles, elo: r.elo, bt: r.bt }));

describe("the battle archive", () => {
  // Tests in a file share storage: each starts from no battles (so rowids start again at 1) and no comparisons.
  beforeEach(async () => {
    await env.DB.batch(
      [
        "battle_archive",
        "conversation_archive",
        "comparison_archive",
        "battles",
        "pair_counts",
        "model_counts",
        "elo_snapshots",
        "battle_epochs",
        "judge_verdicts",
        "comparisons",
      ].map((t) => env.DB.prepare(`DELETE FROM ${t}`)),
    );
    const { objects } = await env.ARCHIVE.list();
    if (objects.length) await env.ARCHIVE.delete(objects.map((o) => o.key));
  });

  it("moves whole segments of old battles to R2 and leaves the leaderboard, Elo from scratch, style's battles and the export as they were", async () => {
    const battles: Battle[] = simulateBattles({ ar: 1200, bo: 1100, ce: 1000, du: 950 }, 25_000, 11);
    for (let i = 0; i < battles.length; i += 10_000)
      await importLines(battles.slice(i, i + 10_000), `?importId=arch&offset=${i}`);
    const before = await replayedBoard();
    const lines = await exported();
    expect(lines).toHaveLength(25_000);

    const pass = await archiveBattles(env.DB, env.ARCHIVE, HOURS);
    // Two whole segments; the last 5,000 are less than one and stay in D1.
    expect(pass).toEqual({ segments: 2, battles: 2 * SEGMENT_BATTLES, stopped: null });
    expect(await count("SELECT count(*) AS n FROM battles")).toBe(5_000);
    const segments = await env.DB.prepare(
      "SELECT key, from_rowid AS fromRowid, to_rowid AS toRowid, battles FROM battle_archive ORDER BY to_rowid",
    ).all();
    expect(segments.results).toEqual([
      {
        key: expect.stringMatching(/^battles\/000000000001-000000010000\.[0-9a-f]{8}\.jsonl\.gz$/),
        fromRowid: 1,
        toRowid: 10_000,
        battles: 10_000,
      },
      {
        key: expect.stringMatching(/^battles\/000000010001-000000020000\.[0-9a-f]{8}\.jsonl\.gz$/),
        fromRowid: 10_001,
        toRowid: 20_000,
        battles: 10_000,
      },
    ]);
    expect((await env.ARCHIVE.list({ prefix: "battles/" })).objects.map((o) => o.key)).toEqual(
      segments.results.map((s) => s.key),
    );
    const summary = await ok(client.battles.archive.$get());
    expect(summary).toMatchObject({
      afterHours: HOURS,
      bucketBound: true,
      segments: 2,
      battles: 20_000,
      throughRowid: 20_000,
    });

    // The counters did not move, so the leaderboard is the same to the last digit.
    expect(ratings(await leaderboard({ source: "import", rounds: "0" }))).toEqual(ratings(before));
    // With no snapshot left, online Elo replays every battle, the archived ones from R2: FastChat's figures.
    await env.DB.prepare("DELETE FROM elo_snapshots").run();
    const replayed = await replayedBoard();
    const want = referenceElo(battles);
    for (const row of replayed.rows) expect(row.elo!).toBeCloseTo(want[row.modelId], 6);
    // Style control and the export read the same battles, in the same order.
    let styled = 0;
    for await (const page of sliceBattles(openDb(env.DB), env.ARCHIVE, {
      sources: ["import"],
      category: "",
      includeFlagged: true,
    }))
      styled += page.length;
    expect(styled).toBe(25_000);
    expect(await exported()).toEqual(lines);
  });

  it("keeps archived battles in a prompt label's online Elo, as in its counts", async () => {
    // Every third battle's prompt is in English, by the log's own field: labelled lang:en at import.
    const battles = simulateBattles({ ar: 1200, bo: 1100, ce: 1000 }, 12_000, 12).map((b, k) =>
      k % 3 === 0 ? { ...b, language: "English" } : b,
    );
    for (let i = 0; i < battles.length; i += 10_000)
      await importLines(battles.slice(i, i + 10_000), `?importId=lang&offset=${i}`);
    const english = battles.filter((_, k) => k % 3 === 0);
    expect(await archiveBattles(env.DB, env.ARCHIVE, HOURS)).toMatchObject({ segments: 1, battles: SEGMENT_BATTLES });
    // No snapshot left: the label's Elo is replayed from scratch, its archived battles read from R2.
    await env.DB.prepare("DELETE FROM elo_snapshots").run();
    const board = await leaderboard({ source: "import", label: "lang:en", rounds: "0" });
    expect(board.online).toEqual({ status: "ready" });
    expect(board.totalBattles).toBe(english.length);
    const want = referenceElo(english);
    expect(board.rows.map((r) => r.modelId).sort()).toEqual(["ar", "bo", "ce"]);
    for (const row of board.rows) expect(row.elo!).toBeCloseTo(want[row.modelId], 6);
  });

  it("inserts nothing twice when an archived chunk is sent again, and keeps rowids rising past the archive", async () => {
    const battles = simulateBattles({ x: 1000, y: 1000 }, 10_001, 3);
    await importLines(battles.slice(0, 10_000), "?importId=again&offset=0");
    await importLines(battles.slice(10_000), "?importId=again&offset=10000");
    // The minute's cron runs the pass (the 10-minute one sweeps: test/integration/watchdog.test.ts).
    const ctx = createExecutionContext();
    app.scheduled(createScheduledController({ cron: "* * * * *" }), env, ctx);
    await waitOnExecutionContext(ctx);
    expect(await ok(client.battles.archive.$get())).toMatchObject({
      segments: 1,
      battles: 10_000,
      throughRowid: 10_000,
    });

    const resent = await importLines(battles.slice(0, 10_000), "?importId=again&offset=0");
    expect(resent).toMatchObject({ accepted: 10_000, inserted: 0, alreadyImported: 10_000 });
    const resentTail = await importLines(battles.slice(10_000), "?importId=again&offset=10000");
    expect(resentTail).toMatchObject({ inserted: 0, alreadyImported: 1 });
    expect(
      await count(
        "SELECT coalesce(sum(lo_wins + hi_wins + ties + both_bad), 0) AS n FROM pair_counts WHERE source = 'import' AND category = ''",
      ),
    ).toBe(10_001);

    // The one battle left in D1 goes (its counters with it); the next one still gets a rowid past the archive's.
    await env.DB.prepare("DELETE FROM battles").run();
    await importLines([{ model_a: "x", model_b: "y", winner: "tie", tstamp: 1_800_000_000 }], "?importId=after");
    expect(await count("SELECT rowid AS n FROM battles WHERE import_id = 'after'")).toBe(10_001);
    expect(
      await count(
        "SELECT coalesce(sum(lo_wins + hi_wins + ties + both_bad), 0) AS n FROM pair_counts WHERE source = 'import' AND category = ''",
      ),
    ).toBe(10_001);
  });

  it("waits while a segment holds a battle inside the window, and archives nothing twice when rows change under it", async () => {
    const now = Date.now();
    const old = simulateBattles({ p: 1000, q: 1000 }, SEGMENT_BATTLES + 1, 5);
    old[SEGMENT_BATTLES - 1].tstamp = (now - (HOURS + 1) * HOUR_MS) / 1000 + 60; // a minute too young for the archive
    await importLines(old.slice(0, 10_000), "?importId=young&offset=0");
    await importLines(old.slice(10_000), "?importId=young&offset=10000");
    expect(await archiveBattles(env.DB, env.ARCHIVE, HOURS, now)).toEqual({ segments: 0, battles: 0, stopped: null });
    // Two minutes later it is old enough, but a withdrawal lands while the segment is being written: the segment
    // is dropped, R2 and the archive's table keep nothing of it, and the next pass archives what is left.
    const withdrawing = {
      put: async (...args: Parameters<R2Bucket["put"]>) => {
        await env.DB.prepare("DELETE FROM battles WHERE rowid = 5").run();
        return env.ARCHIVE.put(...args);
      },
      delete: (keys: string | string[]) => env.ARCHIVE.delete(keys),
    } as R2Bucket;
    const later = now + 120_000;
    expect(await archiveBattles(env.DB, withdrawing, HOURS, later)).toMatchObject({
      segments: 0,
      battles: 0,
      stopped: expect.stringMatching(/deleted while/),
    });
    expect(await count("SELECT count(*) AS n FROM battle_archive")).toBe(0);
    expect((await env.ARCHIVE.list()).objects).toHaveLength(0);
    expect(await count("SELECT count(*) AS n FROM battles")).toBe(SEGMENT_BATTLES);
    // 10,000 left with the newest among them: one more battle makes a whole segment.
    await importLines([{ model_a: "p", model_b: "q", winner: "tie", tstamp: 1_700_000_000 }], "?importId=young-more");
    expect(await archiveBattles(env.DB, env.ARCHIVE, HOURS, later)).toEqual({
      segments: 1,
      battles: SEGMENT_BATTLES,
      stopped: null,
    });
    expect(
      await count(
        "SELECT coalesce(sum(lo_wins + hi_wins + ties + both_bad), 0) AS n FROM pair_counts WHERE source = 'import' AND category = ''",
      ),
    ).toBe(SEGMENT_BATTLES + 1);
  });

  it("takes the model_votes rows of archived votes along, but keeps those a judge's verdict still needs", async () => {
    const plain = (await readyComparison(["openai:pool-gpt", "anthropic:pool-claude"])).comparison.id;
    const judged = (await readyComparison(["openai:pool-gpt", "google:pool-gemini"])).comparison.id;
    const gone = await castVote(plain, "tie");
    await castVote(judged, "left");
    await env.DB.prepare(
      "INSERT INTO judge_verdicts (comparison_id, judge_model_id, verdict, flipped, orders, left_chars, right_chars) VALUES (?, 'openai:pool-gpt', 'left', 0, '[]', 10, 10)",
    )
      .bind(judged)
      .run();
    await env.DB.prepare("UPDATE battles SET tstamp = 1700000000 WHERE source = 'human'").run();
    await importLines(simulateBattles({ s: 1000, t: 1000 }, SEGMENT_BATTLES - 1, 4), "?importId=with-votes");

    expect(await archiveBattles(env.DB, env.ARCHIVE, HOURS)).toMatchObject({ segments: 1, battles: SEGMENT_BATTLES });
    const votesOf = (id: string) => count(`SELECT count(*) AS n FROM model_votes WHERE comparison_id = '${id}'`);
    expect(await votesOf(plain)).toBe(0);
    expect(await votesOf(judged)).toBe(1);
    const { key, rows: archived } = await onlyObject("model_votes/");
    expect(key).toMatch(/^model_votes\/000000000001-000000010000\./);
    // A tie is two rows, one per model (seed 000).
    expect(archived.map((r) => [r.vote_id, r.choice])).toEqual([
      [gone.voteId, "tie"],
      [gone.voteId, "tie"],
    ]);
    expect(await ok(client.battles.archive.$get())).toMatchObject({ battles: SEGMENT_BATTLES, modelVotes: 2 });
    // Withdrawing it now finds nothing in D1, and says why it may be so.
    const withdraw = await withdrawVote(gone.voteId, gone.receipt);
    expect(withdraw.status).toBe(404);
    expect((await errorOf(withdraw)).message).toMatch(
      /older than 720 hours \(QUORUM_ARCHIVE_AFTER_HOURS\) and archived, which makes it final/,
    );
  });

  it("moves old comparisons' messages to R2 in whole chunks; the comparison still opens from its room, and their costs stay counted", async () => {
    const ids: string[] = [];
    for (let i = 0; i < 3; i++)
      ids.push((await readyComparison(["openai:pool-gpt", "anthropic:pool-claude"])).comparison.id);
    const [a, b, c] = ids;
    const old = Date.now() - (HOURS + 48) * HOUR_MS;
    for (const table of [
      "comparisons SET created_at = ?1 WHERE id",
      "messages SET completed_at = ?1 WHERE completed_at IS NOT NULL AND comparison_id",
    ])
      await env.DB.prepare(`UPDATE ${table} IN (?2, ?3)`).bind(old, a, b).run();
    const messagesOf = (id: string) => count(`SELECT count(*) AS n FROM messages WHERE comparison_id = '${id}'`);
    const [na, nb, nc] = [await messagesOf(a), await messagesOf(b), await messagesOf(c)];
    expect(na).toBeGreaterThanOrEqual(3); // the prompt and both sides' answers
    // Two answers with usage each: their costs go to spend_entries, as a deleted answer's do.
    expect(
      await count(
        `SELECT count(*) AS n FROM messages WHERE comparison_id = '${a}' AND role = 'assistant' AND coalesce(tokens_in, 0) + coalesce(tokens, 0) > 0`,
      ),
    ).toBe(2);
    const spendRows = await count("SELECT count(*) AS n FROM spend_entries");

    expect(await archiveConversations(env.DB, env.ARCHIVE, HOURS, Date.now(), 2)).toEqual({
      comparisons: 2,
      messages: na + nb,
    });
    expect([await messagesOf(a), await messagesOf(b), await messagesOf(c)]).toEqual([0, 0, nc]);
    expect(await count("SELECT count(*) AS n FROM spend_entries")).toBe(spendRows + 4);
    const { rows: lines } = await onlyObject("messages/");
    expect(lines).toHaveLength(na + nb);
    expect(new Set(lines.map((m) => m.comparison_id))).toEqual(new Set([a, b]));
    expect(lines.find((m) => m.role === "user")?.content).toBe("Explain recursion in one paragraph.");
    // The page reads the room, which kept the whole conversation.
    const detail = await getComparison(a);
    expect(detail.turns.map((t) => t.prompt)).toEqual(["Explain recursion in one paragraph."]);
    // One old comparison left is less than a chunk.
    expect(await archiveConversations(env.DB, env.ARCHIVE, HOURS, Date.now(), 2)).toEqual({
      comparisons: 0,
      messages: 0,
    });
    expect(await ok(client.battles.archive.$get())).toMatchObject({ conversations: 2, messages: na + nb });
  });

  it("moves closed comparisons' rows to R2 once nothing in D1 refers to them; their rooms still answer for them and take nothing more", async () => {
    const ready = async () => (await readyComparison(["openai:pool-gpt", "anthropic:pool-claude"])).comparison.id;
    const [voted, unvoted, judged, shared] = [await ready(), await ready(), await ready(), await ready()];
    const young = await ready();
    await castVote(voted, "left");
    await castVote(judged, "right");
    await env.DB.prepare(
      "INSERT INTO judge_verdicts (comparison_id, judge_model_id, verdict, flipped, orders, left_chars, right_chars) VALUES (?, 'openai:pool-gpt', 'left', 0, '[]', 10, 10)",
    )
      .bind(judged)
      .run();
    expect((await client.comparisons[":id"].share.$post({ param: { id: shared } })).status).toBe(201);
    // Four comparisons from before the window, their answers and votes too; the rooms agree on when they began.
    const old = Date.now() - (HOURS + 48) * HOUR_MS;
    const four = [voted, unvoted, judged, shared];
    await env.DB.prepare(
      "UPDATE comparisons SET created_at = ?1, both_answered_at = ?1 WHERE id IN (SELECT value FROM json_each(?2))",
    )
      .bind(old, JSON.stringify(four))
      .run();
    // The unvoted one's vote window is long over: the cron sweep has let it count.
    await releaseUncounted(openDb(env.DB), Date.now(), VOTE_WINDOW_MS);
    await env.DB.prepare("UPDATE messages SET completed_at = ?1 WHERE completed_at IS NOT NULL").bind(old).run();
    await env.DB.prepare("UPDATE battles SET tstamp = ?1 WHERE source = 'human'")
      .bind(old / 1000)
      .run();
    for (const id of four)
      await runInDurableObject(comparisonRoom(env, id), (instance: ComparisonRoom) => {
        (instance as unknown as { record: ComparisonRecord }).record.createdAt = old;
      });
    const appearances = async () =>
      (
        await env.DB.prepare(
          "SELECT category, model_id, appearances FROM model_appearances ORDER BY category, model_id",
        ).all()
      ).results;
    const counted = await appearances();

    // Nothing moves while a comparison still has its messages or votes in D1.
    expect(await archiveComparisons(env.DB, env.ARCHIVE, HOURS, Date.now(), 2)).toEqual({ comparisonRows: 0 });
    await importLines(simulateBattles({ s: 1000, t: 1000 }, SEGMENT_BATTLES - 1, 4), "?importId=with-comparisons");
    expect(await archiveBattles(env.DB, env.ARCHIVE, HOURS)).toMatchObject({ segments: 1 });
    expect(await archiveConversations(env.DB, env.ARCHIVE, HOURS, Date.now(), 4)).toMatchObject({ comparisons: 4 });
    // Two passes at once: the one whose transaction finds the rows gone writes nothing.
    const passes = await Promise.all([
      archiveComparisons(env.DB, env.ARCHIVE, HOURS, Date.now(), 2),
      archiveComparisons(env.DB, env.ARCHIVE, HOURS, Date.now(), 2),
    ]);
    expect(passes.map((p) => p.comparisonRows).sort()).toEqual([0, 2]);
    // The judged one keeps its row (and vote) for judge calibration, the shared one for its link, the young one for its window.
    const left = (await env.DB.prepare("SELECT id FROM comparisons").all<{ id: string }>()).results
      .map((r) => r.id)
      .sort();
    expect(left).toEqual([judged, shared, young].sort());
    const { rows } = await onlyObject("comparisons/");
    expect(rows.map((r) => r.id).sort()).toEqual([voted, unvoted].sort());
    expect(rows[0]).toMatchObject({
      prompt: "Explain recursion in one paragraph.",
      model1_id: expect.any(String),
      created_at: old,
    });
    expect(await count("SELECT count(*) AS n FROM comparison_archive")).toBe(1);
    expect(await ok(client.battles.archive.$get())).toMatchObject({ comparisonRows: 2 });
    // Appearances stay counted, and the history list still shows all five.
    expect(await appearances()).toEqual(counted);
    const history = await ok(client.comparisons.$get({ query: { limit: "50" } }));
    expect(history.items.map((i) => i.id).sort()).toEqual([...four, young].sort());

    // The page opens from the room; a vote, a turn, a retry or a judge is refused, and writes nothing.
    expect((await getComparison(voted)).turns[0].prompt).toBe("Explain recursion in one paragraph.");
    const closed = {
      code: "closed",
      message: expect.stringMatching(
        /^This comparison is older than 720 hours \(QUORUM_ARCHIVE_AFTER_HOURS\), so it is closed: .*Start a new round\.$/,
      ),
    };
    for (const [path, body] of [
      [`/comparisons/${voted}/votes`, { choice: "right" }],
      [`/comparisons/${unvoted}/votes`, { choice: "tie" }],
      [`/comparisons/${unvoted}/messages`, { content: "And again?" }],
      [`/comparisons/${unvoted}/judge`, { judges: ["google:pool-gemini"] }],
      [`/comparisons/${voted}/retry`, undefined],
    ] as const) {
      const res = await api(path, { method: "POST", ...(body ? { json: body } : {}) });
      expect([path, res.status]).toEqual([path, 409]);
      expect(await errorOf(res)).toEqual(closed);
    }
    expect(await count(`SELECT count(*) AS n FROM model_votes WHERE comparison_id IN ('${voted}', '${unvoted}')`)).toBe(
      0,
    );
    // A share link for an archived comparison still works: the room holds what it shows.
    expect((await client.comparisons[":id"].share.$post({ param: { id: unvoted } })).status).toBe(201);
  });

  it("pages the history list newest first across D1 and archived objects that overlap in time, each comparison once", async () => {
    const ids: string[] = [];
    for (let i = 0; i < 6; i++)
      ids.push((await readyComparison(["openai:pool-gpt", "anthropic:pool-claude"])).comparison.id);
    const young = (await readyComparison(["openai:pool-gpt", "google:pool-gemini"])).comparison.id;
    const old = Date.now() - (HOURS + 48) * HOUR_MS;
    for (const [i, id] of ids.entries())
      await env.DB.prepare("UPDATE comparisons SET created_at = ?1, both_answered_at = ?1 WHERE id = ?2")
        .bind(old + i * 1_000, id)
        .run();
    await releaseUncounted(openDb(env.DB), Date.now(), VOTE_WINDOW_MS);
    await env.DB.prepare("UPDATE messages SET completed_at = ?1 WHERE completed_at IS NOT NULL").bind(old).run();
    expect(await archiveConversations(env.DB, env.ARCHIVE, HOURS, Date.now(), 6)).toMatchObject({ comparisons: 6 });
    // A verdict holds the second oldest back while the others move in pairs; once it is gone, it moves with the newest.
    const verdict = env.DB.prepare(
      "INSERT INTO judge_verdicts (comparison_id, judge_model_id, verdict, flipped, orders, left_chars, right_chars) VALUES (?, 'openai:pool-gpt', 'left', 0, '[]', 10, 10)",
    );
    await verdict.bind(ids[1]).run();
    expect(await archiveComparisons(env.DB, env.ARCHIVE, HOURS, Date.now(), 2)).toEqual({ comparisonRows: 4 });
    await env.DB.prepare("DELETE FROM judge_verdicts").run();
    expect(await archiveComparisons(env.DB, env.ARCHIVE, HOURS, Date.now(), 2)).toEqual({ comparisonRows: 2 });
    const objects = await env.DB.prepare(
      "SELECT first_created_at AS first, last_created_at AS last FROM comparison_archive ORDER BY first_created_at",
    ).all();
    expect(objects.results).toEqual([
      { first: old, last: old + 2_000 },
      { first: old + 1_000, last: old + 5_000 },
      { first: old + 3_000, last: old + 4_000 },
    ]);
    expect(await count("SELECT count(*) AS n FROM comparisons")).toBe(1);

    const pages: string[][] = [];
    let cursor: string | null = null;
    do {
      const page: HistoryPage = await ok(
        client.comparisons.$get({ query: { limit: "2", ...(cursor ? { cursor } : {}) } }),
      );
      pages.push(page.items.map((i) => i.id));
      for (const item of page.items.filter((i) => i.id !== young))
        expect(item).toMatchObject({ prompt: "Explain recursion in one paragraph.", blind: true, reveal: null });
      cursor = page.nextCursor;
    } while (cursor && pages.length < 10);
    expect(pages).toEqual([[young, ids[5]], [ids[4], ids[3]], [ids[2], ids[1]], [ids[0]]]);
  });

  it("two passes at once archive each segment and chunk once, and the one that loses the race leaves nothing behind", async () => {
    const battles = simulateBattles({ g: 1000, h: 1000 }, 20_001, 8);
    for (let i = 0; i < battles.length; i += 10_000)
      await importLines(battles.slice(i, i + 10_000), `?importId=race&offset=${i}`);
    const passes = await Promise.all([
      archiveBattles(env.DB, env.ARCHIVE, HOURS),
      archiveBattles(env.DB, env.ARCHIVE, HOURS),
    ]);
    // Both read the first segment; one transaction fails on it, and that pass stops.
    expect(passes.map((p) => p.battles).sort()).toEqual([0, 20_000]);
    expect(passes.filter((p) => p.stopped)).toHaveLength(1);
    const listed = (await env.DB.prepare("SELECT key FROM battle_archive").all<{ key: string }>()).results
      .map((r) => r.key)
      .sort();
    expect(listed).toHaveLength(2);
    expect((await env.ARCHIVE.list({ prefix: "battles/" })).objects.map((o) => o.key).sort()).toEqual(listed);
    expect(await exported()).toHaveLength(20_001);

    const ids: string[] = [];
    for (let i = 0; i < 2; i++)
      ids.push((await readyComparison(["openai:pool-gpt", "anthropic:pool-claude"])).comparison.id);
    await env.DB.prepare("UPDATE comparisons SET created_at = ?1 WHERE id IN (?2, ?3)")
      .bind(Date.now() - (HOURS + 48) * HOUR_MS, ...ids)
      .run();
    await env.DB.prepare(
      "UPDATE messages SET completed_at = ?1 WHERE completed_at IS NOT NULL AND comparison_id IN (?2, ?3)",
    )
      .bind(Date.now() - (HOURS + 48) * HOUR_MS, ...ids)
      .run();
    const chunks = await Promise.all([
      archiveConversations(env.DB, env.ARCHIVE, HOURS, Date.now(), 2),
      archiveConversations(env.DB, env.ARCHIVE, HOURS, Date.now(), 2),
    ]);
    expect(chunks.map((c) => c.comparisons).sort()).toEqual([0, 2]);
    expect(await count("SELECT count(*) AS n FROM conversation_archive")).toBe(1);
    expect((await env.ARCHIVE.list({ prefix: "messages/" })).objects).toHaveLength(1);
  });

  it("drops idempotency keys older than the window, oldest first, and keeps the rest", async () => {
    const now = Date.now();
    const insert = env.DB.prepare(
      "INSERT INTO idempotency_keys (key, comparison_id, response, created_at) VALUES (?, 'c', '{}', ?)",
    );
    await env.DB.batch([
      insert.bind("old-1", now - (HOURS + 3) * HOUR_MS),
      insert.bind("old-2", now - (HOURS + 2) * HOUR_MS),
      insert.bind("young", now - HOURS * HOUR_MS),
    ]);
    expect(await dropIdempotencyKeys(env.DB, now - (HOURS + 1) * HOUR_MS)).toBe(2);
    const left = await env.DB.prepare(
      "SELECT key FROM idempotency_keys WHERE key IN ('old-1', 'old-2', 'young')",
    ).all();
    expect(left.results).toEqual([{ key: "young" }]);
  });

  it("answers 409 for a vote or a ranking older than the window, and changes nothing", async () => {
    const detail = await readyComparison(["openai:pool-gpt", "anthropic:pool-claude"]);
    const id = detail.comparison.id;
    const cast = await castVote(id, "left");
    const room = env.COMPARISON_ROOM.get(env.COMPARISON_ROOM.idFromName(id));
    await runInDurableObject(room, (instance: ComparisonRoom) => {
      (instance as unknown as { record: ComparisonRecord }).record.votes[0].createdAt =
        Date.now() - (HOURS + 1) * HOUR_MS;
    });
    const res = await withdrawVote(cast.voteId, cast.receipt);
    expect(res.status).toBe(409);
    expect(await errorOf(res)).toMatchObject({
      code: "final",
      message: expect.stringMatching(/older than 720 hours \(QUORUM_ARCHIVE_AFTER_HOURS\)/),
    });
    expect(await count(`SELECT count(*) AS n FROM battles WHERE vote_id = '${cast.voteId}'`)).toBe(1);

    const runId = await createRun({
      question: "Name three primes.",
      models: [{ id: "demo:concise" }, { id: "demo:thorough" }, { id: "demo:skeptic" }],
    });
    await finished(runId);
    const judged = await count(`SELECT count(*) AS n FROM battles WHERE run_id = '${runId}'`);
    expect(judged).toBeGreaterThan(0);
    await runInDurableObject(env.RUN_ROOM.get(env.RUN_ROOM.idFromName(runId)), (instance: RunRoom) => {
      (instance as unknown as { record: RunRecord }).record.createdAt = Date.now() - (HOURS + 1) * HOUR_MS;
    });
    const again = await client.runs[":id"].evaluate.$post({ param: { id: runId } });
    expect(again.status).toBe(409);
    expect((await errorOf(again)).message).toMatch(/This run is older than 720 hours/);
    expect(await count(`SELECT count(*) AS n FROM battles WHERE run_id = '${runId}'`)).toBe(judged);
  });

  it("says what to set when archiving is asked for but off or unbound, and a pass with nothing old enough moves nothing", async () => {
    const off = await app.request(
      "/api/battles/archive",
      { method: "POST" },
      { ...env, QUORUM_ARCHIVE_AFTER_HOURS: "" },
    );
    expect(off.status).toBe(409);
    expect(await errorOf(off)).toMatchObject({
      code: "archive_off",
      message: expect.stringMatching(/set QUORUM_ARCHIVE_AFTER_HOURS/),
    });
    const unbound = await app.request("/api/battles/archive", { method: "POST" }, { ...env, ARCHIVE: undefined });
    expect(unbound.status).toBe(409);
    expect((await errorOf(unbound)).message).toMatch(/\[\[r2_buckets\]\] block of wrangler.toml/);
    const recent = simulateBattles({ m: 1000, n: 1000 }, 10_001, 9, Date.now() / 1000 - 60);
    await importLines(recent.slice(0, 10_000), "?importId=recent&offset=0");
    await importLines(recent.slice(10_000), "?importId=recent&offset=10000");
    const res = await client.battles.archive.$post();
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      pass: {
        segments: 0,
        battles: 0,
        stopped: null,
        comparisons: 0,
        messages: 0,
        comparisonRows: 0,
        idempotencyKeys: 0,
      },
      archive: {
        segments: 0,
        battles: 0,
        modelVotes: 0,
        conversations: 0,
        messages: 0,
        comparisonRows: 0,
        throughRowid: 0,
        oldest: null,
        newest: null,
      },
    });
    expect(await count("SELECT count(*) AS n FROM battles")).toBe(10_001);
  });
});
