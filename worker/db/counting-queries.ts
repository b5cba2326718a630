/** When a comparison begins to count in the leaderboard's appearances (migration 0012's triggers follow `counted_at`). */
import type { Db } from "./queries";

/**
 * Lets every blind comparison whose vote window has passed unvoted count from now on: a window after both sides
 * last answered, or after its creation when they never both did. One UPDATE on the partial index of uncounted
 * rows, so it costs next to nothing when there is nothing to release. Returns how many it released.
 */
export async function releaseUncounted(db: Db, now: number, windowMs: number): Promise<number> {
  const cut = now - windowMs;
  const result = await db.$client
    .prepare(
      "UPDATE comparisons SET counted_at = ?1 WHERE counted_at IS NULL AND created_at <= ?2 AND coalesce(both_answered_at, created_at) <= ?2",
    )
    .bind(now, cut)
    .run();
  return result.meta.changes ?? 0;
}
