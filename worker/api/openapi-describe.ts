/**
 * The pieces a route's `describeRoute({ … })` is written with: a JSON response from a zod schema, the API's
 * shared error responses by status, and path parameters. Request bodies and queries need none of this: the
 * route's own `validate(…)` (validate.ts) puts its schema in the document.
 */

import { resolver } from "hono-openapi";
import type { ZodMiniType } from "zod/mini";
import * as z from "zod/mini";
import { comparisonDetail, leaderboardRow } from "../shared/arena";
import { cleanBattle, errorResponse, openAiErrorResponse } from "../shared/responses";
import { runDetail } from "../shared/run";

/** Names of schemas that appear in many places: each becomes one `#/components/schemas/<name>`. */
const schemaNames = z.registry<{ id: string }>();
schemaNames.add(errorResponse, { id: "Error" });
schemaNames.add(runDetail, { id: "RunDetail" });
schemaNames.add(comparisonDetail, { id: "ComparisonDetail" });
schemaNames.add(leaderboardRow, { id: "LeaderboardRow" });
schemaNames.add(cleanBattle, { id: "CleanBattle" });
schemaNames.add(openAiErrorResponse, { id: "OpenAiError" });

/** Responses as the client receives them (after defaults and transforms), not as a request would send them. */
const AS_WIRE = { options: { io: "output", metadata: schemaNames } } as const;

/**
 * Content in one or more media types, each described by its schema as it is on the wire: a response, or a
 * body no zod validator reads (the battle import parses its own lines).
 */
export const mediaContent = (media: Record<string, ZodMiniType>) =>
  Object.fromEntries(Object.entries(media).map(([type, schema]) => [type, { schema: resolver(schema, AS_WIRE) }]));

/** A response in one or more media types, e.g. a download or a stream of JSON Lines. */
export const mediaResponse = (description: string, media: Record<string, ZodMiniType>) => ({
  description,
  content: mediaContent(media),
});

/** A JSON response described by `schema`. */
export const jsonResponse = (schema: ZodMiniType, description: string) =>
  mediaResponse(description, { "application/json": schema });

/** The error responses, each described once in the document's components and referred to by status. */
export const ERROR_RESPONSES = {
  400: ["BadRequest", "The request is invalid: `invalid_request` names the field (details.issues lists them all)."],
  401: ["Unauthorized", "An access token is needed (APP_TOKEN), or a vote's receipt to withdraw it."],
  403: ["Forbidden", "Refused: a cross-site request, a wrong token or receipt, or a host this Quorum doesn't serve."],
  404: ["NotFound", "No such item, or an id the server never made."],
  409: ["Conflict", "The item is not in a state that allows this (e.g. already voted, still answering)."],
  413: ["PayloadTooLarge", "The body is larger than the route accepts."],
  415: ["UnsupportedMediaType", "The body is not JSON (Content-Type: application/json)."],
  422: ["UnprocessableContent", "Nothing in the body could be used; details say why."],
  429: ["TooManyRequests", "A rate limit or the day's spend cap; Retry-After says when to try again."],
  500: ["InternalError", "Something failed on the server."],
  502: ["BadGateway", "The model's provider failed, or its output was unusable twice."],
  503: ["ServiceUnavailable", "The server's storage (or its configuration) can't serve the request now."],
} as const;

export type ErrorStatus = keyof typeof ERROR_RESPONSES;

/** References to the shared error responses for `statuses`, for a route's `responses`. */
export function errorResponses(...statuses: ErrorStatus[]) {
  return Object.fromEntries(
    statuses.map((status) => [status, { $ref: `#/components/responses/${ERROR_RESPONSES[status][0]}` }]),
  );
}

/** The shared error responses themselves, for the document's `components.responses`. */
export function errorResponseComponents() {
  return Object.fromEntries(
    Object.values(ERROR_RESPONSES).map(([name, description]) => [name, jsonResponse(errorResponse, description)]),
  );
}

/** A path parameter (`:name` in the route, `{name}` in the document). */
export const pathParam = (name: string, description: string) => ({
  in: "path" as const,
  name,
  required: true,
  description,
  schema: { type: "string" as const },
});
