/**
 * Who may use the API. With APP_TOKEN set, every /api route wants it: `Authorization: Bearer …` over HTTP,
 * and for WebSockets (whose browser API can't set headers) the subprotocol `quorum-token.<base64url>`, so the
 * token never sits in a URL or a log. Without APP_TOKEN only this machine may call (a fresh deploy is never an
 * open door to the owner's keys). State-changing requests and socket upgrades from another site's page are
 * refused, since every tab can reach localhost. A share link's routes are the one exception to the token and
 * the host rule (never to the cross-site one).
 */
import { createMiddleware } from "hono/factory";
import { TOKEN_PROTOCOL_PREFIX } from "../shared/socket-protocol";
import { errorBody } from "./errors";

const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]", "::1"]);
const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);
/** A share link's two routes (api/shares.ts): its token is the whole permission, so they need neither APP_TOKEN nor this machine. */
const SHARED_ROUTE = /^\/api\/shared\/[A-Za-z0-9_-]+(?:\/ws)?$/;

function isLoopbackAddress(address: string): boolean {
  return address === "::1" || address === "127.0.0.1" || address.startsWith("127.") || address === "::ffff:127.0.0.1";
}

/** The request came to a loopback name from a loopback address (when the runtime says which). */
export function isLocalRequest(url: URL, clientIp: string | undefined): boolean {
  const host = url.hostname.toLowerCase();
  const loopbackHost = LOOPBACK_HOSTS.has(host) || host.endsWith(".localhost") || /^127(\.\d{1,3}){3}$/.test(host);
  return loopbackHost && (clientIp === undefined || clientIp === "" || isLoopbackAddress(clientIp));
}

function bearer(header: string | undefined): string | null {
  const m = /^Bearer\s+(.+)$/i.exec(header?.trim() ?? "");
  return m ? m[1].trim() : null;
}

function socketToken(header: string | undefined): string | null {
  const offered = (header ?? "").split(",").map((p) => p.trim());
  const encoded = offered.find((p) => p.startsWith(TOKEN_PROTOCOL_PREFIX))?.slice(TOKEN_PROTOCOL_PREFIX.length);
  if (!encoded) return null;
  try {
    const binary = atob(encoded.replace(/-/g, "+").replace(/_/g, "/"));
    return new TextDecoder().decode(Uint8Array.from(binary, (ch) => ch.charCodeAt(0)));
  } catch {
    return null;
  }
}

/** Compares digests, so neither the length nor the content of the token leaks through timing. */
async function sameSecret(given: string, expected: string): Promise<boolean> {
  const digest = (s: string) => crypto.subtle.digest("SHA-256", new TextEncoder().encode(s));
  const [a, b] = (await Promise.all([digest(given), digest(expected)])).map((d) => new Uint8Array(d));
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a[i] ^ b[i];
  return diff === 0;
}

export const access = createMiddleware<{ Bindings: Env }>(async (c, next) => {
  const url = new URL(c.req.url);
  const upgrade = c.req.header("Upgrade")?.toLowerCase() === "websocket";
  const origin = c.req.header("Origin");
  if ((upgrade || !SAFE_METHODS.has(c.req.method)) && origin && origin !== url.origin)
    return c.json(errorBody("cross_origin", `Requests from another site (${origin}) are refused: use Quorum's own page at ${url.origin}.`), 403);

  if ((c.req.method === "GET" || c.req.method === "HEAD") && SHARED_ROUTE.test(url.pathname)) return next();

  const token = c.env.APP_TOKEN?.trim();
  if (!token) {
    if (isLocalRequest(url, c.req.header("CF-Connecting-IP"))) return next();
    return c.json(
      errorBody(
        "app_token_required",
        "This Quorum is reached from another machine and has no access token, so it refuses every API call (your provider keys would be open to anyone). Set one with `npx wrangler secret put APP_TOKEN` (or APP_TOKEN in .dev.vars), then enter it in the page.",
      ),
      403,
    );
  }
  const given = upgrade ? (socketToken(c.req.header("Sec-WebSocket-Protocol")) ?? bearer(c.req.header("Authorization"))) : bearer(c.req.header("Authorization"));
  if (given !== null && (await sameSecret(given, token))) return next();
  return c.json(
    errorBody(
      "unauthorized",
      given === null
        ? "This Quorum needs its access token: send `Authorization: Bearer <APP_TOKEN>` (the page asks for it once)."
        : "That access token is not this Quorum's APP_TOKEN. Check it and try again.",
    ),
    401,
  );
});
