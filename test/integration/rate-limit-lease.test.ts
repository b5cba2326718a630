import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { Hono } from "hono";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import worker from "../../worker/index";
import { onError } from "../../worker/api/errors";
import { clientIdOf, LEASE_MS, rateLimit, type LimitedAction } from "../../worker/api/rate-limit";
import { limiterFor, RateLimiter, SHARDS } from "../../worker/rooms/rate-limiter";
import { errorOf, readyComparison } from "../helpers/arena";

/** Just the limiter in front of an empty answer, so a test can send hundreds of requests cheaply. */
const limited = new Hono<{ Bindings: Env }>()
  .post("/:action", async (c) => {
    await rateLimit(c, c.req.param("action") as LimitedAction, await clientIdOf(c));
    return c.body(null, 204);
  })
  .onError(onError);

const VARIABLE = {
  runs: "QUORUM_RATE_RUNS",
  comparisons: "QUORUM_RATE_COMPARISONS",
  votes: "QUORUM_RATE_VOTES",
  completions: "QUORUM_RATE_COMPLETIONS",
} as const;

function send(action: LimitedAction, client: string, perMinute: number): Promise<Response> {
  return Promise.resolve(
    limited.request(
      `/${action}`,
      { method: "POST", headers: { "X-Client-Id": client } },
      { ...env, [VARIABLE[action]]: String(perMinute) },
    ),
  );
}

/** Sends `count` requests one after another and returns their statuses. */
async function burst(action: LimitedAction, client: string, perMinute: number, count: number): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < count; i++) statuses.push((await send(action, client, perMinute)).status);
  return statuses;
}

/** The limiter runs in this isolate, so a frozen Date holds its buckets still too: no refill unless a test moves the clock. */
function freezeClock(at = new Date("2030-01-01T00:00:00Z")) {
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(at);
}

afterEach(() => {
  vi.restoreAllMocks();
  vi.useRealTimers();
});

describe("RateLimiter.take", () => {
  beforeEach(() => freezeClock());

  it("grants as many whole tokens as the bucket holds, at most the number asked, then refuses with the wait for one", async () => {
    const stub = limiterFor(env, "take-many");
    expect(await stub.take("take-many", "votes", 10, 4)).toEqual({ ok: true, granted: 4 });
    expect(await stub.take("take-many", "votes", 10, 4)).toEqual({ ok: true, granted: 4 });
    expect(await stub.take("take-many", "votes", 10, 4)).toEqual({ ok: true, granted: 2 });
    expect(await stub.take("take-many", "votes", 10, 4)).toEqual({ ok: false, retryAfterMs: 6_000 });
    // 9 s at 10 a minute refills a token and a half: one whole token is granted, and half a token's wait remains
    vi.advanceTimersByTime(9_000);
    expect(await stub.take("take-many", "votes", 10, 4)).toEqual({ ok: true, granted: 1 });
    expect(await stub.take("take-many", "votes", 10, 4)).toEqual({ ok: false, retryAfterMs: 3_000 });
  });

  it("takes one token when asked for none in particular, as before", async () => {
    const stub = limiterFor(env, "take-one");
    expect(await stub.take("take-one", "runs", 2)).toEqual({ ok: true, granted: 1 });
    expect(await stub.take("take-one", "runs", 2)).toEqual({ ok: true, granted: 1 });
    expect(await stub.take("take-one", "runs", 2)).toEqual({ ok: false, retryAfterMs: 30_000 });
  });
});

