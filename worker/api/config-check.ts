/**
 * A setting that doesn't parse stops the API: every route but /api/health answers 503 `config_invalid`,
 * naming the variable, what is wrong with it and where to fix it (api/errors.ts), rather than running on a
 * default the owner never chose.
 */
import { createMiddleware } from "hono/factory";
import { settings } from "../shared/config";

/** The route that reports a bad configuration instead of refusing: how one finds out what to fix. */
const HEALTH_PATH = "/api/health";

export const configCheck = createMiddleware<{ Bindings: Env }>(async (c, next) => {
  // Throws ConfigInvalid, which onError answers with the 503.
  if (c.req.path !== HEALTH_PATH) settings(c.env);
  await next();
});
