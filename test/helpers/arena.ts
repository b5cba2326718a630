/** Test helpers that drive the arena as a client does: over HTTP and the comparison's WebSocket. */
import { listDurableObjectIds } from "cloudflare:test";
import { comparisonEvent, type ComparisonEvent } from "../../worker/shared/events";
import type { ComparisonDetail, FitStatus } from "../../worker/shared/arena";
import { api } from "./runs";
import { openEventSocket, type EventSocket } from "./sockets";

export type ComparisonSocket = EventSocket<ComparisonEvent>;

export function openComparisonSocket(id: string, since?: number): Promise<ComparisonSocket> {
  return openEventSocket(`/api/comparisons/${id}/ws`, comparisonEvent, since);
}

export async function createComparison(
  body: unknown,
): Promise<{ id: string; status: string; mode: string; modeNote: string | null }> {
  const res = await api("/comparisons", { method: "POST", json: body });
  if (res.status !== 201) throw new Error(`POST /comparisons answered ${res.status}: ${await res.text()}`);
  return res.json();
}

export async function getComparison(id: string): Promise<ComparisonDetail> {
  const res = await api(`/comparisons/${id}`);
  if (res.status !== 200) throw new Error(`GET /comparisons/${id} answered ${res.status}: ${await res.text()}`);
  return res.json();
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

export interface VoteBody {
  voteId: string;
  choice: string;
  rows: {
    id: string;
    voteId: string;
    comparisonId: string;
    choice: string;
    winnerModelId: string | null;
    flags: string[];
  }[];
  reveal: { left: { modelId: string; displayName: string }; right: { modelId: string; displayName: string } };
  flags: string[];
  receipt: string;
}

export async function castVote(id: string, choice: string, headers: Record<string, string> = {}): Promise<VoteBody> {
  const res = await vote(id, choice, headers);
  if (res.status !== 201) throw new Error(`vote answered ${res.status}: ${await res.text()}`);
  return res.json();
}

export interface Standings {
  rows: {
    rank: number | null;
    modelId: string;
    displayName: string;
    wins: number;
    appearances: number;
    winRate: number;
    elo: number | null;
    mu: number | null;
    sigma: number | null;
    conservative: number | null;
    bt: number | null;
    ciLower: number | null;
    ciUpper: number | null;
    battles: number;
    tieRate: number | null;
    provisional: boolean;
  }[];
  source: string;
  totalBattles: number;
  excludedFlagged: number;
  anchor: { modelId: string; rating: number } | null;
  categories: string[];
  fit: FitStatus;
}

export async function leaderboard(query = ""): Promise<Standings> {
  const res = await api(`/leaderboard${query ? `?${query}` : ""}`);
  if (res.status !== 200) throw new Error(`GET /leaderboard answered ${res.status}: ${await res.text()}`);
  return res.json();
}

/** The rows of `models` only, by model id (other tests in the same file add models of their own). */
export function rowsOf(standings: Standings, models: string[]) {
  return Object.fromEntries(standings.rows.filter((r) => models.includes(r.modelId)).map((r) => [r.modelId, r]));
}

/** The API's error body of a refused request. */
export async function errorOf(res: Response): Promise<{ code: string; message: string }> {
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
