/**
 * What the archive (db/archive.ts) means for the rest of the app. An archived battle is final: withdrawing a
 * vote or re-evaluating a run removes its battles from D1, which can't be done once they live in R2, so both
 * are refused once the battles are older than the window (`finalReason`), an hour before the archive may take
 * them. A comparison that old is closed (`closedReason`): it takes no vote, turn, retry or judge, each of which
 * would write to a row that may be gone.
 */
import {
  archiveBattles,
  archiveComparisons,
  archiveConversations,
  archiveCutoff,
  dropIdempotencyKeys,
  HOUR_MS,
  type ArchivePass,
  type ComparisonRowsPass,
  type ConversationPass,
} from "../db/archive";
import { settings } from "../shared/config";

/**
 * Why battles from `atMs` can no longer be removed (withdrawn, re-evaluated), since the archive may hold them;
 * null while they still can. `what` names the item in the message.
 */
export function finalReason(env: Env, atMs: number, what: string, now = Date.now()): string | null {
  const hours = pastWindow(env, atMs, now);
  return hours === null
    ? null
    : `${what} is older than ${hours} hours (QUORUM_ARCHIVE_AFTER_HOURS), so its battles are final: they may already be archived and can't be taken back.`;
}

/** Why a comparison created at `createdAtMs` takes nothing more (it may already be archived); null while it does. */
export function closedReason(env: Env, createdAtMs: number, now = Date.now()): string | null {
  const hours = pastWindow(env, createdAtMs, now);
  return hours === null
    ? null
    : `This comparison is older than ${hours} hours (QUORUM_ARCHIVE_AFTER_HOURS), so it is closed: it takes no more votes, turns, retries or judges, since it may already be archived. Start a new round.`;
}

/** The window in hours when archiving is on and `atMs` is before it; null otherwise. */
function pastWindow(env: Env, atMs: number, now: number): number | null {
  const { archiveAfterHours } = settings(env).arena;
  return archiveAfterHours > 0 && atMs < now - archiveAfterHours * HOUR_MS ? archiveAfterHours : null;
}

/** One archive pass with the configured window (the cron's, or the API's on request); null when archiving is off. */
export async function archivePass(
  env: Env,
  now = Date.now(),
): Promise<(ArchivePass & ConversationPass & ComparisonRowsPass & { idempotencyKeys: number }) | null> {
  const { archiveAfterHours } = settings(env).arena;
  const bucket: R2Bucket | undefined = env.ARCHIVE;
  if (!(archiveAfterHours > 0 && bucket)) return null;
  // In this order: a comparison's row may go only once its votes (with their battles) and messages have.
  return {
    ...(await archiveBattles(env.DB, bucket, archiveAfterHours, now)),
    ...(await archiveConversations(env.DB, bucket, archiveAfterHours, now)),
    ...(await archiveComparisons(env.DB, bucket, archiveAfterHours, now)),
    idempotencyKeys: await dropIdempotencyKeys(env.DB, archiveCutoff(archiveAfterHours, now)),
  };
}
