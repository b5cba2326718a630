/** The D1 side of the server's own secrets: one row per name, written once, never shown. */
import { eq } from "drizzle-orm";
import type { Db } from "./queries";
import * as schema from "./schema";

/**
 * The secret stored under `name`, storing `candidate` first if there is none. Every isolate races with its own
 * candidate; the first insert wins and every isolate reads back that one.
 */
export async function keptSecret(db: Db, name: string, candidate: string): Promise<string> {
  const [, rows] = await db.batch([
    db.insert(schema.serverSecrets).values({ name, value: candidate }).onConflictDoNothing(),
    db
      .select({ value: schema.serverSecrets.value })
      .from(schema.serverSecrets)
      .where(eq(schema.serverSecrets.name, name)),
  ]);
  return rows[0].value;
}
