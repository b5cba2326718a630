/**
 * Per-client limits on what spends money or moves ratings: 429 with Retry-After past them.
 *
 * The client's RateLimiter shard holds the buckets; asking it costs an RPC per request. To spare a busy client
 * most of them, this isolate keeps a lease per (client, action): when the client's previous request came
 * within LEASE_MS, it takes up to a second's refill at once and spends the spare tokens here, for LEASE_MS.
 * Every token spent was taken from the bucket first, so no client passes its limit; leased tokens left
 * unspent expire with the lease and are lost, so a burst that stops may be held to slightly less.
 */
import type { Context } from "hono";
import { limiterFor } from "../rooms/rate-limiter";
import { ApiError } from "./errors";
import { baseSettings, settings } from "../shared/config";

export type LimitedAction = "runs" | "comparisons" | "votes" | "completions";

/** Where each limit is set, for the refusal's message. */
const VARIABLE: Record<LimitedAction, string> = {
  runs: "QUORUM_RATE_RUNS",
  comparisons: "QUORUM_RATE_COMPARISONS",
  votes: "QUORUM_RATE_VOTES",
  completions: "QUORUM_RATE_COMPLETIONS",
};

export const LEASE_MS = 1_000;
/** Enough for every client busy at once in one isolate; past it the least recently seen lease goes. */
const MAX_LEASES = 4_096;

/** Tokens this isolate took from a client's bucket for one action (at its limit of `perMinute`), spendable until `until`. */
interface Lease {
  perMinute: number;
  tokens: number;
  until: number;
  lastAt: number;
}

/** In insertion order, least recently seen first. */
const leases = new Map<string, Lease>();

/**
 * Who is calling, from what the server knows and the client can't choose: deployed, the address Cloudflare
 * reports (hashed, never kept as it is); under `wrangler dev` (QUORUM_LISTEN set), where any header is the
 * client's own, one client `local`. X-Client-Id never widens that: only with QUORUM_TRUST_CLIENT_ID (tests and
 * benches playing many clients) does it name a client of its own within its address.
 */
export async function clientIdOf(c: Context<{ Bindings: Env }>): Promise<string> {
  const address = baseSettings(c.env).listen
    ? "local"
    : await hashedAddress(c.req.header("CF-Connecting-IP") ?? "unknown");
  const given = settings(c.env).trustClientId ? c.req.header("X-Client-Id")?.trim() : undefined;
  return given ? `${address}/client:${given.slice(0, 200)}` : address;
}

async function hashedAddress(ip: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(`quorum-client:${ip}`));
  return `ip:${[...new Uint8Array(digest).slice(0, 12)].map((b) => b.toString(16).padStart(2, "0")).join("")}`;
}

export async function rateLimit(c: Context<{ Bindings: Env }>, action: LimitedAction, clientId: string): Promise<void> {
  const perMinute = settings(c.env).rates[action];
  const key = `${action}\n${clientId}`;
  const now = Date.now();
  const lease = leaseFor(key, perMinute);
  const busy = now - lease.lastAt < LEASE_MS;
  lease.lastAt = now;
  if (lease.tokens >= 1 && now < lease.until) {
    lease.tokens -= 1;
    return;
  }
  const taken = await limiterFor(c.env, clientId).take(
    clientId,
    action,
    perMinute,
    busy ? Math.max(1, Math.floor(perMinute / 60)) : 1,
  );
  if (taken.ok) {
    // A lease dropped while we waited (the limit changed, or too many clients) takes no spare tokens: they are lost, never overspent.
    if (taken.granted > 1 && leases.get(key) === lease) {
      const at = Date.now();
      lease.tokens = (at < lease.until ? lease.tokens : 0) + taken.granted - 1;
      lease.until = at + LEASE_MS;
    }
    return;
  }
  const seconds = Math.max(1, Math.ceil(taken.retryAfterMs / 1000));
  c.header("Retry-After", String(seconds));
  throw new ApiError(
    429,
    "rate_limited",
    `Too many ${action} from you: at most ${perMinute} a minute (${VARIABLE[action]}). Try again in ${seconds} s.`,
  );
}

/** The lease for `key` at this limit, now the most recently seen; one held at another limit is dropped, tokens and all. */
function leaseFor(key: string, perMinute: number): Lease {
  const held = leases.get(key);
  leases.delete(key);
  const lease = held?.perMinute === perMinute ? held : { perMinute, tokens: 0, until: 0, lastAt: -Infinity };
  leases.set(key, lease);
  if (leases.size > MAX_LEASES) leases.delete(leases.keys().next().value!);
  return lease;
}
