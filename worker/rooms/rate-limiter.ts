/**
 * RateLimiter: token buckets per client and action (creating runs, comparisons, votes), so one client
 * can't flood the owner's keys or the leaderboard. Clients are spread over SHARDS limiters by a hash of
 * their id (`limiterFor`), so a new client costs a call to a limiter already running, never a Durable
 * Object of its own. It behaves the same under `wrangler dev` and deployed, and its limits come with
 * each request (QUORUM_RATE_*), so benchmarks can raise them. Buckets live in memory: an evicted limiter
 * starts full again, which errs towards serving. A busy client's Worker may take several tokens at once and
 * spend them itself (see api/rate-limit.ts): they leave the bucket when taken, spent or not, so a client is
 * never served more than the bucket gives.
 */
import { DurableObject } from "cloudflare:workers";
import { shardName } from "./shard";

interface Bucket {
  tokens: number;
  at: number;
}

export type Take = { ok: true; granted: number } | { ok: false; retryAfterMs: number };

/**
 * Enough that none is busy at docs/scaling.md's 10,000 votes/s (≈ 300 calls/s each, fewer with leases),
 * few enough that the limiters stay warm. Changing it only moves clients to a full bucket.
 */
export const SHARDS = 32;

/** Whatever its limit, an empty bucket is full again a minute later: one untouched that long is dropped, since a missing bucket is a full one. */
const REFILL_MS = 60_000;

/** The limiter that holds `client`'s buckets. */
export function limiterFor(env: Env, client: string): DurableObjectStub<RateLimiter> {
  return env.RATE_LIMITER.get(env.RATE_LIMITER.idFromName(shardName(client, SHARDS)));
}

export class RateLimiter extends DurableObject<Env> {
  /** By client and action, least recently used first. */
  private readonly buckets = new Map<string, Bucket>();

  /**
   * Takes up to `upTo` tokens from `client`'s bucket for `action`, `perMinute` tokens refilled continuously:
   * as many whole tokens as it holds (at least one), or none and how long until one is there.
   */
  async take(client: string, action: string, perMinute: number, upTo = 1): Promise<Take> {
    const now = Date.now();
    this.dropFull(now);
    const key = `${client}\n${action}`;
    const rate = perMinute / 60_000;
    const bucket = this.buckets.get(key) ?? { tokens: perMinute, at: now };
    bucket.tokens = Math.min(perMinute, bucket.tokens + (now - bucket.at) * rate);
    bucket.at = now;
    this.buckets.delete(key);
    this.buckets.set(key, bucket);
    if (bucket.tokens >= 1) {
      const granted = Math.max(1, Math.min(Math.floor(upTo), Math.floor(bucket.tokens)));
      bucket.tokens -= granted;
      return { ok: true, granted };
    }
    return { ok: false, retryAfterMs: Math.ceil((1 - bucket.tokens) / rate) };
  }

  /** Whether this limiter holds a bucket for `client`'s `action` (for tests: a missing one is full). */
  async holds(client: string, action: string): Promise<boolean> {
    return this.buckets.has(`${client}\n${action}`);
  }

  private dropFull(now: number) {
    for (const [key, bucket] of this.buckets) {
      if (now - bucket.at < REFILL_MS) return;
      this.buckets.delete(key);
    }
  }
}
