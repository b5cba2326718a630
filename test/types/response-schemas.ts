/**
 * The response schemas the OpenAPI document shows (worker/shared/responses.ts) against what each route really
 * returns, as the page's typed client sees it: `npm run typecheck` fails when one drifts from the other.
 */
import type { hc, InferResponseType } from "hono/client";
import type * as z from "zod/mini";
import type { AppType } from "../../worker/index";
import type { comparisonDetail } from "../../worker/shared/arena";
import type * as e from "../../worker/shared/evaluation-report";
import type * as r from "../../worker/shared/responses";
import type { runDetail } from "../../worker/shared/run";

type Api = ReturnType<typeof hc<AppType>>["api"];

/** Every field path of a JSON shape, `a`, `a.b`, `list.b`, union members' together. */
type Paths<T> = T extends readonly (infer E)[]
  ? Paths<E>
  : T extends object
    ? { [K in keyof T & string]-?: K | `${K}.${Paths<NonNullable<T[K]>>}` }[keyof T & string]
    : never;

/**
 * A route's body fits its schema, and the two have the same fields: a field added to, dropped from or retyped
 * in either fails. (The route may be narrower, e.g. a literal where the schema says string.)
 */
type Check<Route, S extends z.ZodMiniType> = [Route] extends [z.output<S>]
  ? [Paths<Route>] extends [Paths<z.output<S>>]
    ? [Paths<z.output<S>>] extends [Paths<Route>]
      ? true
      : false
    : false
  : false;
/** Fails to compile unless `T` is true. */
type Expect<T extends true> = T;

