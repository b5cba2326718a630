import { Hono } from "hono";
import { describeRoute } from "hono-openapi";
import { dbHealthy, openDb } from "../db/queries";
import { healthResponse } from "../shared/responses";
import { jsonResponse } from "./openapi-describe";

const describedHealth = describeRoute({
  tags: ["Service"],
  summary: "Whether the Worker and its database answer",
  responses: {
    200: jsonResponse(healthResponse, "Up, with its version."),
    503: jsonResponse(healthResponse, "The database doesn't answer."),
  },
});

export const healthApi = new Hono<{ Bindings: Env }>().get("/", describedHealth, async (c) => {
  const db = await dbHealthy(openDb(c.env.DB));
  return c.json(
    { ok: db, version: c.env.QUORUM_VERSION, db: db ? ("ok" as const) : ("unreachable" as const) },
    db ? 200 : 503,
  );
});
