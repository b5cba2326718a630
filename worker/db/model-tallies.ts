/**
 * A view's counts per model, summed in D1 from the pair counters: a thousand rows where the pairs are hundreds of
 * thousands, so a leaderboard read can show a large view's counts without reading its pairs (the fit reads them,
 * in its room).
 */
import type { Slice } from "./leaderboard-queries";
import type { Db } from "./queries";

/** One model's counts, by the rules of the pairs they are summed from (arena/leaderboard.ts countsOf). */
export interface ModelTally {
  modelId: string;
  /** battles won, a tie a win for both, both-bad for neither */
  wins: number;
  battles: number;
  /** `tie` battles (not both-bad) */
  ties: number;
}

/**
 * The slice's counts per model with at least one battle, as countsOf would make them from readPairCounts' pairs.
 * A prompt label's or a deduplicated slice is read as pairs (readPairCounts): neither is asked here.
 */
export async function readModelTallies(db: Db, slice: Omit<Slice, "label" | "dedup">): Promise<ModelTally[]> {
  const where = [`source IN (${slice.sources.map(() => "?").join(", ")})`, "category = ?"];
  const params: unknown[] = [...slice.sources, slice.category];
  if (!slice.includeFlagged) where.push("flagged = 0");
  if (slice.withoutDemo) where.push("substr(model_lo, 1, 5) <> 'demo:' AND substr(model_hi, 1, 5) <> 'demo:'");
  const side = (model: string, wins: string) =>
    `SELECT ${model} AS model, ${wins} + ties AS wins, lo_wins + hi_wins + ties + both_bad AS battles, ties FROM pair_counts WHERE ${where.join(" AND ")}`;
  const { results } = await db.$client
    .prepare(
      `SELECT model AS modelId, sum(wins) AS wins, sum(battles) AS battles, sum(ties) AS ties FROM (${side("model_lo", "lo_wins")} UNION ALL ${side("model_hi", "hi_wins")}) GROUP BY model HAVING sum(battles) > 0`,
    )
    .bind(...params, ...params)
    .all<ModelTally>();
  return results;
}
