import { Hono } from "hono";
import { describeRoute } from "hono-openapi";
import { dbHealthy, openDb } from "../db/queries";
import { baseSettings, configProblems } from "../shared/config";
import { healthResponse } from "../shared/responses";
import { jsonResponse } from "./openapi-describe";

const describedHealth = describeRoute({
  tags: ["Service"],
  summary: "Whether the Worker and its database answer",
  responses: {
    200: jsonResponse(healthResponse, "Up, with its version."),
    503: jsonResponse(
      healthResponse,
      "The database doesn't answer, or a setting doesn't parse (`config.errors` names it).",
    ),
  },
});

/** Answers even when a setting doesn't parse (every other route then refuses): it names what to fix. */
export const healthApi = new Hono<{ Bindings: Env }>().get("/", describedHealth, async (c) => {
  const db = await dbHealthy(openDb(c.env.DB));
  const problems = configProblems(c.env);
  const config = problems.length ? { ok: false as const, errors: problems } : { ok: true as const };
  const ok = db && config.ok;
  return c.json(
    { ok, version: baseSettings(c.env).version, db: db ? ("ok" as const) : ("unreachable" as const), config },
    ok ? 200 : 503,
  );
});
