import { Hono } from "hono";
import { dbHealthy, openDb } from "../db/queries";

export const healthApi = new Hono<{ Bindings: Env }>().get("/", async (c) => {
  const db = await dbHealthy(openDb(c.env.DB));
  return c.json(
    { ok: db, version: c.env.QUORUM_VERSION, db: db ? ("ok" as const) : ("unreachable" as const) },
    db ? 200 : 503,
  );
});
