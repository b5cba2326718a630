import { Hono } from "hono";
import { listModelGroups } from "../providers/registry";

export const modelsApi = new Hono<{ Bindings: Env }>().get("/", async (c) =>
  c.json({ providers: await listModelGroups(c.env) }),
);
