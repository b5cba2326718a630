/** A blind comparison counts in the leaderboard only once it is voted or its vote window has passed (issue 25, item 2). */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { computeStandings } from "../../worker/arena/standings";
import { openDb } from "../../worker/db/queries";
import { sweepUnfinished } from "../../worker/rooms/sweep";
import { leaderboardQuery } from "../../worker/shared/requests";
import { castVote, createComparison, leaderboard, rowsOf, settled } from "../helpers/arena";

const POOL = ["openai:pool-gpt", "anthropic:pool-claude", "google:pool-gemini"];
const HOUR = 3_600_000;

/** The pool's appearances in the default leaderboard, by model. */
async function poolAppearances(): Promise<Record<string, number>> {
  const rows = rowsOf(await leaderboard(), POOL);
  return Object.fromEntries(POOL.map((m) => [m, rows[m]?.appearances ?? 0]));
}

/** Seed 000's appearances, recounted from the comparisons that count, beside what the counters hold. */
async function countersAndRecount() {
  const counters = await env.DB.prepare(
    "SELECT category, model_id, appearances FROM model_appearances WHERE appearances <> 0 ORDER BY 1, 2",
  ).all();
  const recount = await env.DB.prepare(
    `SELECT c.category, m.model_id, count(*) AS appearances
     FROM comparisons x
     JOIN (SELECT id, model1_id AS model_id FROM comparisons UNION ALL SELECT id, model2_id FROM comparisons) m ON m.id = x.id
     JOIN (SELECT '' AS category UNION SELECT DISTINCT category FROM comparisons WHERE coalesce(category, '') <> '') c
       ON c.category = '' OR c.category = x.category
     WHERE x.counted_at IS NOT NULL
     GROUP BY 1, 2 ORDER BY 1, 2`,
  ).all();
  return { counters: counters.results, recount: recount.results };
}

async function blindReady(category: string): Promise<string> {
  const { id } = await createComparison({ prompt: "p", category });
  expect((await settled(id)).comparison.status).toBe("ready");
  return id;
}

describe("a blind comparison and the leaderboard", () => {
  it("names neither model before the vote, in its category or in the default leaderboard, and counts both once voted", async () => {
    const before = await poolAppearances();
    const id = await blindReady("zz1");

    const zz1 = await leaderboard({ category: "zz1" });
    expect(zz1.rows).toEqual([]);
    expect(zz1.categories).not.toContain("zz1");
    expect(await poolAppearances()).toEqual(before);
    expect((await leaderboard({ category: "zz1", includeFlagged: "true", source: "all" })).rows).toEqual([]);

    const { reveal } = await castVote(id, "left");
    const after = await leaderboard({ category: "zz1" });
    expect(Object.fromEntries(after.rows.map((r) => [r.modelId, r.appearances]))).toEqual({
      [reveal.left.modelId]: 1,
      [reveal.right.modelId]: 1,
    });
    expect(after.categories).toContain("zz1");
    const diff = await poolAppearances();
    expect(diff[reveal.left.modelId] - before[reveal.left.modelId]).toBe(1);
    expect(diff[reveal.right.modelId] - before[reveal.right.modelId]).toBe(1);
    const { counters, recount } = await countersAndRecount();
    expect(counters).toEqual(recount);
  });

  it("lets an unvoted comparison count once its vote window has passed, by the cron sweep", async () => {
    const id = await blindReady("zz2");
    await sweepUnfinished(env, Date.now() + HOUR / 2);
    expect((await leaderboard({ category: "zz2" })).rows).toEqual([]);

    await sweepUnfinished(env, Date.now() + HOUR + 1000);
    const counted = await leaderboard({ category: "zz2" });
    expect(counted.rows.map((r) => r.appearances)).toEqual([1, 1]);
    const row = await env.DB.prepare("SELECT counted_at FROM comparisons WHERE id = ?")
      .bind(id)
      .first<{ counted_at: number | null }>();
    expect(row?.counted_at).not.toBeNull();
    const { counters, recount } = await countersAndRecount();
    expect(counters).toEqual(recount);
  });

  it("lets an unvoted comparison count when a leaderboard read finds its window passed, and a vote afterwards counts it once", async () => {
    const id = await blindReady("zz3");
    const q = leaderboardQuery.parse({ category: "zz3" });
    expect((await computeStandings(env, openDb(env.DB), q, 0, HOUR)).standings.rows).toEqual([]);
    const released = await computeStandings(env, openDb(env.DB), q, 0, 0);
    expect(released.standings.rows.map((r) => r.appearances)).toEqual([1, 1]);

    await castVote(id, "tie");
    expect((await leaderboard({ category: "zz3" })).rows.map((r) => r.appearances)).toEqual([1, 1]);
    const { counters, recount } = await countersAndRecount();
    expect(counters).toEqual(recount);
  });

  it("counts a comparison that is not blind at once, as before", async () => {
    const { id } = await createComparison({ prompt: "p", category: "zz4", blind: false });
    await settled(id);
    expect((await leaderboard({ category: "zz4" })).rows.map((r) => r.appearances)).toEqual([1, 1]);
  });
});
