/**
 * The Worker's typed client for integration tests: Hono's `hc` over the app's own route types (as the page uses
 * it), sending every request through `SELF`, the real Worker entry with all its middleware. Paths, params, query
 * and JSON bodies are checked against the routes at compile time, and responses come typed.
 *
 * A test whose point is a malformed request (a bad body, a wrong method, an unknown path) builds it by hand with
 * `api()` from ./runs instead.
 */
import { SELF } from "cloudflare:test";
import { type ClientResponse, hc } from "hono/client";
import type { SuccessStatusCode } from "hono/utils/http-status";
import type { AppType } from "../../worker/index";
import { BASE } from "./sockets";

export const client = hc<AppType>(BASE, {
  fetch: (input: RequestInfo | URL, init?: RequestInit) => SELF.fetch(input, init),
}).api;

type Success<R> =
  R extends ClientResponse<infer T, infer S, "json"> ? (S extends SuccessStatusCode ? T : never) : never;

/** The body of a successful answer to `request`; any other status fails the test with the server's answer. */
export async function ok<R extends ClientResponse<unknown, number, "json">>(request: Promise<R>): Promise<Success<R>> {
  const res = await request;
  if (!res.ok) throw new Error(`${res.url} answered ${res.status}: ${await res.text()}`);
  return (await res.json()) as Success<R>;
}
