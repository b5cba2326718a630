/**
 * An evaluation's results, read from D1 (no room is touched): GET /api/evaluations/:id/report, /matrix,
 * /items/:itemId and /export, and GET /api/evaluations/compare?a=&b= (before and after).
 */
import { Hono } from "hono";
import { describeRoute } from "hono-openapi";
import * as z from "zod/mini";
import {
  type EvaluationRow,
  humanPairsAmong,
  loadEvaluation,
  loadItemDetail,
  loadReportRows,
} from "../db/evaluation-report-queries";
import { openDb, type Db } from "../db/queries";
import { compareReports, lineageOf } from "../evaluation/compare";
import { judgmentsOfReview } from "../evaluation/council-games";
import { answersOfGoal, GOAL_RULE, judgmentOfGoal } from "../evaluation/goal-games";
import { battleLines, matrixCsv, reportMarkdown } from "../evaluation/export";
import type { FivePointVerdict } from "../evaluation/games";
import { matrixOf } from "../evaluation/matrix";
import { buildReport, type ReportInput } from "../evaluation/report";
import {
  evaluationCompareResponse,
  evaluationItemResponse,
  evaluationMatrixResponse,
  evaluationReportResponse,
} from "../shared/evaluation-report";
import { evaluationCompareQuery, evaluationExportQuery, evaluationMatrixQuery } from "../shared/requests";
import { contestantNames, namesRecord } from "./contestant-names";
import { ApiError, notFound } from "./errors";
import { errorResponses, jsonResponse, mediaResponse, pathParam } from "./openapi-describe";
import { validate } from "./validate";

const idParam = pathParam("id", "The evaluation's id.");

const described = {
  report: describeRoute({
    tags: ["Evaluations"],
    summary: "An evaluation's report: ratings with intervals, win rates, length control, cost, judges",
    description:
      "Computed from what has finished so far, so it can be read while the evaluation runs. Win rates are against the baseline, or the mean over the other contestants without one; `separation` says whether the leader is apart from the rest at 95%.",
    parameters: [idParam],
    responses: { 200: jsonResponse(evaluationReportResponse, "The report."), ...errorResponses(404) },
  }),
  matrix: describeRoute({
    tags: ["Evaluations"],
    summary: "Item × contestant: how each fared on each item, filtered to differences, failures or flips",
    parameters: [idParam],
    responses: { 200: jsonResponse(evaluationMatrixResponse, "The matrix rows."), ...errorResponses(400, 404) },
  }),
  item: describeRoute({
    tags: ["Evaluations"],
    summary:
      "One item: the prompt, every answer, and each judge's verdict and reasons in both orders (council: each reviewer's ranking and reasons)",
    parameters: [idParam, pathParam("itemId", "The item's id in its prompt set.")],
    responses: { 200: jsonResponse(evaluationItemResponse, "The item."), ...errorResponses(404) },
  }),
  export: describeRoute({
    tags: ["Evaluations"],
    summary:
      "Download the report: JSON (everything), CSV (the matrix), Markdown (the summary), or the games as clean battles",
    parameters: [idParam],
    responses: {
      200: mediaResponse("The file.", {
        "application/json": evaluationReportResponse,
        "text/csv": z.string(),
        "text/markdown": z.string(),
        "application/x-ndjson": z.string(),
      }),
      ...errorResponses(400, 404),
    },
  }),
  compare: describeRoute({
    tags: ["Evaluations"],
    summary: "Before and after: the change per contestant (a preset's versions matched on its slug) and per item",
    description:
      "Both evaluations must share items (by item id) and at least one contestant. Changes carry 95% intervals; items that got worse come first.",
    responses: { 200: jsonResponse(evaluationCompareResponse, "The comparison."), ...errorResponses(400, 404, 409) },
  }),
};

async function evaluationOr404(db: Db, id: string): Promise<EvaluationRow> {
  const evaluation = await loadEvaluation(db, id);
  if (!evaluation) throw notFound("Evaluation");
  return evaluation;
}

