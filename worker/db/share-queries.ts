/** The D1 side of share links: rows keyed by the token's hash, never the token. */
import { and, asc, eq, isNull } from "drizzle-orm";
import type { Db } from "./queries";
import * as schema from "./schema";

export type ShareKind = "run" | "comparison";

export interface ShareRow {
  id: string;
  kind: ShareKind;
  itemId: string;
  createdAt: number;
}

const columns = {
  id: schema.shares.id,
  kind: schema.shares.kind,
  itemId: schema.shares.itemId,
  createdAt: schema.shares.createdAt,
};

export async function insertShare(db: Db, share: ShareRow & { tokenHash: string }): Promise<void> {
  await db.insert(schema.shares).values(share);
}

/** The live link whose token hashes to `tokenHash`, if any: one indexed equality, whatever the token. */
export async function liveShareByHash(db: Db, tokenHash: string): Promise<ShareRow | null> {
  const row = await db
    .select(columns)
    .from(schema.shares)
    .where(and(eq(schema.shares.tokenHash, tokenHash), isNull(schema.shares.revokedAt)))
    .get();
  return row ?? null;
}

/** An item's live links, oldest first. */
export async function liveSharesOf(db: Db, kind: ShareKind, itemId: string): Promise<ShareRow[]> {
  return db
    .select(columns)
    .from(schema.shares)
    .where(and(eq(schema.shares.kind, kind), eq(schema.shares.itemId, itemId), isNull(schema.shares.revokedAt)))
    .orderBy(asc(schema.shares.createdAt), asc(schema.shares.id))
    .all();
}

/**
 * Revokes a link: the link and whether this call revoked it (false: it was revoked before), or null when
 * no link has this id.
 */
export async function revokeShare(
  db: Db,
  id: string,
  at: number,
): Promise<{ share: ShareRow; revokedNow: boolean } | null> {
  const revoked = await db
    .update(schema.shares)
    .set({ revokedAt: at })
    .where(and(eq(schema.shares.id, id), isNull(schema.shares.revokedAt)))
    .returning(columns)
    .get();
  if (revoked) return { share: revoked, revokedNow: true };
  const row = await db.select(columns).from(schema.shares).where(eq(schema.shares.id, id)).get();
  return row ? { share: row, revokedNow: false } : null;
}
