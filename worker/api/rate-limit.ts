/** Per-client limits on what spends money or moves ratings: 429 with Retry-After past them. */
import type { Context } from "hono";
import { ApiError } from "./errors";

export type LimitedAction = "runs" | "comparisons" | "votes";

const DEFAULT_PER_MINUTE: Record<LimitedAction, number> = { runs: 30, comparisons: 60, votes: 120 };
const VARIABLE: Record<LimitedAction, "QUORUM_RATE_RUNS" | "QUORUM_RATE_COMPARISONS" | "QUORUM_RATE_VOTES"> = {
  runs: "QUORUM_RATE_RUNS",
  comparisons: "QUORUM_RATE_COMPARISONS",
  votes: "QUORUM_RATE_VOTES",
};

/** Who is calling: the client's own id, else a hash of its address (never the address itself). */
export async function clientIdOf(c: Context<{ Bindings: Env }>): Promise<string> {
  const given = c.req.header("X-Client-Id")?.trim();
  if (given) return `client:${given.slice(0, 200)}`;
  const ip = c.req.header("CF-Connecting-IP") ?? "local";
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(`quorum-client:${ip}`));
  return `ip:${[...new Uint8Array(digest).slice(0, 12)].map((b) => b.toString(16).padStart(2, "0")).join("")}`;
}

export async function rateLimit(c: Context<{ Bindings: Env }>, action: LimitedAction, clientId: string): Promise<void> {
  const raw = c.env[VARIABLE[action]];
  const configured = Number(raw);
  const perMinute = raw !== undefined && raw.trim() !== "" && configured > 0 ? configured : DEFAULT_PER_MINUTE[action];
  const limiter = c.env.RATE_LIMITER.get(c.env.RATE_LIMITER.idFromName(clientId));
  const taken = await limiter.take(action, perMinute);
  if (taken.ok) return;
  const seconds = Math.max(1, Math.ceil(taken.retryAfterMs / 1000));
  c.header("Retry-After", String(seconds));
  throw new ApiError(429, "rate_limited", `Too many ${action} from you: at most ${perMinute} a minute (${VARIABLE[action]}). Try again in ${seconds} s.`);
}