async function reportInputOf(db: Db, evaluation: EvaluationRow): Promise<ReportInput & { completedAt: number[] }> {
  const [rows, humanPairs] = await Promise.all([
    loadReportRows(db, evaluation),
    humanPairsAmong(db, evaluation.contestants),
  ]);
  const base = {
    humanPairs,
    contestants: evaluation.contestants,
    baseline: evaluation.baseline,
    items: rows.items,
    answers: rows.answers,
  };
  if (evaluation.method === "goal") {
    // Each battle as one game, each side's part as its contestant's answer: the report, matrix, exports and
    // before/after read a goal evaluation as they read the others.
    const judge = evaluation.judges[0] ?? null;
    const judgments = rows.goals.map((g) => judgmentOfGoal(g, judge));
    return {
      ...base,
      answers: rows.goals.flatMap(answersOfGoal),
      judgments,
      goals: rows.goals,
      goalJudge: judge,
      completedAt: judgments.map((j) => j.completedAt),
    };
  }
  if (evaluation.method === "council") {
    // Each ranking as the games it gives, so the standings, matrix and exports read a council evaluation as they read a pairwise one.
    const judgments = rows.reviews.flatMap(judgmentsOfReview);
    return { ...base, judgments, reviews: rows.reviews, completedAt: judgments.map((j) => j.completedAt) };
  }
  return {
    ...base,
    judgments: rows.judgments.map((j) => ({ ...j, verdict: j.verdict as FivePointVerdict | null })),
    completedAt: rows.judgments.map((j) => j.completedAt),
  };
}

async function fullReport(db: Db, evaluation: EvaluationRow) {
  const input = await reportInputOf(db, evaluation);
  const report = buildReport(input);
  const names = await contestantNames(db, [...evaluation.contestants, ...evaluation.judges]);
  const { judges: judgeSummaries, ...rest } = report;
  return {
    input,
    names,
    body: {
      id: evaluation.id,
      name: evaluation.name,
      status: evaluation.status,
      method: evaluation.method,
      promptSetId: evaluation.promptSetId,
      judges: evaluation.judges,
      names: Object.fromEntries(names),
      ...rest,
      judgeSummaries,
      rows: report.rows.map((r) => {
        const name = names.get(r.contestant);
        return { ...r, displayName: name?.displayName ?? r.contestant, modelId: name?.modelId ?? null };
      }),
    },
  };
}

