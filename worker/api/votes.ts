/** /api/votes/:voteId — withdrawing a vote is the only way to change one (then vote again). */
import { Hono } from "hono";
import { comparisonOfVote } from "../db/arena-queries";
import { openDb } from "../db/queries";
import { comparisonRoom, unwrap } from "./comparisons";
import { notFound } from "./errors";

export const votesApi = new Hono<{ Bindings: Env }>().delete("/:voteId", async (c) => {
  const voteId = c.req.param("voteId");
  const comparisonId = await comparisonOfVote(openDb(c.env.DB), voteId);
  if (!comparisonId) throw notFound("Vote");
  return c.json({ ...unwrap(await comparisonRoom(c.env, comparisonId).withdraw(voteId)), comparisonId, withdrawn: true as const });
});
