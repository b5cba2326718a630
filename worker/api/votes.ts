/** /api/votes/:voteId — withdrawing a vote is the only way to change one (then vote again); it takes the vote's receipt. */
import { Hono } from "hono";
import { describeRoute } from "hono-openapi";
import { comparisonOfVote } from "../db/arena-queries";
import { openDb } from "../db/queries";
import { settings } from "../shared/config";
import { voteWithdrawn } from "../shared/responses";
import { comparisonRoom } from "./comparisons";
import { ApiError, notFound } from "./errors";
import { errorResponses, jsonResponse, pathParam } from "./openapi-describe";
import { requireWithdrawalRight } from "./receipts";
import { unwrap } from "./room-result";

const describedWithdraw = describeRoute({
  tags: ["Comparisons"],
  summary: "Withdraw a vote (the only way to change one: then vote again)",
  description: "Without APP_TOKEN, only the vote's receipt (X-Vote-Receipt, from the vote's answer) may withdraw it.",
  parameters: [
    pathParam("voteId", "The vote's id, as the vote's answer gave it."),
    { in: "header", name: "X-Vote-Receipt", description: "The vote's receipt.", schema: { type: "string" } },
  ],
  responses: { 200: jsonResponse(voteWithdrawn, "The vote, withdrawn."), ...errorResponses(401, 403, 404, 409) },
});

export const votesApi = new Hono<{ Bindings: Env }>().delete("/:voteId", describedWithdraw, async (c) => {
  const voteId = c.req.param("voteId");
  // Before any lookup: without the right to withdraw it, a caller learns nothing of the vote either.
  await requireWithdrawalRight(c, voteId);
  const comparisonId = await comparisonOfVote(openDb(c.env.DB), voteId);
  if (!comparisonId) {
    const { archiveAfterHours } = settings(c.env).arena;
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
