/**
 * The leaderboard's reads that the counters can't answer alone: a label's appearances (voted comparisons with the
 * label), and the battles the Arena's dedup leaves out (how often each prompt was asked is counted by migration
 * 0015's triggers; which battles go is read for the few prompts past the cut). Both are joins in D1, walked from
 * the label's (or the prompts') side (CROSS JOIN fixes the order): a label's prompts by migration 0015's primary
 * key, each prompt's battles by their id (an imported battle) or by `battles_comparison` (a comparison's vote and
 * judges). Archived battles (R2) are not among the battles read.
 */
import type { PairTotals, Slice } from "./leaderboard-queries";
import type { Db } from "./queries";

interface Query {
  sql: string;
  params: unknown[];
}

/** The slice's conditions on the battle `b` (flagged battles only when the slice includes them). */
function battleFilter(slice: Slice): Query {
  // Unary + keeps SQLite from walking the battles by source: the label's (or the prompts') side leads.
  const where = [`+b.source IN (${slice.sources.map(() => "?").join(", ")})`];
  const params: unknown[] = [...slice.sources];
  if (slice.category !== "") {
    where.push("+b.category = ?");
    params.push(slice.category);
  }
  if (!slice.includeFlagged) where.push("+b.flagged = 0");
  if (slice.withoutDemo) where.push("substr(b.model_a, 1, 5) <> 'demo:' AND substr(b.model_b, 1, 5) <> 'demo:'");
  return { sql: where.join(" AND "), params };
}

/**
 * The slice's battles of the prompts with its label as rows (rowid, a, b, w, hash), the hash from their prompt row
 * when there is one.
 */
function labelBattles(slice: Slice, label: string): Query {
  const filter = battleFilter(slice);
  const columns = "b.rowid AS rowid, b.model_a AS a, b.model_b AS b, b.winner AS w, p.hash AS hash";
  const side = (join: string) =>
    `SELECT ${columns} FROM prompt_labels l CROSS JOIN battles b ON ${join} LEFT JOIN prompts p ON p.ref = l.ref WHERE l.label = ? AND ${filter.sql}`;
  return {
    sql: `${side("b.id = l.ref AND b.comparison_id IS NULL")} UNION ALL ${side("b.comparison_id = l.ref")}`,
    params: [label, ...filter.params, label, ...filter.params],
  };
}

/** The slice's battles whose prompt is known, as rows (rowid, a, b, w, hash). */
function promptBattles(slice: Slice): Query {
  const filter = battleFilter(slice);
  const columns = "b.rowid AS rowid, b.model_a AS a, b.model_b AS b, b.winner AS w, p.hash AS hash";
  const side = (join: string) =>
    `SELECT ${columns} FROM prompts p CROSS JOIN battles b ON ${join} WHERE p.hash IS NOT NULL AND ${filter.sql}`;
  return {
    sql: `${side("b.id = p.ref AND b.comparison_id IS NULL")} UNION ALL ${side("b.comparison_id = p.ref")}`,
    params: [...filter.params, ...filter.params],
  };
}

/** Outcome counts per pair of the battles `rows` selects, oriented as pair_counts is (lo < hi). */
const PAIR_TOTALS = `SELECT min(a, b) AS lo, max(a, b) AS hi,
    sum((w = 'model_a' AND a < b) OR (w = 'model_b' AND b < a)) AS loWins,
    sum((w = 'model_a' AND a > b) OR (w = 'model_b' AND b > a)) AS hiWins,
    sum(w = 'tie') AS ties, sum(w = 'tie (bothbad)') AS bothBad`;

/** Comparisons per model among the voted comparisons with the label (appearances, seed 000's, in a label's view). */
export async function readLabelledAppearances(db: Db, label: string, category: string): Promise<Map<string, number>> {
  const inCategory = category === "" ? "" : " AND c.category = ?2";
  const { results } = await db.$client
    .prepare(
      `SELECT m, count(*) AS n FROM (
         SELECT c.model1_id AS m FROM prompt_labels l JOIN comparisons c ON c.id = l.ref WHERE l.label = ?1 AND c.counted_at IS NOT NULL${inCategory}
         UNION ALL
         SELECT c.model2_id FROM prompt_labels l JOIN comparisons c ON c.id = l.ref WHERE l.label = ?1 AND c.counted_at IS NOT NULL${inCategory}
       ) GROUP BY m`,
    )
    .bind(...(category === "" ? [label] : [label, category]))
    .all<{ m: string; n: number }>();
  return new Map(results.map((r) => [r.m, r.n]));
}

/**
 * Which prompts are repeated heavily: the Arena's rule (FastChat's deduplication.py) takes the 99.9th percentile
 * of the prompts' battle counts (`"arena"`); a number is a fixed cap instead.
 */
export type DedupRule = "arena" | number;

/** The Arena's cut: prompts asked more often than this percentile of the prompts' counts are capped. */
export const DEDUP_PERCENTILE = 0.999;

export interface DedupResult {
  /** battles a heavily repeated prompt keeps (its first ones, by insertion) */
  cap: number;
  /** battles left out, and their outcome counts per pair */
  removed: number;
  pairs: PairTotals[];
}

/**
 * How often each prompt was asked in the slice, as the CTE `n(hash, c)`: migration 0015's counters, or in a
 * label's view (or one without the demo models), counted over the view's battles (as the CTE `s0`).
 */
