/** /api/runs: validate, then hand the run to its RunRoom. */
import { type Context, Hono } from "hono";
import { describeRoute } from "hono-openapi";
import { estimateAnswerRetry, estimateEvaluation, type RunEstimate } from "../council/estimate";
import { exportJson, exportMarkdown } from "../council/export";
import { deleteRun, listRuns, loadRunRecord, openDb, runStatusOf } from "../db/queries";
import { displayName } from "../providers/registry";
import { isBlind, isTerminal, toRunDetail } from "../rooms/record";
import type { RunResult } from "../rooms/run-room";
import { settings } from "../shared/config";
import { isPresetId } from "../shared/contestant";
import { createRunInput, exportQuery, listRunsQuery, retryAnswersInput, wsQuery } from "../shared/requests";
import { runAccepted, runDeleted, runExport, runList, runMarkdown, runStarted } from "../shared/responses";
import type { RunDetail } from "../shared/run";
import { runDetail as runDetailSchema } from "../shared/run";
import { contestantNames } from "./contestant-names";
import { pricedAs } from "./contestants";
import { notFound } from "./errors";
import { knownId } from "./item-ids";
import { errorResponses, jsonResponse, mediaResponse, pathParam } from "./openapi-describe";
import { parseCursor } from "./paging";
import { unwrap } from "./room-result";
import { connectRoom, requireUpgrade } from "./sockets";
import { reserveSpend, withHold, workMs } from "./spend";
import { runCallsMs, runRoom, startRun } from "./start-run";
import { validate } from "./validate";

/** The run as clients may see it: live from its room while it runs, from D1 once it has ended. */
export async function runDetail(env: Env, id: string): Promise<RunDetail> {
  const db = openDb(env.DB);
  const status = await runStatusOf(db, id);
  if (!status) throw notFound("Run");
  if (!isTerminal(status)) {
    const live = await runRoom(env, id).detail();
    if (live) return live;
  }
  const record = await loadRunRecord(db, id);
  if (!record) throw notFound("Run");
  const detail = toRunDetail(record);
  // A record read back from D1 keeps no preset names: a preset's shown name and model come from its row.
  const presets = Object.keys(detail.run.names ?? {}).filter(isPresetId);
  if (presets.length === 0) return detail;
  const names = await contestantNames(db, presets);
  return {
    ...detail,
    run: { ...detail.run, names: { ...detail.run.names, ...Object.fromEntries(names) } },
    answers: detail.answers.map((a) =>
      a.displayName !== null && a.modelId !== null && names.has(a.modelId)
        ? { ...a, displayName: names.get(a.modelId)?.displayName ?? a.displayName }
        : a,
    ),
  };
}

/** The route's run id, once its tag checks and D1 holds the run (it does from the moment its POST answers). */
async function existingRun(c: Context<{ Bindings: Env }>): Promise<string> {
  const id = await knownId(c, "run");
  if (!(await runStatusOf(openDb(c.env.DB), id))) throw notFound("Run");
  return id;
}

/**
 * Sets aside the most an ended run's new request could cost (QUORUM_MAX_RUN_USD counts everything the run
 * ever spent), then hands the request to the room; a request the room refuses gives its hold back.
 */
async function withSpend(
  c: Context<{ Bindings: Env }>,
  id: string,
  estimate: (
    run: NonNullable<Awaited<ReturnType<typeof loadRunRecord>>>,
    called: (id: string) => string,
  ) => RunEstimate,
  act: (holdId: string) => Promise<RunResult>,
) {
  const run = await loadRunRecord(openDb(c.env.DB), id);
  if (!run) throw notFound("Run");
  // Priced as the models the run's presets call.
  const { reviewers, synthesis } = run.settings;
  const called = await pricedAs(c.env, [
    ...new Set([...run.answers.map((a) => a.modelId), ...(reviewers ?? []), ...(synthesis ? [synthesis.modelId] : [])]),
  ]);
  const priced = {
    ...run,
    answers: run.answers.map((a) => ({ ...a, modelId: called(a.modelId) })),
    settings: {
      ...run.settings,
      ...(reviewers ? { reviewers: reviewers.map(called) } : {}),
      ...(synthesis ? { synthesis: { modelId: called(synthesis.modelId) } } : {}),
    },
  };
  const holdId = await reserveSpend(c, {
    itemId: id,
    what: "run",
    estimate: estimate(priced, called),
    hidden: false,
    blindPrices: null,
    workMs: workMs(c.env, runCallsMs(run.settings, run.answers.length)),
  });
  return unwrap(await withHold(c.env, holdId, act));
}

const runId = pathParam("id", "The run's id, as POST /api/runs returned it.");

