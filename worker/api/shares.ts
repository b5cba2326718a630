/**
 * Read-only share links. The owner makes one for a run or a comparison (`POST …/:id/share`, guarded like
 * every route); its unguessable token then opens that item and nothing else, through `GET /api/shared/:token`
 * and its socket — the only routes access.ts lets through without APP_TOKEN. D1 keeps the token's SHA-256,
 * never the token, so a leaked database opens no link; the token is shown once, at creation.
 */
import { Hono } from "hono";
import { describeRoute } from "hono-openapi";
import { openDb, runStatusOf } from "../db/queries";
import {
  insertShare,
  liveShareByHash,
  liveSharesOf,
  revokeShare,
  type ShareKind,
  type ShareRow,
} from "../db/share-queries";
import { SHARE_HEADER } from "../rooms/room";
import { wsQuery } from "../shared/requests";
import { shareCreated, sharedItem, shareList, shareRevoked } from "../shared/responses";
import { comparisonDetail, comparisonRoom } from "./comparisons";
import { ApiError, notFound } from "./errors";
import { knownId } from "./item-ids";
import { errorResponses, jsonResponse, pathParam } from "./openapi-describe";
import { runDetail } from "./runs";
import { connectRoom, requireUpgrade } from "./sockets";
import { validate } from "./validate";

/** 32 random bytes in base64url: 43 characters. */
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

function newToken(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");
}

/** The token's SHA-256 in hex: what D1 stores and looks a link up by. */
export async function hashToken(token: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(token)));
  return Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
}

const WHAT: Record<ShareKind, string> = { run: "Run", comparison: "Comparison" };

/**
 * A run by its D1 row; a comparison by its room, which holds it from its first moment to after its row is
 * archived. `id` is one the server made (a route's is checked by knownId; a link's comes from D1).
 */
async function itemExists(env: Env, kind: ShareKind, id: string): Promise<boolean> {
  return kind === "run"
    ? (await runStatusOf(openDb(env.DB), id)) !== null
    : (await comparisonRoom(env, id).detail()) !== null;
}

/** A link's item: its id was checked when the link was made. */
const roomOf = (env: Env, share: ShareRow) =>
  share.kind === "run" ? env.RUN_ROOM.get(env.RUN_ROOM.idFromName(share.itemId)) : comparisonRoom(env, share.itemId);

const listed = (s: ShareRow) => ({ id: s.id, kind: s.kind, itemId: s.itemId, createdAt: s.createdAt });

/** The share routes of one kind of item as the OpenAPI document (openapi.ts) describes them. */
function describedShares(kind: ShareKind) {
  const itemId = pathParam("id", `The ${kind}'s id.`);
  return {
    create: describeRoute({
      tags: ["Shares"],
      summary: `Make a read-only share link to a ${kind}`,
      description: "The token is shown this once; the server keeps only its hash.",
      parameters: [itemId],
      responses: { 201: jsonResponse(shareCreated, "The link."), ...errorResponses(404) },
    }),
    list: describeRoute({
      tags: ["Shares"],
      summary: `The ${kind}'s live share links (without their tokens)`,
      parameters: [itemId],
      responses: { 200: jsonResponse(shareList, "The links."), ...errorResponses(404) },
    }),
  };
}

/** `POST /:id/share` and `GET /:id/shares` for one kind of item, mounted beside its own routes. */
function shareRoutes(kind: ShareKind) {
  const described = describedShares(kind);
  return new Hono<{ Bindings: Env }>()
    .post("/:id/share", described.create, async (c) => {
      const itemId = await knownId(c, kind);
      if (!(await itemExists(c.env, kind, itemId))) throw notFound(WHAT[kind]);
      const token = newToken();
      const share = { id: crypto.randomUUID(), kind, itemId, createdAt: Date.now() };
      await insertShare(openDb(c.env.DB), { ...share, tokenHash: await hashToken(token) });
      return c.json({ ...listed(share), token, url: `${new URL(c.req.url).origin}/shared/${token}` }, 201);
    })
    .get("/:id/shares", described.list, async (c) => {
      const itemId = await knownId(c, kind);
      if (!(await itemExists(c.env, kind, itemId))) throw notFound(WHAT[kind]);
      return c.json({ shares: (await liveSharesOf(openDb(c.env.DB), kind, itemId)).map(listed) });
    });
}

export const runSharesApi = shareRoutes("run");
export const comparisonSharesApi = shareRoutes("comparison");

const describedRevoke = describeRoute({
  tags: ["Shares"],
  summary: "Revoke a share link: it stops working at once, for sockets already open through it too",
  parameters: [pathParam("shareId", "The link's id (not its token).")],
  responses: { 200: jsonResponse(shareRevoked, "The link, revoked."), ...errorResponses(404) },
});

/** `DELETE /api/shares/:shareId`: the link stops working at once, for sockets already open through it too. */
export const sharesApi = new Hono<{ Bindings: Env }>().delete("/:shareId", describedRevoke, async (c) => {
  const revoked = await revokeShare(openDb(c.env.DB), c.req.param("shareId"), Date.now());
  if (!revoked) throw notFound("Share link");
  // Closed again on a repeat, in case the first call stopped between D1 and the room.
  await roomOf(c.env, revoked.share).closeShared(revoked.share.id);
  if (!revoked.revokedNow)
    throw new ApiError(
      404,
      "not_found",
      "This share link was already revoked; it opens nothing. Make a new one with Share if you need it again.",
    );
  return c.json({ ...listed(revoked.share), revoked: true as const });
});

const deadLink = () => notFound("Share link");

/**
 * The live link a token names, or a 404 that says nothing of why (unknown, revoked, malformed, item deleted).
 * The lookup is one indexed equality on the hash, so its time does not depend on how close a guess is.
 */
async function openLink(env: Env, token: string): Promise<ShareRow> {
  const share = await liveShareByHash(openDb(env.DB), await hashToken(token));
  if (!share || !TOKEN_PATTERN.test(token) || !(await itemExists(env, share.kind, share.itemId))) throw deadLink();
  return share;
}

const describedShared = describeRoute({
  tags: ["Shares"],
  summary: "Open a share link: the run or comparison it shows, as its own route answers",
  description: "Needs neither APP_TOKEN nor this machine: the token is the whole permission.",
  parameters: [pathParam("token", "The link's token.")],
  responses: { 200: jsonResponse(sharedItem, "The shared item."), ...errorResponses(404) },
});

/** `GET /api/shared/:token` and `GET /api/shared/:token/ws`: exactly what the item's own routes answer. */
export const sharedApi = new Hono<{ Bindings: Env }>()
  .get("/:token", describedShared, async (c) => {
    const share = await openLink(c.env, c.req.param("token"));
    c.header("Cache-Control", "no-store");
    c.header("X-Robots-Tag", "noindex");
    try {
      if (share.kind === "run") return c.json({ kind: "run" as const, item: await runDetail(c.env, share.itemId) });
      return c.json({ kind: "comparison" as const, item: await comparisonDetail(c.env, share.itemId) });
    } catch (err) {
      // The item went between the two reads: the same answer as any dead link.
      if (err instanceof ApiError && err.status === 404) throw deadLink();
      throw err;
    }
  })
  .get("/:token/ws", validate("query", wsQuery), async (c) => {
    requireUpgrade(c);
    const share = await openLink(c.env, c.req.param("token"));
    const upgrade = new Request(c.req.raw);
    upgrade.headers.set(SHARE_HEADER, share.id);
    return connectRoom(roomOf(c.env, share), upgrade, deadLink);
  });
