import { Hono } from "hono";
import { secureHeaders } from "hono/secure-headers";
import type { RouterRoute } from "hono/types";
import { api } from "./api";
import { access } from "./api/access";
import { bodyCap } from "./api/body-cap";
import { configCheck } from "./api/config-check";
import { errorBody, onError } from "./api/errors";
import { methodNotAllowed } from "./api/method-not-allowed";
import { describeOpenApi, serveOpenApi } from "./api/openapi";
import { noteLocalWrite } from "./arena/standings";
import { scheduled } from "./scheduled";
import { v1Api } from "./api/v1";
import { openAiErrors } from "./api/v1-errors";

export { ComparisonRoom } from "./rooms/comparison-room";
export { EvaluationRoom } from "./rooms/evaluation-room";
export { ThreadRoom } from "./rooms/thread-room";
export { FitRoom } from "./rooms/fit-room";
export { GoalBattleRoom } from "./rooms/goal-battle-room";
export { ProviderSlotsRoom } from "./rooms/provider-slots-room";
export { RateLimiter } from "./rooms/rate-limiter";
export { RunRoom } from "./rooms/run-room";
export { StyleRoom } from "./rooms/style-room";
export { VoteWriter } from "./rooms/vote-writer";

const apiHeaders = secureHeaders({ crossOriginResourcePolicy: "same-origin", referrerPolicy: "no-referrer" });

const READ_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

const app = new Hono<{ Bindings: Env }>()
  // Whatever a write request changed, this isolate's cached standings ask D1 again on the next read.
  .use("/api/*", async (c, next) => {
    await next();
    if (!READ_METHODS.has(c.req.method)) noteLocalWrite();
  })
  // The page gets its headers from web/public/_headers; API answers get theirs here
  // (not a WebSocket upgrade, whose 101 response can't take new headers).
  .use("/api/*", (c, next) => (c.req.header("Upgrade") ? next() : apiHeaders(c, next)))
  .use("/api/*", access)
  .use("/api/*", configCheck)
  .use(
    "/api/*",
    // Typed by hand: the app's type can't be inferred from a chain that reads the app.
    methodNotAllowed((): readonly RouterRoute[] => app.routes),
  )
  .use("/api/*", bodyCap)
  .route("/api", api)
  // The OpenAI-compatible endpoint gets every protection /api has, and answers refusals in OpenAI's shape.
  .use("/v1/*", openAiErrors)
  .use("/v1/*", apiHeaders)
  .use("/v1/*", access)
  .use("/v1/*", configCheck)
  .use(
    "/v1/*",
    methodNotAllowed((): readonly RouterRoute[] => app.routes),
  )
  .use("/v1/*", bodyCap)
  .route("/v1", v1Api);
// Registered on the whole app (behind the same middleware as every /api route), since it describes all of it.
app.get("/api/openapi.json", describeOpenApi, serveOpenApi(app));
app.onError(onError);
app.notFound((c) =>
  c.json(errorBody("not_found", `No API route ${c.req.method} ${new URL(c.req.url).pathname}.`), 404),
);

/** The typed shape of every route, for the web app's `hc` client. */
export type AppType = typeof app;

/** The Hono app is the fetch handler (tests call its `request`); `scheduled` runs the crons' jobs. */
export default Object.assign(app, { scheduled }) satisfies ExportedHandler<Env>;
