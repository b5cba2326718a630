/**
 * What was spent over the last days, one row per UTC day, kind of call and model: the same calls the day's
 * figure in spend-queries.ts counts, blind work not yet revealed left out (a model's row would tell its side).
 */
import type { Db } from "./queries";
import { hiddenItemSql } from "./spend-queries";

/**
 * The kinds of paid call: a run's answers, reviews and syntheses, an arena side's reply, a judge, the classifier,
 * a call to the OpenAI-compatible endpoint (`v1`), any call of a goal battle (`goal`), a chat thread's single or topper
 * reply (`chat`).
 */
export type SpendKind = "answer" | "review" | "synthesis" | "side" | "judge" | "classifier" | "v1" | "goal" | "chat";

export interface SpendHistoryRow {
  /** 00:00 UTC of the day, ms since the epoch */
  day: number;
  kind: SpendKind;
  modelId: string;
  /** US dollars of the calls with a known price */
  usd: number;
  /** calls that used tokens but have no price: left out of `usd` */
  unknownCostCalls: number;
  calls: number;
}

const DAY_MS = 86_400_000;

/** Every paid call that ended at or after ?1, with its item, kind and model. */
const CALLS = `
  SELECT run_id AS item, 'answer' AS kind, model_id AS model, cost_usd, tokens_in, tokens_out, completed_at
    FROM answers WHERE completed_at >= ?1
  UNION ALL SELECT run_id, 'review', reviewer_model_id, cost_usd, tokens_in, tokens_out, completed_at
    FROM review_sets WHERE completed_at >= ?1
  UNION ALL SELECT run_id, 'synthesis', model_id, cost_usd, tokens_in, tokens_out, completed_at
    FROM syntheses WHERE completed_at >= ?1
  UNION ALL SELECT m.comparison_id, 'side', CASE m.side WHEN 'left' THEN c.model1_id ELSE c.model2_id END,
      m.cost_usd, m.tokens_in, m.tokens, m.completed_at
    FROM messages m JOIN comparisons c ON c.id = m.comparison_id WHERE m.completed_at >= ?1 AND m.role = 'assistant'
  UNION ALL SELECT item_id, kind, model_id, cost_usd, tokens_in, tokens_out, completed_at
    FROM spend_entries WHERE completed_at >= ?1`;

/** The calls since `since` (ms; rounded down to its UTC day), summed per day, kind and model. */
export async function spendHistory(db: Db, since: number): Promise<SpendHistoryRow[]> {
  const start = Math.floor(since / DAY_MS) * DAY_MS;
  const { results } = await db.$client
    .prepare(
      `SELECT (completed_at / ${DAY_MS}) * ${DAY_MS} AS day, kind, model AS modelId,
         coalesce(sum(cost_usd), 0) AS usd,
         sum(CASE WHEN cost_usd IS NULL AND coalesce(tokens_in, 0) + coalesce(tokens_out, 0) > 0 THEN 1 ELSE 0 END) AS unknownCostCalls,
         sum(CASE WHEN cost_usd IS NOT NULL OR coalesce(tokens_in, 0) + coalesce(tokens_out, 0) > 0 THEN 1 ELSE 0 END) AS calls
       FROM (${CALLS})
       WHERE item IS NULL OR NOT ${hiddenItemSql("item")}
       GROUP BY day, kind, model
       HAVING calls > 0
       ORDER BY day, kind, model`,
    )
    .bind(start)
    .all<SpendHistoryRow>();
  return results;
}
