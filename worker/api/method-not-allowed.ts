/**
 * A known path asked with a method it doesn't take is a 405 with `Allow`; an unknown path a 404 — both in the
 * API's one error shape, decided before the body is looked at (so a wrong method never reads as a 415).
 * The answer comes from the app's own route list (`app.routes`, Hono's public one), so every route added later
 * is covered without a list here; test/integration/fuzz.test.ts asks every route with every method it doesn't take.
 */
import { createMiddleware } from "hono/factory";
import { TrieRouter } from "hono/router/trie-router";
import type { RouterRoute } from "hono/types";
import { errorBody } from "./errors";

const METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"] as const;

/** A route that answers requests, as against middleware (`use`, always method ALL on a path ending in `*`). */
const answers = (r: RouterRoute) => r.method !== "ALL" || !r.path.endsWith("*");

/** Which method and path pairs have a route: matched by one of Hono's own routers, as the app matches them. */
class RouteTable {
  private readonly router = new TrieRouter<true>();

  constructor(routes: readonly RouterRoute[]) {
    for (const route of routes.filter(answers)) this.router.add(route.method, route.path, true);
  }

  routed(method: string, path: string): boolean {
    // Hono answers HEAD with the GET route.
    const [matches] = this.router.match(method === "HEAD" ? "GET" : method, path);
    return matches.length > 0;
  }

  /** The methods `path` answers to, HEAD along with GET; empty for a path no route knows. */
  allowedMethods(path: string): string[] {
    return METHODS.filter((m) => this.routed(m, path));
  }
}

/**
 * `routes` is read at the first request (the table is built once then), so this can sit in the chain of the app
 * whose routes they are.
 */
export const methodNotAllowed = (routes: () => readonly RouterRoute[]) => {
  let table: RouteTable | undefined;
  return createMiddleware(async (c, next) => {
    table ??= new RouteTable(routes());
    if (table.routed(c.req.method, c.req.path)) return next();
    const allow = table.allowedMethods(c.req.path);
    if (!allow.length) return c.notFound();
    c.header("Allow", allow.join(", "));
    return c.json(
      errorBody("method_not_allowed", `${c.req.path} takes ${allow.join(", ")}, not ${c.req.method}.`),
      405,
    );
  });
};
