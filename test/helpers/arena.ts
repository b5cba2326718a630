/** Test helpers that drive the arena as a client does: over HTTP and the comparison's WebSocket. */
import { listDurableObjectIds } from "cloudflare:test";
import type { InferRequestType, InferResponseType } from "hono/client";
import type { ComparisonDetail, VoteChoice } from "../../worker/shared/arena";
import { type ComparisonEvent, comparisonEvent } from "../../worker/shared/events";
import { client, ok } from "./client";
import { api } from "./runs";
import { type EventSocket, openEventSocket } from "./sockets";

export type ComparisonSocket = EventSocket<ComparisonEvent>;

export function openComparisonSocket(id: string, since?: number): Promise<ComparisonSocket> {
  return openEventSocket(`/api/comparisons/${id}/ws`, comparisonEvent, since);
}

export type CreateComparisonBody = InferRequestType<typeof client.comparisons.$post>["json"];

export function createComparison(body: CreateComparisonBody) {
  return ok(client.comparisons.$post({ json: body }));
}

export function getComparison(id: string): Promise<ComparisonDetail> {
  return ok(client.comparisons[":id"].$get({ param: { id } }));
}

/** Waits through live events until the latest turn has settled (both answered, or a side failed). */
export async function settled(id: string, timeoutMs = 15_000): Promise<ComparisonDetail> {
  const socket = await openComparisonSocket(id, 0);
  try {
    await socket.until(
      (e) => e.type === "comparison.status" && (e.status === "ready" || e.status === "failed"),
      "a settled turn",
      timeoutMs,
    );
  } finally {
    socket.close();
  }
  return getComparison(id);
}

/** Creates a comparison of two named models and waits until both have answered. */
export async function readyComparison(
  models: [string, string],
  extra: Record<string, unknown> = {},
): Promise<ComparisonDetail> {
  const { id } = await createComparison({ prompt: "Explain recursion in one paragraph.", models, ...extra });
  const detail = await settled(id);
  if (detail.comparison.status !== "ready") throw new Error(`comparison ${id} ended ${detail.comparison.status}`);
  return detail;
}

export async function vote(id: string, choice: string, headers: Record<string, string> = {}) {
  return api(`/comparisons/${id}/votes`, { method: "POST", json: { choice }, headers });
}

export type VoteBody = InferResponseType<(typeof client.comparisons)[":id"]["votes"]["$post"], 201>;

export function castVote(id: string, choice: VoteChoice, headers: Record<string, string> = {}): Promise<VoteBody> {
  return ok(client.comparisons[":id"].votes.$post({ param: { id }, json: { choice } }, { headers }));
}

export type Standings = InferResponseType<typeof client.leaderboard.$get, 200>;
export type LeaderboardQuery = NonNullable<InferRequestType<typeof client.leaderboard.$get>["query"]>;

export function leaderboard(query: LeaderboardQuery = {}): Promise<Standings> {
  return ok(client.leaderboard.$get({ query }));
}

/** The rows of `models` only, by model id (other tests in the same file add models of their own). */
export function rowsOf(standings: Standings, models: string[]) {
  return Object.fromEntries(standings.rows.filter((r) => models.includes(r.modelId)).map((r) => [r.modelId, r]));
}

/** The API's error body of a refused request. */
export async function errorOf(res: { json(): Promise<unknown> }): Promise<{ code: string; message: string }> {
  return ((await res.json()) as { error: { code: string; message: string } }).error;
}

/**
 * Whether the room named `name` in `namespace` has storage: miniflare lists the objects whose SQLite files
 * exist, so this observes "nothing was created" without creating anything (asking the room would).
 */
export async function hasRoom<T extends Rpc.DurableObjectBranded | undefined>(
  namespace: DurableObjectNamespace<T>,
  name: string,
): Promise<boolean> {
  const id = namespace.idFromName(name);
  return (await listDurableObjectIds(namespace)).some((listed) => listed.equals(id));
}

/** Withdraws vote `voteId`, showing `receipt` when given. */
export function withdraw(voteId: string, receipt?: string, headers: Record<string, string> = {}): Promise<Response> {
  return api(`/votes/${voteId}`, {
    method: "DELETE",
    headers: receipt === undefined ? headers : { "X-Vote-Receipt": receipt, ...headers },
  });
}
