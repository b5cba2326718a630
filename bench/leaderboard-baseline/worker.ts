/**
 * The baseline of the leaderboard benchmark, a Worker of the bench's own (Quorum's Worker is not changed):
 * seed 000's on-demand leaderboard query, made valid SQLite, run on the same local D1 database.
 *
 * Seed 000 prints it with `appearances` reused inside `win_rate`, which SQLite rejects (an alias can't be
 * used in another column of the same SELECT); here the correlated subquery is repeated instead. Its
 * `ai_models` table is the bench's own (bench/lib/seed-votes.ts writes it beside Quorum's tables).
 */

interface D1Result {
  results: Record<string, unknown>[];
}
interface Env {
  DB: { prepare(sql: string): { all(): Promise<D1Result> } };
}

const SEED_000_QUERY = `
SELECT
  model_id,
  model_name,
  COUNT(winner_model_id) as wins,
  (SELECT COUNT(*) FROM comparisons
   WHERE model1_id = model_id OR model2_id = model_id) as appearances,
  (COUNT(winner_model_id) * 100.0 / (SELECT COUNT(*) FROM comparisons
   WHERE model1_id = model_id OR model2_id = model_id)) as win_rate
FROM ai_models
LEFT JOIN model_votes ON winner_model_id = model_id
GROUP BY model_id
ORDER BY win_rate DESC`;

export default {
  async fetch(request: Request, env: Env): Promise<Response> {
    const { pathname } = new URL(request.url);
    if (pathname === "/health") return new Response("ok");
    if (pathname === "/seed000") return Response.json({ rows: (await env.DB.prepare(SEED_000_QUERY).all()).results });
    if (pathname === "/plan")
      return Response.json({ rows: (await env.DB.prepare(`EXPLAIN QUERY PLAN ${SEED_000_QUERY}`).all()).results });
    return new Response("not found", { status: 404 });
  },
};
