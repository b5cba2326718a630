/**
 * Vote receipts: the signature of a vote's id, returned with the vote (and with a replay of it) and asked for
 * to withdraw it, so only the page that voted can take a vote back. Derived each time, stored nowhere.
 */
import type { Context } from "hono";
import { ApiError } from "./errors";
import { sign, verify } from "./signing";
import { baseSettings } from "../shared/config";

export const RECEIPT_HEADER = "X-Vote-Receipt";

export const voteReceipt = (env: Env, voteId: string) => sign(env, "vote-receipt", voteId);

/**
 * Refuses a withdrawal that shows no right to it. With APP_TOKEN set, access.ts let the request in only with
 * the token, and its holder may withdraw any vote; without one, only the vote's receipt does.
 */
export async function requireWithdrawalRight(c: Context<{ Bindings: Env }>, voteId: string): Promise<void> {
  if (baseSettings(c.env).appToken) return;
  const given = c.req.header(RECEIPT_HEADER)?.trim();
  if (!given)
    throw new ApiError(
      401,
      "receipt_required",
      `Withdrawing a vote takes its receipt: send the \`receipt\` the vote was answered with in the ${RECEIPT_HEADER} header (the page that cast it keeps it).`,
    );
  if (!(await verify(c.env, "vote-receipt", voteId, given)))
    throw new ApiError(
      403,
      "wrong_receipt",
      `That ${RECEIPT_HEADER} is not this vote's receipt: only whoever cast the vote, with the receipt it was answered with, can withdraw it.`,
    );
}
