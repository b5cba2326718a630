import { Hono } from "hono";
import { describeRoute } from "hono-openapi";
import { listModelGroups } from "../providers/registry";
import { modelsResponse } from "../shared/responses";
import { jsonResponse } from "./openapi-describe";

const describedModels = describeRoute({
  tags: ["Service"],
  summary: "The model catalog, by provider: each model's id, name, prices and whether it can be used",
  responses: { 200: jsonResponse(modelsResponse, "The catalog.") },
});

export const modelsApi = new Hono<{ Bindings: Env }>().get("/", describedModels, async (c) =>
  c.json({ providers: await listModelGroups(c.env) }),
);
