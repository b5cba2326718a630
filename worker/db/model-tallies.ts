/**
 * A view's counts per model, from the per-model counters (`model_counts`, migration 0018): a thousand rows where
 * the view's pairs are hundreds of thousands, so a leaderboard read can show a large view's counts without
 * reading its pairs (its fit reads them, in its room).
 */
import type { Slice } from "./leaderboard-queries";
import type { Db } from "./queries";

/** One model's counts, by the rules of the pairs they sum (arena/leaderboard.ts countsOf). */
export interface ModelTally {
  modelId: string;
  /** battles won, a tie a win for both, both-bad for neither */
  wins: number;
  battles: number;
  /** `tie` battles (not both-bad) */
  ties: number;
}

/**
 * The slice's counts per model with at least one battle, as countsOf makes them from readPairCounts' pairs. The
 * counters keep no label, no evaluation, no dedup and no "without the demo models' battles": such slices are read
 * as pairs.
 */
export async function readModelTallies(
  db: Db,
  slice: Omit<Slice, "label" | "dedup" | "withoutDemo" | "evaluation">,
): Promise<ModelTally[]> {
  const flagged = slice.includeFlagged ? "" : " AND flagged = 0";
  const { results } = await db.$client
    .prepare(
      `SELECT model_id AS modelId, sum(wins) AS wins, sum(battles) AS battles, sum(ties) AS ties FROM model_counts WHERE source IN (${slice.sources.map(() => "?").join(", ")}) AND category = ?${flagged} GROUP BY model_id HAVING sum(battles) > 0`,
    )
    .bind(...slice.sources, slice.category)
    .all<ModelTally>();
  return results;
}
