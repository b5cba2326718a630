/**
 * RateLimiter: one Durable Object per client, a token bucket per action (creating runs, comparisons,
 * votes), so one client can't flood the owner's keys or the leaderboard. It behaves the same under
 * `wrangler dev` and deployed, and its limits come with each request (QUORUM_RATE_*), so benchmarks can
 * raise them. Buckets live in memory: an evicted limiter starts full again, which errs towards serving.
 * A busy client's Worker may take several tokens at once and spend them itself (see api/rate-limit.ts):
 * they leave the bucket when taken, spent or not, so a client is never served more than the bucket gives.
 */
import { DurableObject } from "cloudflare:workers";

interface Bucket {
  tokens: number;
  at: number;
}

export type Take = { ok: true; granted: number } | { ok: false; retryAfterMs: number };

export class RateLimiter extends DurableObject<Env> {
  private readonly buckets = new Map<string, Bucket>();

  /**
   * Takes up to `upTo` tokens from `action`'s bucket of `perMinute` tokens, refilled continuously:
   * as many whole tokens as it holds (at least one), or none and how long until one is there.
   */
  async take(action: string, perMinute: number, upTo = 1): Promise<Take> {
    const now = Date.now();
    const rate = perMinute / 60_000;
    const bucket = this.buckets.get(action) ?? { tokens: perMinute, at: now };
    bucket.tokens = Math.min(perMinute, bucket.tokens + (now - bucket.at) * rate);
    bucket.at = now;
    this.buckets.set(action, bucket);
    if (bucket.tokens >= 1) {
      const granted = Math.max(1, Math.min(Math.floor(upTo), Math.floor(bucket.tokens)));
      bucket.tokens -= granted;
      return { ok: true, granted };
    }
    return { ok: false, retryAfterMs: Math.ceil((1 - bucket.tokens) / rate) };
  }
}