function repeats(slice: Slice): Query {
  // The counters know prompts, not models: a view that leaves models out counts over its battles instead.
  if (slice.label || slice.withoutDemo) {
    const rows = slice.label ? labelBattles(slice, slice.label) : promptBattles(slice);
    return {
      sql: `WITH s0 AS MATERIALIZED (${rows.sql}), n AS (SELECT hash, count(*) AS c FROM s0 WHERE hash IS NOT NULL GROUP BY hash)`,
      params: rows.params,
    };
  }
  // One source's counted battles hold one row per prompt already: read straight off prompt_repeats_battles.
  if (slice.sources.length === 1 && !slice.includeFlagged)
    return {
      sql: "WITH n AS (SELECT hash, battles AS c FROM prompt_repeats WHERE source = ? AND category = ? AND flagged = 0)",
      params: [slice.sources[0], slice.category],
    };
  const where = [`source IN (${slice.sources.map(() => "?").join(", ")})`, "category = ?"];
  if (!slice.includeFlagged) where.push("flagged = 0");
  return {
    sql: `WITH n AS (SELECT hash, sum(battles) AS c FROM prompt_repeats WHERE ${where.join(" AND ")} GROUP BY hash)`,
    params: [...slice.sources, slice.category],
  };
}

/** The CTE `s(rowid, a, b, w, hash)`: the slice's battles of the prompts in the CTE `heavy(hash)`. */
function heavyBattles(slice: Slice): Query {
  if (slice.label || slice.withoutDemo)
    return { sql: "s AS (SELECT * FROM s0 WHERE hash IN (SELECT hash FROM heavy))", params: [] };
  const filter = battleFilter(slice);
  const columns = "b.rowid AS rowid, b.model_a AS a, b.model_b AS b, b.winner AS w, p.hash AS hash";
  const side = (join: string) =>
    `SELECT ${columns} FROM heavy h CROSS JOIN prompts p ON p.hash = h.hash CROSS JOIN battles b ON ${join} WHERE ${filter.sql}`;
  return {
    sql: `s AS (${side("b.id = p.ref AND b.comparison_id IS NULL")} UNION ALL ${side("b.comparison_id = p.ref")})`,
    params: [...filter.params, ...filter.params],
  };
}

/**
 * The battles the dedup rule leaves out of the slice: for each prompt asked more than the cap (the percentile,
 * interpolated linearly as pandas' quantile does, or the fixed number), every battle after its first `cap`.
 * FastChat keeps a random sample of that size; this keeps the earliest, so a reload drops the same battles. The
 * counts come from counters; only the few heavily repeated prompts' battles are read.
 */
export async function readDedupDrops(db: Db, slice: Slice, rule: DedupRule): Promise<DedupResult> {
  const counts = repeats(slice);
  let cut: number;
  if (rule === "arena") {
    // The percentile's two neighbours, found from the top: they lie among the most repeated 0.1%.
    const first = await db.$client
      .prepare(`${counts.sql} SELECT count(*) AS total FROM n WHERE c > 0`)
      .bind(...counts.params)
      .first<{ total: number }>();
    const total = first?.total ?? 0;
    if (total === 0) return { cap: 0, removed: 0, pairs: [] };
    const at = DEDUP_PERCENTILE * (total - 1);
    const low = Math.floor(at);
    const high = Math.min(low + 1, total - 1);
    const { results } = await db.$client
      .prepare(`${counts.sql} SELECT c FROM n WHERE c > 0 ORDER BY c DESC LIMIT ? OFFSET ?`)
      .bind(...counts.params, high - low + 1, total - 1 - high)
      .all<{ c: number }>();
    const [above, below = above] = results.map((r) => r.c);
    cut = below + (above - below) * (at - low);
  } else cut = rule;
  const cap = Math.floor(cut);
  const battles = heavyBattles(slice);
  const { results } = await db.$client
    .prepare(
      `${counts.sql}, heavy AS (SELECT hash FROM n WHERE c > ?), ${battles.sql}
       ${PAIR_TOTALS} FROM (
         SELECT s.a AS a, s.b AS b, s.w AS w, row_number() OVER (PARTITION BY s.hash ORDER BY s.rowid) AS k FROM s
       ) WHERE k > ? GROUP BY lo, hi`,
    )
    .bind(...counts.params, cut, ...battles.params, cap)
    .all<PairTotals>();
  const removed = results.reduce((n, p) => n + p.loWins + p.hiWins + p.ties + p.bothBad, 0);
  return { cap, removed, pairs: results };
}

/** `pairs` less the battles `drops` leaves out; pairs left with no battle are gone. */
export function withoutDrops(pairs: PairTotals[], drops: PairTotals[]): PairTotals[] {
  if (!drops.length) return pairs;
  const dropped = new Map(drops.map((d) => [`${d.lo}\u0000${d.hi}`, d]));
  const out: PairTotals[] = [];
  for (const p of pairs) {
    const d = dropped.get(`${p.lo}\u0000${p.hi}`);
    const left = d
      ? {
          ...p,
          loWins: p.loWins - d.loWins,
          hiWins: p.hiWins - d.hiWins,
          ties: p.ties - d.ties,
          bothBad: p.bothBad - d.bothBad,
        }
      : p;
    if (left.loWins + left.hiWins + left.ties + left.bothBad > 0) out.push(left);
  }
  return out;
}
