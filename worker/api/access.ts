/**
 * Who may use the API. With APP_TOKEN set, every /api route wants it: `Authorization: Bearer …` over HTTP,
 * and for WebSockets (whose browser API can't set headers) the subprotocol `quorum-token.<base64url>`, so the
 * token never sits in a URL or a log. Without APP_TOKEN only this machine may call (a fresh deploy is never an
 * open door to the owner's keys). State-changing requests and socket upgrades from another site's page are
 * refused, since every tab can reach localhost. A share link's routes are the one exception to the token and
 * the host rule (never to the cross-site one).
 *
 * "This machine" is decided from what no client can forge. Under `wrangler dev` a client may send its own
 * CF-Connecting-IP (the local proxy fills it in only when absent) and its own Host, so neither proves
 * anything: what does is the address the server listens on, which `npm start` hands the Worker as
 * QUORUM_LISTEN. A loopback listener can only be reached from this machine; any other listener needs the
 * token. Deployed, QUORUM_LISTEN is unset and the host is never a loopback name, so the token is required.
 */
import { createMiddleware } from "hono/factory";
import { TOKEN_PROTOCOL_PREFIX } from "../shared/socket-protocol";
import { errorBody } from "./errors";
import { baseSettings } from "../shared/config";

const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]", "::1"]);
const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);
/** A share link's two routes (api/shares.ts): its token is the whole permission, so they need neither APP_TOKEN nor this machine. */
const SHARED_ROUTE = /^\/api\/shared\/[A-Za-z0-9_-]+(?:\/ws)?$/;

/** A loopback name or address: `localhost` (and `*.localhost`), 127.0.0.0/8, ::1. */
export function isLoopback(host: string): boolean {
  const h = host.trim().toLowerCase();
  return LOOPBACK_HOSTS.has(h) || h.endsWith(".localhost") || /^127(\.\d{1,3}){3}$/.test(h) || h === "::ffff:127.0.0.1";
}

/** Why this Quorum can't serve without a token, or null when it may: `listen` is QUORUM_LISTEN. */
export function localRefusal(url: URL, listen: string | null | undefined): string | null {
  const listener = listen?.trim();
  if (!listener)
    return "This Quorum has no access token and doesn't know it is reachable from this machine only, so it refuses every API call (your provider keys would be open to anyone). Run it with `npm start` (which listens on 127.0.0.1), or set an access token: `npx wrangler secret put APP_TOKEN` when deployed, APP_TOKEN in .dev.vars locally; then enter it in the page.";
  if (!isLoopback(listener))
    return `This Quorum listens on ${listener}, where other machines can reach it, and has no access token, so it refuses every API call (your provider keys would be open to anyone). Set APP_TOKEN in .dev.vars and restart, then enter it in the page; or run \`npm start\` without HOST to serve this machine only.`;
  // The listener is loopback, so the client is on this machine; a name other than a loopback one means a page
  // reached us through DNS rebinding, and is refused too.
  if (!isLoopback(url.hostname))
    return `This Quorum serves this machine only and was reached as ${url.hostname}: open it at http://localhost:${url.port || "8787"}, or set an APP_TOKEN to serve other names.`;
  return null;
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
    return c.json(
      errorBody(
        "cross_origin",
        `Requests from another site (${origin}) are refused: use Quorum's own page at ${url.origin}.`,
      ),
      403,
    );

  if ((c.req.method === "GET" || c.req.method === "HEAD") && SHARED_ROUTE.test(url.pathname)) return next();

  const { appToken: token, listen } = baseSettings(c.env);
  if (!token) {
    const refusal = localRefusal(url, listen);
    return refusal === null ? next() : c.json(errorBody("app_token_required", refusal), 403);
  }
  const given = upgrade
    ? (socketToken(c.req.header("Sec-WebSocket-Protocol")) ?? bearer(c.req.header("Authorization")))
    : bearer(c.req.header("Authorization"));
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
