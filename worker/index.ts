import { Hono } from "hono";
import { api } from "./api";
import { errorBody, onError } from "./api/errors";

export { RunRoom } from "./rooms/run-room";

const app = new Hono<{ Bindings: Env }>().route("/api", api);
app.onError(onError);
app.notFound((c) => c.json(errorBody("not_found", `No API route ${c.req.method} ${new URL(c.req.url).pathname}.`), 404));

/** The typed shape of every route, for the web app's `hc` client. */
export type AppType = typeof app;

export default app satisfies ExportedHandler<Env>;
