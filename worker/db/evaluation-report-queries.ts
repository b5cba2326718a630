/**
 * What an evaluation's report is built from: its row, its prompt set's items, every answer (with the style
 * counts of its text, so the report never holds the texts) and every judgment; and, for one item, the texts and
 * the judges' reasons side by side.
 */
import { and, asc, eq, inArray, or } from "drizzle-orm";
import { styleCountsOf, type StyleCounts } from "../rating/style-features";
import type { Db } from "./queries";
import {
  evaluationAnswers,
  evaluationGoals,
  evaluationJudgments,
  evaluationReviews,
  evaluations,
  pairCounts,
  presets,
  promptSetItems,
} from "./schema";

export type EvaluationRow = typeof evaluations.$inferSelect;
export type ItemRow = typeof promptSetItems.$inferSelect;
export type AnswerRow = typeof evaluationAnswers.$inferSelect;
export type JudgmentRow = typeof evaluationJudgments.$inferSelect;
export type ReviewRow = typeof evaluationReviews.$inferSelect;
export type GoalRow = typeof evaluationGoals.$inferSelect;

export async function loadEvaluation(db: Db, id: string): Promise<EvaluationRow | null> {
  return (await db.select().from(evaluations).where(eq(evaluations.id, id)).get()) ?? null;
}

export interface ReportRows {
  items: { itemId: string; category: string | null }[];
  answers: (Omit<AnswerRow, "text" | "evaluationId"> & { style: StyleCounts | null })[];
  judgments: Omit<JudgmentRow, "reasons" | "evaluationId">[];
  /** a council evaluation's reviews, without their critiques; none for a pairwise one */
  reviews: Omit<ReviewRow, "reviews" | "evaluationId">[];
  /** a goal evaluation's battles; none for another method */
  goals: Omit<GoalRow, "evaluationId">[];
}

export async function loadReportRows(db: Db, evaluation: EvaluationRow): Promise<ReportRows> {
  const [items, answers, judgments, reviews, goals] = await Promise.all([
    db
      .select({ itemId: promptSetItems.itemId, category: promptSetItems.category })
      .from(promptSetItems)
      .where(eq(promptSetItems.setId, evaluation.promptSetId))
      .orderBy(asc(promptSetItems.position))
      .all(),
    db.select().from(evaluationAnswers).where(eq(evaluationAnswers.evaluationId, evaluation.id)).all(),
    db.select().from(evaluationJudgments).where(eq(evaluationJudgments.evaluationId, evaluation.id)).all(),
    evaluation.method === "council"
      ? db.select().from(evaluationReviews).where(eq(evaluationReviews.evaluationId, evaluation.id)).all()
      : [],
    evaluation.method === "goal"
      ? db.select().from(evaluationGoals).where(eq(evaluationGoals.evaluationId, evaluation.id)).all()
      : [],
  ]);
  return {
    items,
    answers: answers.map(({ text, evaluationId: _, ...a }) => ({
      ...a,
      style: a.status === "complete" ? styleCountsOf(text) : null,
    })),
    judgments: judgments.map(({ reasons: _, evaluationId: __, ...j }) => j),
    reviews: reviews.map(({ reviews: _, evaluationId: __, ...r }) => r),
    goals: goals.map(({ evaluationId: _, ...g }) => g),
  };
}

export interface ItemDetail {
  item: ItemRow;
  answers: AnswerRow[];
  judgments: JudgmentRow[];
  reviews: ReviewRow[];
  goals: GoalRow[];
}

export async function loadItemDetail(db: Db, evaluation: EvaluationRow, itemId: string): Promise<ItemDetail | null> {
  const item = await db
    .select()
    .from(promptSetItems)
    .where(and(eq(promptSetItems.setId, evaluation.promptSetId), eq(promptSetItems.itemId, itemId)))
    .get();
  if (!item) return null;
  const [answers, judgments, reviews, goals] = await Promise.all([
    db
      .select()
      .from(evaluationAnswers)
      .where(and(eq(evaluationAnswers.evaluationId, evaluation.id), eq(evaluationAnswers.itemId, itemId)))
      .orderBy(asc(evaluationAnswers.contestant), asc(evaluationAnswers.sample))
      .all(),
    db
      .select()
      .from(evaluationJudgments)
      .where(and(eq(evaluationJudgments.evaluationId, evaluation.id), eq(evaluationJudgments.itemId, itemId)))
      .orderBy(asc(evaluationJudgments.judge), asc(evaluationJudgments.sample), asc(evaluationJudgments.first))
      .all(),
    db
      .select()
      .from(evaluationReviews)
      .where(and(eq(evaluationReviews.evaluationId, evaluation.id), eq(evaluationReviews.itemId, itemId)))
      .orderBy(asc(evaluationReviews.reviewer), asc(evaluationReviews.sample))
      .all(),
    db
      .select()
      .from(evaluationGoals)
      .where(and(eq(evaluationGoals.evaluationId, evaluation.id), eq(evaluationGoals.itemId, itemId)))
      .orderBy(asc(evaluationGoals.sample), asc(evaluationGoals.first), asc(evaluationGoals.second))
      .all(),
  ]);
  return { item, answers, judgments, reviews, goals };
}

