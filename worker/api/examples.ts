import { Hono } from "hono";
import { describeRoute } from "hono-openapi";
import { EXAMPLES } from "../providers/demo";
import { examplesResponse } from "../shared/responses";
import { jsonResponse } from "./openapi-describe";

const describedExamples = describeRoute({
  tags: ["Service"],
  summary: 'Example questions the offline demo models answer properly, for the page\'s "Try an example"',
  responses: { 200: jsonResponse(examplesResponse, "The examples, in the order to offer them.") },
});

/** Only what the page offers: the prepared answers stay with the demo provider. */
const listed = EXAMPLES.map(({ id, title, kind, question }) => ({ id, title, kind, question }));

export const examplesApi = new Hono<{ Bindings: Env }>().get("/", describedExamples, (c) =>
  c.json({ examples: listed }),
);
