/**
 * The hand-built write statements against the real D1 and migrations: rows read back through drizzle exactly
 * as written (JSON and boolean columns encoded as the schema says), many rows split to fit D1's 100 bound
 * values, an upsert overwrites, "ignore" keeps, and a column left out takes its default; a run's judge
 * battles and review sets, written twice, are stored once.
 */
import { env } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { aggregationWrites, openDb, reviewSetWrites } from "../../worker/db/queries";
import type { ReviewSetRecord } from "../../worker/db/records";
import * as schema from "../../worker/db/schema";
import { insertRows, runWrites } from "../../worker/db/statements";

let next = 0;

async function newRun(): Promise<string> {
  const id = `statements-${++next}`;
  const run = {
    id,
    createdAt: 1_900_000_000_000,
    updatedAt: 1_900_000_000_000,
    question: "Q?",
    settings: { models: [{ id: "demo:concise" }] } as never,
    status: "done" as const,
    error: null,
  };
  await runWrites(env.DB, insertRows(env.DB, schema.runs, [run]));
  return id;
}

const answer = (runId: string, label: string) => ({
  id: `${runId}-${label}`,
  runId,
  modelId: "demo:concise",
  label,
  params: { temperature: 0.5 },
  text: `answer ${label}`,
  status: "done" as const,
  latencyMs: 12,
  tokensIn: 3,
  tokensOut: 4,
  costUsd: 0.25,
  error: null,
  truncated: true,
  finishReason: "stop",
  attempts: 2,
  droppedParams: ["top_p"],
  completedAt: 1_900_000_000_500,
});

