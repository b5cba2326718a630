import { Hono } from "hono";
import { onError } from "./errors";
import { healthApi } from "./health";
import { modelsApi } from "./models";
import { providersApi } from "./providers";
import { runsApi } from "./runs";

export const api = new Hono<{ Bindings: Env }>()
  .route("/health", healthApi)
  .route("/models", modelsApi)
  .route("/providers", providersApi)
  .route("/runs", runsApi);

api.onError(onError);
