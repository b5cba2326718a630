/**
 * RateLimiter: one Durable Object per client, a token bucket per action (creating runs, comparisons,
 * votes), so one client can't flood the owner's keys or the leaderboard. It behaves the same under
 * `wrangler dev` and deployed, and its limits come with each request (QUORUM_RATE_*), so benchmarks can
 * raise them. Buckets live in memory: an evicted limiter starts full again, which errs towards serving.
 */
import { DurableObject } from "cloudflare:workers";

interface Bucket {
  tokens: number;
  at: number;
}

export type Take = { ok: true } | { ok: false; retryAfterMs: number };

export class RateLimiter extends DurableObject<Env> {
  private readonly buckets = new Map<string, Bucket>();

  /** Takes one token from `action`'s bucket of `perMinute` tokens, refilled continuously. */
  async take(action: string, perMinute: number): Promise<Take> {
    const now = Date.now();
    const rate = perMinute / 60_000;
    const bucket = this.buckets.get(action) ?? { tokens: perMinute, at: now };
    bucket.tokens = Math.min(perMinute, bucket.tokens + (now - bucket.at) * rate);
    bucket.at = now;
    this.buckets.set(action, bucket);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return { ok: true };
    }
    return { ok: false, retryAfterMs: Math.ceil((1 - bucket.tokens) / rate) };
  }
}