describe("limiter shards", () => {
  beforeEach(() => freezeClock());

  /** Client ids in the order tried until two land on the same shard. */
  function twoOnOneShard(): [string, string] {
    const seen = new Map<string, string>();
    for (let i = 0; ; i++) {
      const client = `client:shared-${i}`;
      const shard = limiterFor(env, client).id.toString();
      const other = seen.get(shard);
      if (other) return [other, client];
      seen.set(shard, client);
    }
  }

  it("spreads clients over all SHARDS limiters, none with more than twice its share", () => {
    const counts = new Map<string, number>();
    for (let i = 0; i < 3_200; i++) {
      const shard = limiterFor(env, `client:spread-${i}`).id.toString();
      counts.set(shard, (counts.get(shard) ?? 0) + 1);
    }
    expect(counts.size).toBe(SHARDS);
    expect(Math.max(...counts.values())).toBeLessThanOrEqual(2 * (3_200 / SHARDS));
  });

  it("keeps a bucket per client on a shared limiter: one client's empty bucket leaves the other's full", async () => {
    const [first, second] = twoOnOneShard();
    const stub = limiterFor(env, first);
    expect(await stub.take(first, "votes", 3, 3)).toEqual({ ok: true, granted: 3 });
    expect(await stub.take(first, "votes", 3)).toEqual({ ok: false, retryAfterMs: 20_000 });
    expect(await stub.take(second, "votes", 3, 3)).toEqual({ ok: true, granted: 3 });
  });

  it("drops a bucket a minute after its last use, when it is full again anyway, and keeps the ones used since", async () => {
    const [idle, busy] = twoOnOneShard();
    const stub = limiterFor(env, idle);
    expect(await stub.take(idle, "runs", 1)).toEqual({ ok: true, granted: 1 });
    expect(await stub.take(busy, "runs", 1)).toEqual({ ok: true, granted: 1 });
    vi.advanceTimersByTime(59_999);
    expect(await stub.take(busy, "runs", 1)).toEqual({ ok: false, retryAfterMs: 1 });
    expect(await stub.holds(idle, "runs")).toBe(true);
    vi.advanceTimersByTime(1);
    expect(await stub.take(busy, "votes", 1)).toEqual({ ok: true, granted: 1 });
    expect(await stub.holds(idle, "runs")).toBe(false);
    expect(await stub.holds(busy, "runs")).toBe(true);
    // the idle client's bucket comes back full, as it would have been
    expect(await stub.take(idle, "runs", 1)).toEqual({ ok: true, granted: 1 });
  });
});

