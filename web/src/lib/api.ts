/** The typed API client: request and response types come from the Worker's own routes. */
import { hc, type ClientResponse, type InferRequestType, type InferResponseType } from "hono/client";
import type { SuccessStatusCode } from "hono/utils/http-status";
import type { AppType } from "../../../worker/index";
import { authHeaders, isAccessRefusal, reportAccessProblem } from "./access";
import type { ExportFormat } from "../../../worker/shared/constants";

const client = hc<AppType>(location.origin, { headers: authHeaders });
export const api = client.api;

export type ModelCatalog = InferResponseType<typeof api.models.$get, 200>;
export type ProviderGroup = ModelCatalog["providers"][number];
export type CatalogModel = ProviderGroup["models"][number];
/** A model as a picker lists it: a catalog model, or a preset (lib/presets.ts) under the "preset" group. */
export type PickerModel = Omit<CatalogModel, "provider"> & { provider: string };
/** A picker's group: a provider of the catalog, or the presets. */
export type PickerGroup = Omit<ProviderGroup, "id" | "models"> & {
  id: ProviderGroup["id"] | "preset";
  models: PickerModel[];
};
export type ProviderSetup = InferResponseType<typeof api.providers.$get, 200>["providers"][number];
export type ProviderTestResult = InferResponseType<(typeof api.providers)[":provider"]["test"]["$post"], 200>;
export type CreateRunBody = InferRequestType<typeof api.runs.$post>["json"];
export type RunListItem = InferResponseType<typeof api.runs.$get, 200>["items"][number];
export type ComparisonListItem = InferResponseType<typeof api.comparisons.$get, 200>["items"][number];
export type CreateComparisonBody = InferRequestType<typeof api.comparisons.$post>["json"];
export type Standings = InferResponseType<typeof api.leaderboard.$get, 200>;
export type LeaderboardQuery = NonNullable<InferRequestType<typeof api.leaderboard.$get>["query"]>;
export type SpendHistory = InferResponseType<typeof api.spend.history.$get, 200>;
export type JudgeStats = InferResponseType<typeof api.judges.$get, 200>["judges"][number];
export type EvaluationListItem = InferResponseType<typeof api.evaluations.$get, 200>["items"][number];
export type EvaluationEstimate = InferResponseType<typeof api.evaluations.estimate.$post, 200>;
export type CreateEvaluationBody = InferRequestType<typeof api.evaluations.$post>["json"];
export type EvaluationReport = InferResponseType<(typeof api.evaluations)[":id"]["report"]["$get"], 200>;
export type EvaluationMatrix = InferResponseType<(typeof api.evaluations)[":id"]["matrix"]["$get"], 200>;
export type EvaluationComparison = InferResponseType<typeof api.evaluations.compare.$get, 200>;
export type PromptSetSummary = InferResponseType<(typeof api)["prompt-sets"]["$get"], 200>["items"][number];
export type PromptSetItem = InferResponseType<(typeof api)["prompt-sets"][":id"]["$get"], 200>["items"][number];
export type PresetView = InferResponseType<typeof api.presets.$get, 200>["presets"][number];
export type CreatePresetBody = InferRequestType<typeof api.presets.$post>["json"];
export type ShareLink = InferResponseType<(typeof api.runs)[":id"]["shares"]["$get"], 200>["shares"][number];

/** What the person sees when a call fails: the server's own message when it sent one. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    /** the server's `details`, when it sent any (e.g. the lines of an upload to fix) */
    readonly details?: unknown,
  ) {
    super(message);
    this.name = "ApiError";
  }
}

type Success<R> =
  R extends ClientResponse<infer T, infer S, "json"> ? (S extends SuccessStatusCode ? T : never) : never;

/** Awaits a client call and returns its success body, or throws an ApiError with the server's message. */
export async function call<R extends ClientResponse<unknown, number, "json">>(
  request: Promise<R>,
): Promise<Success<R>> {
  let res: R;
  try {
    res = await request;
  } catch {
    throw new ApiError(0, "network", "Can't reach the Quorum server. Is `npm start` still running?");
  }
  if (res.ok) return (await res.json()) as Success<R>;
  const body: unknown = await res.json().catch(() => null);
  const error = (body as { error?: { code?: unknown; message?: unknown; details?: unknown } } | null)?.error;
  const message = typeof error?.message === "string" ? error.message : `The server answered ${res.status}.`;
  const code = typeof error?.code === "string" ? error.code : "http_error";
  if (isAccessRefusal(res.status, code)) reportAccessProblem(message);
  throw new ApiError(res.status, code, message, error?.details);
}

/** Address of a run's export download. */
export function exportUrl(id: string, format: ExportFormat): string {
  return api.runs[":id"].export.$url({ param: { id }, query: { format } }).toString();
}

function socketUrl(url: URL): string {
  url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
  return url.toString();
}

const sinceQuery = (since?: number) => (since === undefined ? {} : { since: String(since) });

/** Address of a run's live event socket, resuming after `since` when given. */
export function liveUrl(id: string, since?: number): string {
  return socketUrl(api.runs[":id"].ws.$url({ param: { id }, query: sinceQuery(since) }));
}

/** Address of an evaluation's live event socket, resuming after `since` when given. */
export function evaluationLiveUrl(id: string, since?: number): string {
  return socketUrl(api.evaluations[":id"].ws.$url({ param: { id }, query: sinceQuery(since) }));
}

/** Address of an arena comparison's live event socket, resuming after `since` when given. */
export function comparisonLiveUrl(id: string, since?: number): string {
  return socketUrl(api.comparisons[":id"].ws.$url({ param: { id }, query: sinceQuery(since) }));
}

/** Address of a chat thread's live event socket, resuming after `since` when given. */
export function threadLiveUrl(id: string, since?: number): string {
  return socketUrl(api.threads[":id"].ws.$url({ param: { id }, query: sinceQuery(since) }));
}

/** Address of a share link's live event socket (the room of whatever the link shows). */
export function sharedLiveUrl(token: string, since?: number): string {
  return socketUrl(api.shared[":token"].ws.$url({ param: { token }, query: sinceQuery(since) }));
}

/** The message of whatever a call threw, for the page to show. */
export const messageOf = (err: unknown) => (err instanceof Error ? err.message : String(err));
