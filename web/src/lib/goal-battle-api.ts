/** The goal battles API as the page calls it: launch, list, read, stop, vote, and the messages and socket of one. */
import type { ClientResponse } from "hono/client";
import { authHeaders } from "./access";
import { call } from "./api";
import type { GoalBattleBody } from "./goal-battle-form";
import type { GoalBattle, GoalBattleSummary, GoalMessage, GoalSide, GoalVoteChoice } from "./goal-battle-types";

const BASE = "/api/goal-battles";

/** A JSON request through `call`, so a refusal is the same ApiError every page shows. */
function request<T>(method: "GET" | "POST", path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { ...authHeaders() };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const res = fetch(`${location.origin}${BASE}${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  }) as unknown as Promise<ClientResponse<T, 200, "json">>;
  return call(res) as Promise<T>;
}

const one = (jobId: string) => `/${encodeURIComponent(jobId)}`;

export const launchGoalBattle = (body: GoalBattleBody) => request<{ jobId: string }>("POST", "", body);

export const listGoalBattles = (cursor?: string | null) =>
  request<{ battles: GoalBattleSummary[]; nextCursor: string | null }>(
    "GET",
    `?limit=20${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`,
  );

export const getGoalBattle = (jobId: string) => request<GoalBattle>("GET", one(jobId));

export const stopGoalBattle = (jobId: string) => request<GoalBattle>("POST", `${one(jobId)}/stop`);

export const voteGoalBattle = (jobId: string, choice: GoalVoteChoice) =>
  request<GoalBattle>("POST", `${one(jobId)}/votes`, { choice });

/** Every message of one side, page by page. */
export async function sideMessages(jobId: string, side: GoalSide): Promise<GoalMessage[]> {
  const all: GoalMessage[] = [];
  let cursor: string | null = null;
  do {
    const page: { messages: GoalMessage[]; nextCursor: string | null } = await request(
      "GET",
      `${one(jobId)}/messages?side=${side}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`,
    );
    all.push(...page.messages);
    cursor = page.nextCursor;
  } while (cursor);
  return all;
}

/** Address of a goal battle's live event socket, resuming after `since` when given. */
export function goalBattleLiveUrl(jobId: string, since?: number): string {
  const url = new URL(`${BASE}${one(jobId)}/ws`, location.origin);
  url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
  if (since !== undefined) url.searchParams.set("since", String(since));
  return url.toString();
}