/** The routes below as the OpenAPI document (openapi.ts) describes them. */
const described = {
  create: describeRoute({
    tags: ["Runs"],
    summary: "Start a council run",
    description:
      "Every model answers the question; then, with autoEvaluate, they review each other's answers blind (or " +
      "settings.reviewers do, judge-only models among them), scoring the rubric's dimensions (settings.rubric).",
    responses: { 201: jsonResponse(runStarted, "The run, started."), ...errorResponses(400, 409, 429) },
  }),
  list: describeRoute({
    tags: ["Runs"],
    summary: "List runs, newest first",
    responses: { 200: jsonResponse(runList, "A page of runs."), ...errorResponses(400) },
  }),
  get: describeRoute({
    tags: ["Runs"],
    summary: "A run: its answers, reviews, ranking and costs",
    parameters: [runId],
    responses: { 200: jsonResponse(runDetailSchema, "The run."), ...errorResponses(404) },
  }),
  delete: describeRoute({
    tags: ["Runs"],
    summary: "Delete a run with its answers, reviews and judge battles",
    parameters: [runId],
    responses: { 200: jsonResponse(runDeleted, "Deleted."), ...errorResponses(404) },
  }),
  cancel: describeRoute({
    tags: ["Runs"],
    summary: "Stop a run's spending: abort the calls in flight, keep what finished",
    parameters: [runId],
    responses: { 200: jsonResponse(runAccepted, "The run, cancelled."), ...errorResponses(404, 409) },
  }),
  evaluate: describeRoute({
    tags: ["Runs"],
    summary: "Start (or restart) the cross-review and the ranking",
    parameters: [runId],
    responses: { 202: jsonResponse(runAccepted, "The evaluation started."), ...errorResponses(400, 404, 409, 429) },
  }),
  retryAnswers: describeRoute({
    tags: ["Runs"],
    summary: "Ask failed answers again (every failed one when modelIds is left out)",
    parameters: [runId],
    responses: { 202: jsonResponse(runAccepted, "The retry started."), ...errorResponses(400, 404, 409, 429) },
  }),
  export: describeRoute({
    tags: ["Runs"],
    summary: "Download a run as JSON or Markdown",
    parameters: [runId],
    responses: {
      200: mediaResponse("The file, as an attachment.", {
        "application/json": runExport,
        "text/markdown": runMarkdown,
      }),
      ...errorResponses(400, 404),
    },
  }),
};

export const runsApi = new Hono<{ Bindings: Env }>()
  .post("/", described.create, validate("json", createRunInput), async (c) => {
    const { contestants: _contestants, ...started } = await startRun(c, c.req.valid("json"));
    return c.json(started, 201);
  })
  .get("/", described.list, validate("query", listRunsQuery), async (c) => {
    const { cursor, limit } = c.req.valid("query");
    const db = openDb(c.env.DB);
    const { rows, nextCursor } = await listRuns(db, limit, parseCursor(cursor));
    const names = await contestantNames(
      db,
      rows.flatMap((row) => row.settings.models.map((m) => m.id)),
    );
    const items = rows.map((row) => {
      const first = isTerminal(row.status) ? row.finalRanking?.[0] : undefined;
      // A blind run's total, next to its labels' token counts, would say which model wrote which: shown once it ends.
      const costHidden = isBlind(row);
      return {
        id: row.id,
        createdAt: row.createdAt,
        question: row.question,
        status: row.status,
        models: row.settings.models.map((m) => m.id),
        names: Object.fromEntries(row.settings.models.map((m) => [m.id, names.get(m.id)!])),
        winner: first
          ? {
              label: first.label,
              modelId: first.modelId,
              displayName: first.modelId ? (names.get(first.modelId)?.displayName ?? displayName(first.modelId)) : null,
            }
          : null,
        costHidden,
        costUsd: costHidden ? null : row.costUsd,
        unknownCostModels: costHidden ? 0 : row.unknownCostModels,
      };
    });
    return c.json({ items, nextCursor });
  })
  .get("/:id", described.get, async (c) => c.json(await runDetail(c.env, await knownId(c, "run"))))
  .delete("/:id", described.delete, async (c) => {
    const id = await existingRun(c);
    await runRoom(c.env, id).destroy();
    await deleteRun(openDb(c.env.DB), id);
    return c.json({ deleted: true as const });
  })
  .post("/:id/cancel", described.cancel, async (c) => {
    const id = await existingRun(c);
    return c.json(unwrap(await runRoom(c.env, id).cancel()));
  })
  .post("/:id/evaluate", described.evaluate, async (c) => {
    const id = await knownId(c, "run");
    return c.json(
      await withSpend(
        c,
        id,
        (run) => estimateEvaluation(c.env, run),
        (holdId) => runRoom(c.env, id).evaluate(holdId),
      ),
      202,
    );
  })
  .post("/:id/answers", described.retryAnswers, validate("json", retryAnswersInput), async (c) => {
    const id = await knownId(c, "run");
    const { modelIds } = c.req.valid("json");
    return c.json(
      await withSpend(
        c,
        id,
        (run, called) => estimateAnswerRetry(c.env, run, modelIds?.map(called)),
        (holdId) => runRoom(c.env, id).retryAnswers(modelIds, holdId),
      ),
      202,
    );
  })
  .get("/:id/export", described.export, validate("query", exportQuery), async (c) => {
    const detail = await runDetail(c.env, await knownId(c, "run"));
    const { format } = c.req.valid("query");
    const file = `quorum-run-${detail.run.id}.${format}`;
    c.header("Content-Disposition", `attachment; filename="${file}"`);
    if (format === "md") return c.body(exportMarkdown(detail), 200, { "Content-Type": "text/markdown; charset=utf-8" });
    return c.body(exportJson(detail, settings(c.env).version), 200, {
      "Content-Type": "application/json; charset=utf-8",
    });
  })
  .get("/:id/ws", validate("query", wsQuery), async (c) => {
    requireUpgrade(c);
    return connectRoom(runRoom(c.env, await existingRun(c)), c.req.raw, () => notFound("Run"));
  });
