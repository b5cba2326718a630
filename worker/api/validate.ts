import { zValidator } from "@hono/zod-validator";
import type { ValidationTargets } from "hono";
import { resolver, uniqueSymbol } from "hono-openapi";
import type { ZodType } from "zod";
import { errorBody } from "./errors";

/**
 * zValidator with the API's error shape: a 400 that names the field that is wrong. It carries its schema
 * as hono-openapi's own validator does, so the OpenAPI document (openapi.ts) describes the request from it.
 */
export const validate = <Target extends keyof ValidationTargets, Schema extends ZodType>(
  target: Target,
  schema: Schema,
) =>
  Object.assign(
    zValidator(target, schema, (result, c) => {
      if (result.success) return;
      const issues = result.error.issues.map((i) => ({ path: i.path.map(String).join("."), message: i.message }));
      const first = issues[0];
      const message = first?.path ? `${first.path}: ${first.message}` : (first?.message ?? "Invalid request.");
      return c.json(errorBody("invalid_request", message, { issues }), 400);
    }),
    { [uniqueSymbol]: { target, ...resolver(schema) } },
  );
