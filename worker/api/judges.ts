/** GET /api/judges — how far each judge agrees with the people who voted on the same comparisons. */
import { Hono } from "hono";
import { describeRoute } from "hono-openapi";
import { calibrationRows } from "../db/judge-queries";
import { openDb } from "../db/queries";
import { calibrate } from "../judges/calibration";
import { displayName } from "../providers/registry";
import { judgesResponse } from "../shared/responses";
import { jsonResponse } from "./openapi-describe";

const describedJudges = describeRoute({
  tags: ["Arena"],
  summary: "Per judge: agreement with human votes, kappa, swap-flip rate and preferences",
  responses: { 200: jsonResponse(judgesResponse, "Every judge that gave a verdict.") },
});

export const judgesApi = new Hono<{ Bindings: Env }>().get("/", describedJudges, async (c) => {
  const judges = calibrate(await calibrationRows(openDb(c.env.DB))).map((j) => ({
    ...j,
    displayName: displayName(j.judgeModelId),
  }));
  return c.json({ judges });
});
