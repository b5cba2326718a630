/** GET /api/judges — how far each judge agrees with the people who voted on the same comparisons. */
import { Hono } from "hono";
import { calibrate } from "../judges/calibration";
import { calibrationRows } from "../db/judge-queries";
import { openDb } from "../db/queries";
import { displayName } from "../providers/registry";

export const judgesApi = new Hono<{ Bindings: Env }>().get("/", async (c) => {
  const judges = calibrate(await calibrationRows(openDb(c.env.DB))).map((j) => ({
    ...j,
    displayName: displayName(j.judgeModelId),
  }));
  return c.json({ judges });
});
