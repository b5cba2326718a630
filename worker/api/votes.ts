/** /api/votes/:voteId — withdrawing a vote is the only way to change one (then vote again); it takes the vote's receipt. */
import { Hono } from "hono";
import { comparisonOfVote } from "../db/arena-queries";
import { openDb } from "../db/queries";
import { comparisonRoom, unwrap } from "./comparisons";
import { ApiError, notFound } from "./errors";
import { arenaSettings } from "../arena/settings";
import { requireWithdrawalRight } from "./receipts";

export const votesApi = new Hono<{ Bindings: Env }>().delete("/:voteId", async (c) => {
  const voteId = c.req.param("voteId");
  // Before any lookup: without the right to withdraw it, a caller learns nothing of the vote either.
  await requireWithdrawalRight(c, voteId);
  const comparisonId = await comparisonOfVote(openDb(c.env.DB), voteId);
  if (!comparisonId) {
    const { archiveAfterHours } = arenaSettings(c.env);
    // An archived vote's rows are in R2 now: say so rather than only "not found".
    if (archiveAfterHours > 0)
      throw new ApiError(
        404,
        "not_found",
        `Vote not found: it may have been withdrawn, or be older than ${archiveAfterHours} hours (QUORUM_ARCHIVE_AFTER_HOURS) and archived, which makes it final.`,
      );
    throw notFound("Vote");
  }
  return c.json({
    ...unwrap(await comparisonRoom(c.env, comparisonId).withdraw(voteId)),
    comparisonId,
    withdrawn: true as const,
  });
});
