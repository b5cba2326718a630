import { Hono } from "hono";
import { onError } from "./errors";
import { battlesApi } from "./battles";
import { comparisonsApi } from "./comparisons";
import { evaluationsApi } from "./evaluations";
import { goalBattlesApi } from "./goal-battles";
import { examplesApi } from "./examples";
import { healthApi } from "./health";
import { judgesApi } from "./judges";
import { leaderboardApi } from "./leaderboard";
import { modelsApi } from "./models";
import { promptSetsApi } from "./prompt-sets";
import { presetsApi } from "./presets";
import { providersApi } from "./providers";
import { runsApi } from "./runs";
import { comparisonSharesApi, runSharesApi, sharedApi, sharesApi } from "./shares";
import { evaluationEstimateApi } from "./evaluation-estimate";
import { evaluationReportApi } from "./evaluation-report";
import { evaluationRevisionsApi } from "./evaluation-revisions";
import { spendApi } from "./spend";
import { threadsApi } from "./threads";
import { votesApi } from "./votes";

export const api = new Hono<{ Bindings: Env }>()
  .route("/health", healthApi)
  .route("/models", modelsApi)
  .route("/presets", presetsApi)
  .route("/examples", examplesApi)
  .route("/providers", providersApi)
  .route("/runs", runsApi)
  .route("/runs", runSharesApi)
  .route("/comparisons", comparisonsApi)
  .route("/comparisons", comparisonSharesApi)
  .route("/shares", sharesApi)
  .route("/shared", sharedApi)
  .route("/votes", votesApi)
  .route("/leaderboard", leaderboardApi)
  .route("/battles", battlesApi)
  .route("/judges", judgesApi)
  .route("/spend", spendApi)
  .route("/prompt-sets", promptSetsApi)
  .route("/threads", threadsApi)
  // The report's routes first: its /compare would otherwise read as an evaluation's id.
  .route("/evaluations", evaluationReportApi)
  .route("/evaluations", evaluationRevisionsApi)
  .route("/evaluations", evaluationEstimateApi)
  .route("/evaluations", evaluationsApi)
  .route("/goal-battles", goalBattlesApi);

api.onError(onError);
