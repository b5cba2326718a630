import { env } from "cloudflare:test";
import { Hono } from "hono";
import type { RouterRoute } from "hono/types";
import { findTargetHandler } from "hono/utils/handler";
import { describeRoute, uniqueSymbol } from "hono-openapi";
import { describe, expect, it } from "vitest";
import { type OpenApiDocument, renderApiReference } from "../../scripts/api-docs";
import { openApiDocumentOf } from "../../worker/api/openapi";
import { validate } from "../../worker/api/validate";
import app from "../../worker/index";
import { voteInput } from "../../worker/shared/requests";
import { api } from "../helpers/runs";

type Operation = {
  summary?: string;
  parameters?: { in: string; name: string; required?: boolean; schema?: unknown; $ref?: string }[];
  requestBody?: { content: Record<string, { schema?: unknown }> };
  responses?: Record<string, { $ref?: string; content?: Record<string, { schema?: unknown }> }>;
};

/** What hono-openapi reads off a route's handlers: the validator's target, when the handler is our `validate`. */
type Described = { target?: string };

async function openApiDocument(): Promise<OpenApiDocument> {
  const res = await api("/openapi.json");
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toMatch(/^application\/json/);
  return res.json<OpenApiDocument>();
}

/** Hono's `:name` (with an optional `{regex}`) as OpenAPI's `{name}`. */
const openApiPath = (path: string) => path.replace(/:(\w+)(\{[^}]*\})?\??/g, "{$1}");

/**
 * The HTTP routes of `hono`: each method and path a handler answers, middleware (`use`, method ALL) left out, and
 * the WebSocket routes (`…/ws`), which OpenAPI can't describe. Hono lists every handler of a route apart (a
 * validator, then the handler), so the request parts a route validates are gathered per method and path.
 */
function httpRoutes(hono: { routes: RouterRoute[] }) {
  const routes = new Map<string, { method: string; path: string; targets: Set<string> }>();
  for (const r of hono.routes) {
    if (r.method === "ALL" || r.path.endsWith("/ws")) continue;
    const key = `${r.method} ${r.path}`;
    const route = routes.get(key) ?? { method: r.method, path: r.path, targets: new Set<string>() };
    const target = (findTargetHandler(r.handler) as unknown as Record<symbol, Described | undefined>)[uniqueSymbol]
      ?.target;
    if (target) route.targets.add(target);
    routes.set(key, route);
  }
  return [...routes.values()];
}

/** What the document lacks of `hono`'s routes: one sentence per missing operation, parameter, body or response. */
function undescribed(hono: { routes: RouterRoute[] }, doc: OpenApiDocument): string[] {
  const problems: string[] = [];
  for (const route of httpRoutes(hono)) {
    const where = `${route.method} ${route.path}`;
    const path = openApiPath(route.path);
    const op = (doc.paths[path] as Record<string, Operation> | undefined)?.[route.method.toLowerCase()];
    if (!op) {
      problems.push(`${where} is not in the document (give it a describeRoute)`);
      continue;
    }
    if (!op.summary) problems.push(`${where} has no summary`);
    const params = op.parameters ?? [];
    for (const name of path.match(/\{(\w+)\}/g)?.map((p) => p.slice(1, -1)) ?? [])
      if (!params.some((p) => p.in === "path" && p.name === name && p.required && p.schema))
        problems.push(`${where} doesn't describe its path parameter ${name}`);
    if (route.targets.has("query") && !params.some((p) => p.in === "query" && p.schema))
      problems.push(`${where} doesn't describe its query`);
    if (route.targets.has("json") && !op.requestBody?.content["application/json"]?.schema)
      problems.push(`${where} doesn't describe its JSON body`);
    const success = Object.entries(op.responses ?? {}).filter(
      ([status, r]) => /^2\d\d$/.test(status) && Object.values(r.content ?? {}).some((m) => m.schema),
    );
    if (!success.length) problems.push(`${where} has no success response with a schema`);
  }
  return problems;
}

describe("the OpenAPI document", () => {
  it("is OpenAPI 3.1 with info, the error shape once in components, and the health report's version", async () => {
    const doc = await openApiDocument();
    expect(doc.openapi).toMatch(/^3\.1\.\d+$/);
    expect(doc.info).toMatchObject({ title: "Quorum API", version: env.QUORUM_VERSION });
    expect(typeof doc.paths).toBe("object");
    expect(doc.components.schemas.Error).toMatchObject({
      type: "object",
      required: ["error"],
      properties: { error: { required: ["code", "message"] } },
    });
    for (const response of Object.values(doc.components.responses))
      expect(response.content?.["application/json"]?.schema).toEqual({ $ref: "#/components/schemas/Error" });
  });

  it("describes every HTTP route of the app with its path parameters, query, body and a response schema", async () => {
    // A floor, so a test that found no routes (a changed app.routes) can't pass by checking nothing.
    expect(httpRoutes(app).length).toBeGreaterThan(30);
    expect(undescribed(app, await openApiDocument())).toEqual([]);
  });

  it("misses a route added without a description, and a validated body described without a response", async () => {
    const grown = new Hono<{ Bindings: Env }>()
      .route("/", app)
      .get("/api/undescribed/:thing", (c) => c.json({}))
      .post("/api/half-described", describeRoute({ summary: "Half" }), validate("json", voteInput), (c) => c.json({}));
    // As the wire carries it, like the app's own document.
    const doc: OpenApiDocument = JSON.parse(JSON.stringify(await openApiDocumentOf(grown)));
    expect(undescribed(grown, doc)).toEqual([
      "GET /api/undescribed/:thing is not in the document (give it a describeRoute)",
      "POST /api/half-described has no success response with a schema",
    ]);
  });

  it("lists no operation the app doesn't answer", async () => {
    const doc = await openApiDocument();
    const answered = new Set(httpRoutes(app).map((r) => `${r.method.toLowerCase()} ${openApiPath(r.path)}`));
    const documented = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.keys(ops as object).map((method) => `${method} ${path}`),
    );
    expect(documented.filter((op) => !answered.has(op))).toEqual([]);
  });

  it("describes a validated body with the validator's own constraints", async () => {
    const doc = await openApiDocument();
    const op = (doc.paths["/api/comparisons/{id}/votes"] as Record<string, Operation>).post;
    expect(op.requestBody?.content["application/json"]?.schema).toEqual({
      type: "object",
      properties: { choice: { type: "string", enum: ["left", "right", "tie", "both-bad"] } },
      required: ["choice"],
      additionalProperties: false,
    });
    expect(op.responses?.["400"]).toEqual({ $ref: "#/components/responses/BadRequest" });
  });

  it("is guarded like every /api route: a cross-site caller, or any host but this machine, is refused", async () => {
    const crossHost = await app.request("http://quorum.example/api/openapi.json", {}, env);
    expect(crossHost.status).toBe(403);
    expect((await crossHost.json<{ error: { code: string } }>()).error.code).toBe("app_token_required");
    const withToken = { ...env, APP_TOKEN: "openapi-test-token" };
    expect((await app.request("http://quorum.example/api/openapi.json", {}, withToken)).status).toBe(401);
    const allowed = await app.request(
      "http://quorum.example/api/openapi.json",
      { headers: { Authorization: "Bearer openapi-test-token" } },
      withToken,
    );
    expect(allowed.status).toBe(200);
  });
});

describe("docs/api.md", () => {
  it("is the reference rendered from the document (npm run docs:api writes it)", async () => {
    await expect(renderApiReference(await openApiDocument())).toMatchFileSnapshot("../../docs/api.md");
  });
});
