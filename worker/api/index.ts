import { Hono } from "hono";
import { onError } from "./errors";
import { battlesApi } from "./battles";
import { comparisonsApi } from "./comparisons";
import { healthApi } from "./health";
import { judgesApi } from "./judges";
import { leaderboardApi } from "./leaderboard";
import { modelsApi } from "./models";
import { providersApi } from "./providers";
import { runsApi } from "./runs";
import { votesApi } from "./votes";

export const api = new Hono<{ Bindings: Env }>()
  .route("/health", healthApi)
  .route("/models", modelsApi)
  .route("/providers", providersApi)
  .route("/runs", runsApi)
  .route("/comparisons", comparisonsApi)
  .route("/votes", votesApi)
  .route("/leaderboard", leaderboardApi)
  .route("/battles", battlesApi)
  .route("/judges", judgesApi);

api.onError(onError);
