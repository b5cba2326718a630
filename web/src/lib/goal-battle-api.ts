/** The goal battles API as the page calls it: launch, list, read, stop, vote, and the messages and socket of one. */
import { api, call } from "./api";
import type { GoalBattleBody } from "./goal-battle-form";
import type { GoalMessage, GoalSide, GoalVoteChoice } from "./goal-battle-types";

const battles = api["goal-battles"];
const param = (jobId: string) => ({ param: { jobId } });

export const launchGoalBattle = (json: GoalBattleBody) => call(battles.$post({ json }));

export const listGoalBattles = (cursor?: string | null) =>
  call(battles.$get({ query: cursor ? { limit: "20", cursor } : { limit: "20" } }));

export const getGoalBattle = (jobId: string) => call(battles[":jobId"].$get(param(jobId)));

export const stopGoalBattle = (jobId: string) => call(battles[":jobId"].stop.$post(param(jobId)));

export const voteGoalBattle = (jobId: string, choice: GoalVoteChoice) =>
  call(battles[":jobId"].votes.$post({ ...param(jobId), json: { choice } }));

/** Every message of one side, page by page. */
export async function sideMessages(jobId: string, side: GoalSide): Promise<GoalMessage[]> {
  const all: GoalMessage[] = [];
  let cursor: string | null = null;
  do {
    const query: { side: GoalSide; limit: string; cursor?: string } = { side, limit: "200" };
    if (cursor) query.cursor = cursor;
    const page = await call(battles[":jobId"].messages.$get({ ...param(jobId), query }));
    all.push(...page.messages);
    cursor = page.nextCursor;
  } while (cursor);
  return all;
}

/** Address of a goal battle's live event socket, resuming after `since` when given. */
export function goalBattleLiveUrl(jobId: string, since?: number): string {
  const url = battles[":jobId"].ws.$url({
    ...param(jobId),
    query: since === undefined ? {} : { since: String(since) },
  });
  url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
  return url.toString();
}