/** One entry per JSON route (the WebSocket routes and downloads aside): its success body against its schema. */
export type ResponseSchemasMatchRoutes = [
  Expect<Check<InferResponseType<Api["health"]["$get"], 200>, typeof r.healthResponse>>,
  Expect<Check<InferResponseType<Api["models"]["$get"], 200>, typeof r.modelsResponse>>,
  Expect<Check<InferResponseType<Api["examples"]["$get"], 200>, typeof r.examplesResponse>>,
  Expect<Check<InferResponseType<Api["providers"][":provider"]["test"]["$post"], 200>, typeof r.providerTestResponse>>,
  Expect<Check<InferResponseType<Api["runs"]["$post"], 201>, typeof r.runStarted>>,
  Expect<Check<InferResponseType<Api["runs"]["$get"], 200>, typeof r.runList>>,
  Expect<Check<InferResponseType<Api["runs"][":id"]["$get"], 200>, typeof runDetail>>,
  Expect<Check<InferResponseType<Api["runs"][":id"]["$delete"], 200>, typeof r.runDeleted>>,
  Expect<Check<InferResponseType<Api["runs"][":id"]["cancel"]["$post"], 200>, typeof r.runAccepted>>,
  Expect<Check<InferResponseType<Api["runs"][":id"]["evaluate"]["$post"], 202>, typeof r.runAccepted>>,
  Expect<Check<InferResponseType<Api["runs"][":id"]["answers"]["$post"], 202>, typeof r.runAccepted>>,
  Expect<Check<InferResponseType<Api["runs"][":id"]["share"]["$post"], 201>, typeof r.shareCreated>>,
  Expect<Check<InferResponseType<Api["runs"][":id"]["shares"]["$get"], 200>, typeof r.shareList>>,
  Expect<Check<InferResponseType<Api["comparisons"]["$post"], 201>, typeof r.comparisonStarted>>,
  Expect<Check<InferResponseType<Api["comparisons"]["$get"], 200>, typeof r.comparisonList>>,
  Expect<Check<InferResponseType<Api["comparisons"][":id"]["$get"], 200>, typeof comparisonDetail>>,
  Expect<Check<InferResponseType<Api["comparisons"][":id"]["messages"]["$post"], 202>, typeof r.messageAccepted>>,
  Expect<Check<InferResponseType<Api["comparisons"][":id"]["retry"]["$post"], 202>, typeof r.comparisonAccepted>>,
  Expect<Check<InferResponseType<Api["comparisons"][":id"]["judge"]["$post"], 202>, typeof r.judgesAccepted>>,
  Expect<Check<InferResponseType<Api["comparisons"][":id"]["votes"]["$post"], 201>, typeof r.voteRecorded>>,
  Expect<Check<InferResponseType<Api["votes"][":voteId"]["$delete"], 200>, typeof r.voteWithdrawn>>,
  Expect<Check<InferResponseType<Api["shares"][":shareId"]["$delete"], 200>, typeof r.shareRevoked>>,
  Expect<Check<InferResponseType<Api["shared"][":token"]["$get"], 200>, typeof r.sharedItem>>,
  Expect<Check<InferResponseType<Api["leaderboard"]["$get"], 200>, typeof r.leaderboardResponse>>,
  Expect<Check<InferResponseType<Api["presets"]["$post"], 201>, typeof r.presetView>>,
  Expect<Check<InferResponseType<Api["presets"]["$get"], 200>, typeof r.presetList>>,
  Expect<Check<InferResponseType<Api["presets"][":slug"]["$get"], 200>, typeof r.presetDetail>>,
  Expect<Check<InferResponseType<Api["presets"][":slug"]["$patch"], 200>, typeof r.presetEdited>>,
  Expect<Check<InferResponseType<Api["presets"][":slug"]["$delete"], 200>, typeof r.presetDeleted>>,
  Expect<Check<InferResponseType<Api["leaderboard"]["odds"]["$get"], 200>, typeof r.oddsResponse>>,
  Expect<Check<InferResponseType<Api["judges"]["$get"], 200>, typeof r.judgesResponse>>,
  Expect<Check<InferResponseType<Api["battles"]["import"]["$post"], 200>, typeof r.importReport>>,
  Expect<Check<InferResponseType<Api["battles"]["archive"]["$get"], 200>, typeof r.archiveStatus>>,
  Expect<Check<InferResponseType<Api["battles"]["archive"]["$post"], 200>, typeof r.archivePassResponse>>,
  Expect<Check<InferResponseType<Api["spend"]["$get"], 200>, typeof r.spendResponse>>,
  Expect<Check<InferResponseType<Api["evaluations"][":id"]["report"]["$get"], 200>, typeof e.evaluationReportResponse>>,
  Expect<Check<InferResponseType<Api["evaluations"][":id"]["matrix"]["$get"], 200>, typeof e.evaluationMatrixResponse>>,
  Expect<
    Check<
      InferResponseType<Api["evaluations"][":id"]["items"][":itemId"]["$get"], 200>,
      typeof e.evaluationItemResponse
    >
  >,
  Expect<Check<InferResponseType<Api["evaluations"]["compare"]["$get"], 200>, typeof e.evaluationCompareResponse>>,
  Expect<Check<InferResponseType<Api["prompt-sets"]["$post"], 201>, typeof r.promptSetSummary>>,
  Expect<Check<InferResponseType<Api["prompt-sets"]["upload"]["$post"], 201>, typeof r.promptSetSummary>>,
  Expect<Check<InferResponseType<Api["prompt-sets"]["from-history"]["$post"], 201>, typeof r.promptSetFromHistory>>,
  Expect<Check<InferResponseType<Api["prompt-sets"]["$get"], 200>, typeof r.promptSetList>>,
  Expect<Check<InferResponseType<Api["prompt-sets"][":id"]["$get"], 200>, typeof r.promptSetDetail>>,
  Expect<Check<InferResponseType<Api["prompt-sets"][":id"]["$put"], 200>, typeof r.promptSetEdited>>,
  Expect<Check<InferResponseType<Api["prompt-sets"][":id"]["$put"], 201>, typeof r.promptSetEdited>>,
  Expect<Check<InferResponseType<Api["prompt-sets"][":id"]["upload"]["$put"], 200>, typeof r.promptSetEdited>>,
  Expect<Check<InferResponseType<Api["prompt-sets"][":id"]["upload"]["$put"], 201>, typeof r.promptSetEdited>>,
  Expect<Check<InferResponseType<Api["prompt-sets"][":id"]["$delete"], 200>, typeof r.promptSetDeleted>>,
  Expect<Check<InferResponseType<Api["threads"]["$post"], 201>, typeof r.threadResponse>>,
  Expect<Check<InferResponseType<Api["threads"]["$get"], 200>, typeof r.threadList>>,
  Expect<Check<InferResponseType<Api["threads"][":id"]["$get"], 200>, typeof r.threadDetailResponse>>,
  Expect<Check<InferResponseType<Api["threads"][":id"]["$patch"], 200>, typeof r.threadResponse>>,
  Expect<Check<InferResponseType<Api["threads"][":id"]["$delete"], 200>, typeof r.threadDeleted>>,
  Expect<Check<InferResponseType<Api["threads"][":id"]["messages"]["$post"], 202>, typeof r.threadMessageAccepted>>,
  Expect<
    Check<
      InferResponseType<Api["threads"][":id"]["messages"][":messageId"]["continue"]["$post"], 200>,
      typeof r.threadMessageResponse
    >
  >,
];