describe("leased tokens in the Worker", () => {
  beforeEach(() => freezeClock());

  it.each(["runs", "comparisons", "votes"] as const)(
    "a client sending %s back to back is refused exactly past its perMinute, with the same 429",
    async (action) => {
      expect(await burst(action, `back-to-back-${action}`, 600, 600)).toEqual(Array(600).fill(204));
      const refused = await send(action, `back-to-back-${action}`, 600);
      expect(refused.status).toBe(429);
      // the bucket is empty and a token comes every 100 ms: Retry-After rounds up to a second, as before
      expect(refused.headers.get("Retry-After")).toBe("1");
      expect(await errorOf(refused)).toEqual({
        code: "rate_limited",
        message: `Too many ${action} from you: at most 600 a minute (${VARIABLE[action]}). Try again in 1 s.`,
      });
    },
  );

  it("asks the limiter once for the first request, then for a second's refill at a time while the client stays busy", async () => {
    const take = vi.spyOn(RateLimiter.prototype, "take");
    expect(await burst("votes", "busy", 600, 21)).toEqual(Array(21).fill(204));
    // the first request takes one; the second, within the lease window, takes 600 / 60 = 10 and spends one of them
    expect(take.mock.calls).toEqual([
      ["local/client:busy", "votes", 600, 1],
      ["local/client:busy", "votes", 600, 10],
      ["local/client:busy", "votes", 600, 10],
    ]);
  });

  it("never asks for more than one token at a time for a client that isn't busy", async () => {
    const take = vi.spyOn(RateLimiter.prototype, "take");
    for (let i = 0; i < 3; i++) {
      expect((await send("votes", "unhurried", 600)).status).toBe(204);
      vi.advanceTimersByTime(LEASE_MS);
    }
    expect(take.mock.calls).toEqual([
      ["local/client:unhurried", "votes", 600, 1],
      ["local/client:unhurried", "votes", 600, 1],
      ["local/client:unhurried", "votes", 600, 1],
    ]);
  });

  it("lets leased tokens expire unspent: after LEASE_MS the client asks the limiter again, and the unspent ones are gone from the bucket", async () => {
    const take = vi.spyOn(RateLimiter.prototype, "take");
    expect(await burst("votes", "expiring", 600, 5)).toEqual(Array(5).fill(204));
    expect(take.mock.calls).toEqual([
      ["local/client:expiring", "votes", 600, 1],
      ["local/client:expiring", "votes", 600, 10],
    ]);
    vi.advanceTimersByTime(LEASE_MS / 2);
    expect((await send("votes", "expiring", 600)).status).toBe(204);
    expect(take).toHaveBeenCalledTimes(2);
    vi.advanceTimersByTime(LEASE_MS / 2);
    expect((await send("votes", "expiring", 600)).status).toBe(204);
    // still busy (the last request was half a second ago), but the lease is over: ten more are taken
    expect(take.mock.calls.slice(2)).toEqual([["local/client:expiring", "votes", 600, 10]]);
    // 7 requests served, 21 tokens taken: after two seconds' refill (20) the bucket holds 600 − 21 + 20
    vi.advanceTimersByTime(LEASE_MS);
    expect(await limiterFor(env, "local/client:expiring").take("local/client:expiring", "votes", 600, 600)).toEqual({
      ok: true,
      granted: 599,
    });
  });

  it("keeps separate leases for separate clients and separate actions", async () => {
    expect(await burst("votes", "leaser", 600, 2)).toEqual([204, 204]);
    const take = vi.spyOn(RateLimiter.prototype, "take");
    expect((await send("votes", "other-client", 600)).status).toBe(204);
    expect((await send("comparisons", "leaser", 600)).status).toBe(204);
    expect((await send("votes", "leaser", 600)).status).toBe(204);
    // the other client and the other action each ask for their own first token; the leaser's vote spends its lease
    expect(take.mock.calls).toEqual([
      ["local/client:other-client", "votes", 600, 1],
      ["local/client:leaser", "comparisons", 600, 1],
    ]);
  });

  it("drops a lease when the configured limit changes rather than spending it under the new one", async () => {
    expect(await burst("votes", "reconfigured", 600, 2)).toEqual([204, 204]);
    const take = vi.spyOn(RateLimiter.prototype, "take");
    expect((await send("votes", "reconfigured", 1_200)).status).toBe(204);
    expect((await send("votes", "reconfigured", 1_200)).status).toBe(204);
    expect(take.mock.calls).toEqual([
      ["local/client:reconfigured", "votes", 1_200, 1],
      ["local/client:reconfigured", "votes", 1_200, 20],
    ]);
  });
});

describe("votes through the API", () => {
  it("accepts exactly QUORUM_RATE_VOTES votes from a client voting back to back, then answers 429", async () => {
    const { comparison } = await readyComparison(["openai:lease-a", "anthropic:lease-b"]);
    // at the comparison's own time: years later it would be closed (QUORUM_ARCHIVE_AFTER_HOURS) to new votes
    freezeClock(new Date());
    const take = vi.spyOn(RateLimiter.prototype, "take");
    const post = async () => {
      const ctx = createExecutionContext();
      const res = await worker.fetch(
        new Request(`http://127.0.0.1/api/comparisons/${comparison.id}/votes`, {
          method: "POST",
          // the same key each time: the room replays the first vote, so every vote past the limiter is a 201
          headers: { "content-type": "application/json", "X-Client-Id": "voter", "Idempotency-Key": "lease-vote" },
          body: JSON.stringify({ choice: "left" }),
        }),
        { ...env, QUORUM_RATE_VOTES: "120" },
        ctx,
      );
      await waitOnExecutionContext(ctx);
      return res;
    };
    const statuses: number[] = [];
    for (let i = 0; i < 120; i++) statuses.push((await post()).status);
    expect(statuses).toEqual(Array(120).fill(201));
    const refused = await post();
    expect(refused.status).toBe(429);
    expect(refused.headers.get("Retry-After")).toBe("1");
    expect((await errorOf(refused)).message).toBe(
      "Too many votes from you: at most 120 a minute (QUORUM_RATE_VOTES). Try again in 1 s.",
    );
    // one token, then two at a time (120 / 60) for the other 119 votes, then the refusal: 62 calls for 121 votes
    expect(take).toHaveBeenCalledTimes(62);
  });
});