export const evaluationReportApi = new Hono<{ Bindings: Env }>()
  .get("/compare", described.compare, validate("query", evaluationCompareQuery), async (c) => {
    const { a, b } = c.req.valid("query");
    const db = openDb(c.env.DB);
    const [before, after] = await Promise.all([evaluationOr404(db, a), evaluationOr404(db, b)]);
    const common = before.contestants.filter((x) => after.contestants.some((y) => lineageOf(x) === lineageOf(y)));
    if (common.length === 0)
      throw new ApiError(
        409,
        "nothing_in_common",
        "These evaluations share no contestant (a preset's versions count as one): compare two evaluations of the same contestants.",
      );
    const [inputA, inputB] = await Promise.all([reportInputOf(db, before), reportInputOf(db, after)]);
    const shared = new Set(inputA.items.map((i) => i.itemId).filter((id) => inputB.items.some((j) => j.itemId === id)));
    if (shared.size === 0)
      throw new ApiError(
        409,
        "nothing_in_common",
        "These evaluations share no item: compare two evaluations of the same prompt set (or of versions with the same item ids).",
      );
    const result = compareReports(
      { report: buildReport(inputA), matrix: matrixOf(inputA).filter((r) => shared.has(r.itemId)) },
      { report: buildReport(inputB), matrix: matrixOf(inputB).filter((r) => shared.has(r.itemId)) },
    );
    return c.json({
      a: { id: before.id, name: before.name },
      b: { id: after.id, name: after.name },
      promptSetId: after.promptSetId,
      names: await namesRecord(db, [...before.contestants, ...after.contestants]),
      ...result,
    });
  })
  .get("/:id/report", described.report, async (c) => {
    const db = openDb(c.env.DB);
    const { body } = await fullReport(db, await evaluationOr404(db, c.req.param("id")));
    return c.json(body);
  })
  .get("/:id/matrix", described.matrix, validate("query", evaluationMatrixQuery), async (c) => {
    const db = openDb(c.env.DB);
    const evaluation = await evaluationOr404(db, c.req.param("id"));
    const { filter } = c.req.valid("query");
    const input = await reportInputOf(db, evaluation);
    return c.json({
      contestants: evaluation.contestants,
      baseline: evaluation.baseline,
      filter,
      total: input.items.length,
      rows: matrixOf(input, filter),
    });
  })
  .get("/:id/items/:itemId", described.item, async (c) => {
    const db = openDb(c.env.DB);
    const evaluation = await evaluationOr404(db, c.req.param("id"));
    const detail = await loadItemDetail(db, evaluation, c.req.param("itemId"));
    if (!detail) throw notFound("Item");
    return c.json({
      itemId: detail.item.itemId,
      prompt: detail.item.prompt,
      category: detail.item.category,
      reference: detail.item.reference,
      answers: detail.answers.map((a) => ({
        contestant: a.contestant,
        sample: a.sample,
        status: a.status,
        text: a.text,
        error: a.error,
        tokensOut: a.tokensOut,
        latencyMs: a.latencyMs,
        costUsd: a.costUsd,
      })),
      judgments: detail.judgments.map((j) => ({
        judge: j.judge,
        sample: j.sample,
        first: j.first,
        second: j.second,
        status: j.status,
        verdict: j.verdict,
        reasons: j.reasons,
        error: j.error,
      })),
      // A council evaluation's item: each reviewer's ranking and its reasons, in place of pairwise verdicts.
      ...(evaluation.method === "council"
        ? {
            reviews: detail.reviews.map((r) => ({
              reviewer: r.reviewer,
              sample: r.sample,
              status: r.status,
              ranking: r.ranking,
              confidence: r.confidence,
              reviews: r.reviews ?? [],
              error: r.error,
            })),
          }
        : {}),
      // A goal evaluation's item: each battle on it, its outcome and why; its transcript at /goal-battles/:battleId.
      ...(evaluation.method === "goal"
        ? {
            battles: detail.goals.map((g) => ({
              battleId: g.battleId,
              sample: g.sample,
              first: g.first,
              second: g.second,
              status: g.status,
              winner: g.winner,
              endedReason: g.endedReason,
              rationale: g.rationale,
              turns: g.turns,
              error: g.error,
            })),
          }
        : {}),
    });
  })
  .get("/:id/export", described.export, validate("query", evaluationExportQuery), async (c) => {
    const db = openDb(c.env.DB);
    const evaluation = await evaluationOr404(db, c.req.param("id"));
    const { format } = c.req.valid("query");
    const { input, names, body } = await fullReport(db, evaluation);
    const file = `quorum-evaluation-${evaluation.id}`;
    const download = (text: string, type: string, ext: string) =>
      c.body(text, 200, {
        "Content-Type": `${type}; charset=utf-8`,
        "Content-Disposition": `attachment; filename="${file}.${ext}"`,
      });
    if (format === "json")
      return download(JSON.stringify({ ...body, matrix: matrixOf(input) }, null, 2), "application/json", "json");
    if (format === "csv") return download(matrixCsv(evaluation.contestants, matrixOf(input)), "text/csv", "csv");
    if (format === "md") {
      const shown = new Map([...names].map(([id, n]) => [id, n.displayName]));
      const meta = {
        name: evaluation.name,
        id: evaluation.id,
        promptSet: evaluation.promptSetId,
        // A goal evaluation's battles are decided by their goal rule first, its judge only at the limit.
        judges: evaluation.method === "goal" ? [GOAL_RULE, ...evaluation.judges] : evaluation.judges,
      };
      return download(reportMarkdown(meta, buildReport(input), shown), "text/markdown", "md");
    }
    const categoryOf = new Map(input.items.map((i) => [i.itemId, i.category]));
    const judged = input.judgments.map((j, k) => ({ ...j, completedAt: input.completedAt[k] }));
    const lines = battleLines(judged, categoryOf, evaluation.id);
    return download(lines.length ? `${lines.join("\n")}\n` : "", "application/x-ndjson", "jsonl");
  });
