/**
 * Cached standings: served as they are while D1's data version holds, without even asking D1 within the
 * staleness window, and checked again at once after a write request answered by this isolate.
 */
import { env } from "cloudflare:workers";
import { SELF } from "cloudflare:test";
import { afterEach, describe, expect, it, vi } from "vitest";
import { computeStandings, noteLocalWrite } from "../../worker/arena/standings";
import { openDb } from "../../worker/db/queries";
import { leaderboardQuery } from "../../worker/shared/requests";

let next = 0;

/** A battle written straight to D1, as another isolate would write it: nothing here notices. */
async function battleElsewhere(category: string): Promise<void> {
  next++;
  await env.DB.prepare(
    "INSERT INTO battles (id, source, model_a, model_b, winner, category, tstamp) VALUES (?, 'import', 'openai:a', 'openai:b', 'model_a', ?, ?)",
  )
    .bind(`cache-${category}-${next}`, category, 1_700_000_000 + next)
    .run();
}

const query = (category: string) =>
  leaderboardQuery.parse({ source: "import", category, minAppearances: "1", rounds: "0" });
const totalOf = async (category: string, staleMs: number) =>
  (await computeStandings(env, openDb(env.DB), query(category), staleMs)).standings.totalBattles;

afterEach(() => {
  vi.useRealTimers();
});

describe("cached standings", () => {
  it("with no staleness allowed, a battle written elsewhere shows on the next read", async () => {
    await battleElsewhere("cache-exact");
    expect(await totalOf("cache-exact", 0)).toBe(1);
    await battleElsewhere("cache-exact");
    expect(await totalOf("cache-exact", 0)).toBe(2);
  });

  it("within the window the cached standings are served; past it the new battle shows", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date("2026-11-23T12:00:00Z"));
    await battleElsewhere("cache-window");
    expect(await totalOf("cache-window", 1000)).toBe(1);
    await battleElsewhere("cache-window");
    vi.setSystemTime(new Date("2026-11-23T12:00:00.999Z"));
    expect(await totalOf("cache-window", 1000)).toBe(1);
    vi.setSystemTime(new Date("2026-11-23T12:00:01Z"));
    expect(await totalOf("cache-window", 1000)).toBe(2);
  });

  it("a write request answered by this isolate makes the next read check D1 at once", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date("2026-11-23T13:00:00Z"));
    await battleElsewhere("cache-local");
    expect(await totalOf("cache-local", 60_000)).toBe(1);
    await battleElsewhere("cache-local");
    expect(await totalOf("cache-local", 60_000)).toBe(1);
    noteLocalWrite();
    expect(await totalOf("cache-local", 60_000)).toBe(2);
  });

  it("a version D1 confirms unchanged restarts the window and keeps the same standings", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date("2026-11-23T14:00:00Z"));
    await battleElsewhere("cache-same");
    const db = openDb(env.DB);
    const first = await computeStandings(env, db, query("cache-same"), 1000);
    vi.setSystemTime(new Date("2026-11-23T14:00:05Z"));
    const checked = await computeStandings(env, db, query("cache-same"), 1000);
    expect(checked).toBe(first);
    await battleElsewhere("cache-same");
    vi.setSystemTime(new Date("2026-11-23T14:00:05.500Z"));
    expect((await computeStandings(env, db, query("cache-same"), 1000)).standings.totalBattles).toBe(1);
    vi.setSystemTime(new Date("2026-11-23T14:00:06Z"));
    expect((await computeStandings(env, db, query("cache-same"), 1000)).standings.totalBattles).toBe(2);
  });
});

describe("the Worker", () => {
  it("counts any write request it answers, even a refused one, as a reason to check D1 again", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date("2026-11-23T15:00:00Z"));
    await battleElsewhere("cache-worker");
    expect(await totalOf("cache-worker", 60_000)).toBe(1);
    await battleElsewhere("cache-worker");
    expect((await SELF.fetch("http://localhost/api/leaderboard?rounds=0")).status).toBe(200);
    expect(await totalOf("cache-worker", 60_000)).toBe(1);
    expect((await SELF.fetch("http://localhost/api/votes/no-such-vote", { method: "DELETE" })).status).toBe(401);
    expect(await totalOf("cache-worker", 60_000)).toBe(2);
  });
});
