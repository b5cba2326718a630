/**
 * POST /api/evaluations/:id/revisions: on a finished evaluation, a chosen model reads the items a preset lost (its
 * answers, the answers that beat them, the judges' reasons) and drafts a revised system prompt with its rationale.
 * Nothing is saved: the page shows the draft, and saving it is an edit of the preset (PATCH /api/presets/:slug).
 * The call sets its most aside like any paid call and its cost is kept as a judge call's.
 */
import { Hono } from "hono";
import { describeRoute } from "hono-openapi";
import { ASSUMED_MAX_TOKENS, priceCalls, tokensOf } from "../council/estimate";
import { type EvaluationRow, loadContestantGames, loadEvaluation } from "../db/evaluation-report-queries";
import { presetsByRef } from "../db/preset-queries";
import { openDb } from "../db/queries";
import { settleCall } from "../db/spend-queries";
import { buildRevisionRequest, lostItems, parseRevision } from "../evaluation/revision-prompt";
import { reviewGames } from "../evaluation/revision-reviews";
import { costOf } from "../providers/pricing";
import { logCall } from "../rooms/log";
import { askStructured } from "../rooms/structured-call";
import { settings } from "../shared/config";
import { parsePresetId } from "../shared/contestant";
import { evaluationRevisionResponse } from "../shared/evaluation-report";
import { evaluationRevisionInput } from "../shared/requests";
import { type Rubric, rubric } from "../shared/run";
import { checkModels } from "./check-models";
import { ApiError, notFound } from "./errors";
import { errorResponses, jsonResponse, pathParam } from "./openapi-describe";
import { reserveSpend, workMs } from "./spend";
import { validate } from "./validate";

const numberOr = (v: unknown) => (typeof v === "number" ? v : null);

/** A council rubric as the row keeps it (the request's, as given), or null. */
const councilRubricOf = (v: unknown): Rubric | null => {
  const parsed = rubric.safeParse(v);
  return parsed.success ? parsed.data : null;
};

/** What the evaluation was started with (its row keeps the rubric and settings as given). */
function planOf(evaluation: EvaluationRow) {
  const s = evaluation.settings;
  return {
    promptSetId: evaluation.promptSetId,
    method: evaluation.method,
    contestants: evaluation.contestants,
    baseline: evaluation.baseline,
    judges: evaluation.judges,
    repeats: evaluation.repeats,
    rubric: typeof s.rubric === "string" ? s.rubric : councilRubricOf(s.rubric),
    settings: {
      timeoutMs: numberOr(s.timeoutMs),
      maxTokens: numberOr(s.maxTokens),
      temperature: numberOr(s.temperature),
    },
  };
}

const described = describeRoute({
  tags: ["Evaluations"],
  summary: "Suggest a revision of a preset's system prompt from the items it lost in a finished evaluation",
  description:
    "`model` reads the worst items the preset lost (at most five, each text cut short): its answer, the answer that beat it and the judges' reasons (a council evaluation: the items its reviewers ranked it low in, with their critiques of its answer), and drafts a revised system prompt with a short rationale. `plan` is the evaluation as started, to run again with the saved revision in the preset's place. Nothing is saved: save the draft with PATCH /api/presets/:slug (a used version gets version n+1). 409 unless the evaluation is completed, not a goal evaluation, and the contestant is a preset in it; 400 when it lost no item.",
  parameters: [pathParam("id", "The evaluation's id.")],
  responses: {
    200: jsonResponse(evaluationRevisionResponse, "The draft, with the items it was drafted from."),
    ...errorResponses(400, 404, 409, 429, 502),
  },
});