describe("write statements", () => {
  it("writes rows that read back as written, in as few statements as fit 100 bound values", async () => {
    const runId = await newRun();
    const rows = Array.from({ length: 13 }, (_, i) => answer(runId, String.fromCharCode(65 + i)));
    const writes = insertRows(env.DB, schema.answers, rows);
    // 17 columns: 5 rows per statement, so 13 rows take 3.
    expect(writes).toHaveLength(3);
    await runWrites(env.DB, writes);
    const stored = await openDb(env.DB)
      .select()
      .from(schema.answers)
      .where(eq(schema.answers.runId, runId))
      .orderBy(schema.answers.label);
    expect(stored).toEqual(rows);
  });

  it("upserts on the key, leaves a row alone with ignore, and gives a column left out its default", async () => {
    const runId = await newRun();
    const first = answer(runId, "A");
    await runWrites(env.DB, insertRows(env.DB, schema.answers, [first]));

    const changed = { ...first, text: "rewritten", truncated: false, droppedParams: null, params: null };
    await runWrites(env.DB, [...insertRows(env.DB, schema.answers, [changed], { update: ["id"] })]);
    const db = openDb(env.DB);
    expect(await db.select().from(schema.answers).where(eq(schema.answers.id, first.id)).get()).toEqual(changed);

    await runWrites(env.DB, insertRows(env.DB, schema.answers, [{ ...first, text: "ignored" }], "ignore"));
    expect((await db.select().from(schema.answers).where(eq(schema.answers.id, first.id)).get())?.text).toBe(
      "rewritten",
    );

    const { text: _text, truncated: _truncated, attempts: _attempts, ...bare } = answer(runId, "B");
    await runWrites(env.DB, insertRows(env.DB, schema.answers, [bare]));
    const b = await db.select().from(schema.answers).where(eq(schema.answers.id, bare.id)).get();
    expect(b).toMatchObject({ text: "", truncated: false, attempts: 0, droppedParams: ["top_p"] });
  });

  it("fails a plain insert whose key is taken, and leaves the batch's other rows unwritten", async () => {
    const runId = await newRun();
    await runWrites(env.DB, insertRows(env.DB, schema.answers, [answer(runId, "A")]));
    const batch = [
      ...insertRows(env.DB, schema.answers, [answer(runId, "B")]),
      ...insertRows(env.DB, schema.answers, [answer(runId, "A")]),
    ];
    await expect(runWrites(env.DB, batch)).rejects.toThrow(/UNIQUE constraint failed/);
    const labels = await openDb(env.DB)
      .select({ label: schema.answers.label })
      .from(schema.answers)
      .where(eq(schema.answers.runId, runId));
    expect(labels).toEqual([{ label: "A" }]);
  });

  it("writes a run's judge battles in one statement, each column as the battle says, counted once however often written", async () => {
    const runId = await newRun();
    const battles = Array.from({ length: 12 }, (_, i) => ({
      id: `${runId}-b${i}`,
      modelA: `stmt-${runId}-${i}`,
      modelB: `stmt-${runId}-${i + 1}`,
      winner: i % 2 ? ("model_b" as const) : ("model_a" as const),
      reviewerModelId: `stmt-reviewer-${i % 3}`,
    }));
    const aggregation = { finalRanking: [], voteBreakdown: {}, methodVersion: "test" } as never;
    const writes = aggregationWrites(env.DB, runId, aggregation, battles, "done");
    expect(writes).toHaveLength(3);
    await runWrites(env.DB, writes);
    await runWrites(env.DB, aggregationWrites(env.DB, runId, aggregation, battles, "done"));

    const rows = await env.DB.prepare(
      "SELECT id, source, model_a, model_b, winner, reviewer_model_id, judge, run_id, flagged, category FROM battles WHERE run_id = ? ORDER BY rowid",
    )
      .bind(runId)
      .all();
    expect(rows.results).toEqual(
      battles.map((b) => ({
        id: b.id,
        source: "judge",
        model_a: b.modelA,
        model_b: b.modelB,
        winner: b.winner,
        reviewer_model_id: b.reviewerModelId,
        judge: b.reviewerModelId,
        run_id: runId,
        flagged: 0,
        category: null,
      })),
    );
    const counted = await env.DB.prepare(
      "SELECT sum(lo_wins + hi_wins + ties + both_bad) AS n FROM pair_counts WHERE source = 'judge' AND category = '' AND model_lo LIKE ?",
    )
      .bind(`stmt-${runId}-%`)
      .first("n");
    expect(counted).toBe(12);
    expect(await env.DB.prepare("SELECT status FROM runs WHERE id = ?").bind(runId).first("status")).toBe("done");
  });

  it("rewrites a review set and its reviews in place, leaving one row per review", async () => {
    const runId = await newRun();
    await runWrites(
      env.DB,
      insertRows(
        env.DB,
        schema.answers,
        ["A", "B", "C"].map((label) => answer(runId, label)),
      ),
    );
    const set = (critique: string): ReviewSetRecord => ({
      id: `${runId}-rA`,
      reviewerModelId: "demo:concise",
      reviewerAnswerId: `${runId}-A`,
      status: "done",
      ranking: ["B", "C"],
      confidence: 0.5,
      weight: 1,
      rawOutput: "{}",
      error: null,
      latencyMs: 5,
      tokensIn: 1,
      tokensOut: 2,
      costUsd: 0,
      attempts: 1,
      shownOrder: ["C", "B"],
      reviews: ["B", "C"].map((label) => ({
        id: `${runId}-rA-${label}`,
        targetAnswerId: `${runId}-${label}`,
        scores: { correctness: 4, completeness: 3, clarity: 5, helpfulness: 4, safety: 5, overall: 4 },
        critique,
      })),
    });
    await runWrites(env.DB, reviewSetWrites(env.DB, runId, set("first")));
    await runWrites(env.DB, reviewSetWrites(env.DB, runId, set("second")));
    const reviews = await openDb(env.DB)
      .select()
      .from(schema.reviews)
      .where(eq(schema.reviews.runId, runId))
      .orderBy(schema.reviews.id);
    expect(reviews.map((v) => [v.targetAnswerId, v.critique, v.scores.clarity])).toEqual([
      [`${runId}-B`, "second", 5],
      [`${runId}-C`, "second", 5],
    ]);
    expect(await env.DB.prepare("SELECT count(*) AS n FROM review_sets WHERE run_id = ?").bind(runId).first("n")).toBe(
      1,
    );
  });
});
