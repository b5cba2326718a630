/**
 * A known path asked with a method it doesn't take is a 405 with `Allow`; an unknown path a 404 — both in the
 * API's one error shape, decided before the body is looked at (so a wrong method never reads as a 415).
 * The answer comes from the app's own router, so every route added later is covered without a list here.
 */
import type { RouterRoute } from "hono/types";
import type { Router } from "hono/router";
import { createMiddleware } from "hono/factory";
import { errorBody } from "./errors";

export type RouteTable = Router<[unknown, RouterRoute]>;

const METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"] as const;

/** A route that answers requests, as against middleware (`use`, always method ALL on a path ending in `*`). */
const answers = (r: RouterRoute) => r.method !== "ALL" || !r.path.endsWith("*");

function routed(router: RouteTable, method: string, path: string): boolean {
  // Hono answers HEAD with the GET route.
  const [matches] = router.match(method === "HEAD" ? "GET" : method, path);
  return matches.some(([[, route]]) => answers(route));
}

/** The methods `path` answers to, HEAD along with GET; empty for a path no route knows. */
export function allowedMethods(router: RouteTable, path: string): string[] {
  return METHODS.filter((m) => routed(router, m, path));
}

/** `router` is read when a request comes, so this can sit in the chain of the app whose router it is. */
export const methodNotAllowed = (router: () => RouteTable) =>
  createMiddleware(async (c, next) => {
    const table = router();
    if (routed(table, c.req.method, c.req.path)) return next();
    const allow = allowedMethods(table, c.req.path);
    if (!allow.length) return c.notFound();
    c.header("Allow", allow.join(", "));
    return c.json(
      errorBody("method_not_allowed", `${c.req.path} takes ${allow.join(", ")}, not ${c.req.method}.`),
      405,
    );
  });