/** The name and model of each preset version named, keyed `preset:<slug>@<version>`. */
export async function presetNames(
  db: Db,
  refs: readonly { slug: string; version: number }[],
): Promise<Map<string, { name: string; modelId: string }>> {
  if (refs.length === 0) return new Map();
  const rows = await db
    .select({ slug: presets.slug, version: presets.version, name: presets.name, modelId: presets.modelId })
    .from(presets)
    .where(inArray(presets.slug, [...new Set(refs.map((r) => r.slug))]))
    .all();
  return new Map(rows.map((r) => [`preset:${r.slug}@${r.version}`, { name: r.name, modelId: r.modelId }]));
}

/**
 * What a revision of `contestant` reads: the judged games it played (a council evaluation's: the complete reviews,
 * whose rankings stand for its games), and the prompts and first-sample answers of the items they were on (a
 * revision picks the worst few of them).
 */
export async function loadContestantGames(
  db: Db,
  evaluation: EvaluationRow,
  contestant: string,
): Promise<{
  judgments: JudgmentRow[];
  reviews: ReviewRow[];
  items: Map<string, string>;
  answers: Map<string, string>;
}> {
  const [judgments, reviewed] = await Promise.all([
    db
      .select()
      .from(evaluationJudgments)
      .where(
        and(
          eq(evaluationJudgments.evaluationId, evaluation.id),
          eq(evaluationJudgments.status, "complete"),
          or(eq(evaluationJudgments.first, contestant), eq(evaluationJudgments.second, contestant)),
        ),
      )
      .all(),
    evaluation.method === "council"
      ? db
          .select()
          .from(evaluationReviews)
          .where(and(eq(evaluationReviews.evaluationId, evaluation.id), eq(evaluationReviews.status, "complete")))
          .all()
      : [],
  ]);
  const reviews = reviewed.filter((r) => r.ranking?.includes(contestant));
  const itemIds = new Set([...judgments, ...reviews].map((j) => j.itemId));
  if (itemIds.size === 0) return { judgments, reviews, items: new Map(), answers: new Map() };
  const [items, answers] = await Promise.all([
    db
      .select({ itemId: promptSetItems.itemId, prompt: promptSetItems.prompt })
      .from(promptSetItems)
      .where(eq(promptSetItems.setId, evaluation.promptSetId))
      .all(),
    db
      .select({
        itemId: evaluationAnswers.itemId,
        contestant: evaluationAnswers.contestant,
        text: evaluationAnswers.text,
      })
      .from(evaluationAnswers)
      .where(and(eq(evaluationAnswers.evaluationId, evaluation.id), eq(evaluationAnswers.sample, 0)))
      .all(),
  ]);
  return {
    judgments,
    reviews,
    items: new Map(items.map((i) => [i.itemId, i.prompt])),
    answers: new Map(answers.map((a) => [`${a.itemId}\n${a.contestant}`, a.text])),
  };
}

/**
 * The arena's counted human votes (every category, flagged ones left out) on each pair of these contestants: what
 * the report holds its judges' verdicts against. One read of the pair counters, whatever the number of votes.
 */
export async function humanPairsAmong(
  db: Db,
  contestants: readonly string[],
): Promise<{ lo: string; hi: string; loWins: number; hiWins: number; ties: number; bothBad: number }[]> {
  if (contestants.length < 2) return [];
  const p = pairCounts;
  return db
    .select({ lo: p.modelLo, hi: p.modelHi, loWins: p.loWins, hiWins: p.hiWins, ties: p.ties, bothBad: p.bothBad })
    .from(p)
    .where(
      and(
        eq(p.source, "human"),
        eq(p.category, ""),
        eq(p.flagged, false),
        inArray(p.modelLo, [...contestants]),
        inArray(p.modelHi, [...contestants]),
      ),
    )
    .all();
}