export const evaluationRevisionsApi = new Hono<{ Bindings: Env }>().post(
  "/:id/revisions",
  described,
  validate("json", evaluationRevisionInput),
  async (c) => {
    const { contestant, model } = c.req.valid("json");
    checkModels(c.env, [model]);
    const db = openDb(c.env.DB);
    const evaluation = await loadEvaluation(db, c.req.param("id"));
    if (!evaluation) throw notFound("Evaluation");
    if (evaluation.status !== "completed")
      throw new ApiError(
        409,
        "not_completed",
        `This evaluation is ${evaluation.status}: a revision is drafted from a completed evaluation's results.`,
      );
    if (evaluation.method === "goal")
      throw new ApiError(
        409,
        "not_for_goal",
        "A revision is drafted from answers and the judges' reasons, which a goal evaluation's battles don't have: open the battles the preset lost from the report's items, and revise its prompt from their transcripts.",
      );
    const ref = parsePresetId(contestant);
    if (!ref || !evaluation.contestants.includes(contestant))
      throw new ApiError(
        409,
        "not_a_preset_contestant",
        `"${contestant}" is not a preset contestant of this evaluation: only a preset's system prompt can be revised (${evaluation.contestants.filter((x) => parsePresetId(x)).join(", ") || "this evaluation has none"}).`,
      );
    const [preset] = await presetsByRef(db, [ref]);
    if (!preset) throw notFound("Preset");
    const games = await loadContestantGames(db, evaluation, contestant);
    // A council evaluation's games are its reviews' rankings, their reasons the reviewers' critiques.
    const judged =
      evaluation.method === "council"
        ? reviewGames(
            contestant,
            games.reviews.map((r) => ({ ...r, ranking: r.ranking ?? [], reviews: r.reviews ?? [] })),
          )
        : games.judgments.flatMap((j) => (j.verdict ? [{ ...j, verdict: j.verdict }] : []));
    const lost = lostItems(
      contestant,
      judged,
      (itemId) => games.items.get(itemId) ?? "",
      (itemId, who) => games.answers.get(`${itemId}\n${who}`) ?? "",
    );
    if (lost.length === 0)
      throw new ApiError(
        400,
        "nothing_lost",
        `${contestant} lost no item in this evaluation, so there is nothing to learn a revision from.`,
      );
    const currentPrompt = preset.systemPrompt ?? "";
    const request = buildRevisionRequest(currentPrompt, lost);
    const { charge, total } = priceCalls(c.env);
    // Asked at most twice (a second round when the output misses the format), so twice one call is set aside.
    charge(model, 2 * tokensOf(request.system + request.prompt), 2 * ASSUMED_MAX_TOKENS);
    const itemId = `revision-${crypto.randomUUID()}`;
    const { arena, retry } = settings(c.env);
    const holdId = await reserveSpend(c, {
      itemId,
      what: "call",
      estimate: total(),
      hidden: false,
      blindPrices: null,
      workMs: workMs(c.env, 2 * arena.timeoutMs),
    });
    const started = Date.now();
    const out = await askStructured(
      {
        env: c.env,
        cancel: new AbortController().signal,
        policy: { ...retry, maxDelayMs: 30_000 },
        timeoutMs: arena.timeoutMs,
      },
      { modelId: model, ...request, temperature: 0 },
      parseRevision,
    );
    const { tokensIn, tokensOut } = out.usage;
    const costUsd = tokensIn || tokensOut ? costOf(c.env, model, tokensIn ?? 0, tokensOut ?? 0) : null;
    logCall(c.env, {
      run: itemId,
      step: "revision",
      model,
      status: out.ok ? "done" : "failed",
      latencyMs: Date.now() - started,
      attempts: 1,
      error: out.ok ? undefined : out.error,
    });
    const paid = tokensIn !== null || tokensOut !== null;
    await settleCall(
      db,
      holdId,
      paid ? { kind: "judge", itemId, modelId: model, tokensIn, tokensOut, costUsd, completedAt: Date.now() } : null,
    );
    if (!out.ok) throw new ApiError(502, "revision_failed", `The drafting model failed: ${out.error}`);
    return c.json({
      contestant,
      model,
      currentPrompt,
      revisedPrompt: out.value.revisedPrompt,
      rationale: out.value.rationale,
      lostItems: lost.map(({ itemId, prompt, score, winner, reasons }) => ({ itemId, prompt, score, winner, reasons })),
      costUsd,
      plan: planOf(evaluation),
    });
  },
);
