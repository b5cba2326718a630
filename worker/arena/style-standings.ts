/**
 * style=true on the leaderboard: ratings and intervals with style held equal, as Chatbot Arena publishes
 * them, and each style feature's effect. Fitted in the background by a StyleRoom; until it is ready the
 * rows keep their plain ratings and `style.status` says "computing".
 */

import { battlesVersion } from "../db/style-queries";
import type { Db } from "../db/queries";
import { assignRanks } from "./leaderboard";
import type { LeaderboardQuery } from "../shared/requests";
import { fitPlan } from "./fit-plan";
import { settings } from "../shared/config";
import type { StyleResult } from "./style-fit";
import { ORDER, SOURCES, type Standings } from "./standings";

export type StyleSummary =
  | { status: "computing" }
  | { status: "refused"; notice: string }
  | ({ status: "ready" } & Pick<StyleResult, "features" | "battles" | "withoutFeatures">);

export async function withStyleControl(
  env: Env,
  db: Db,
  q: LeaderboardQuery,
  standings: Standings,
): Promise<Standings & { style: StyleSummary }> {
  const slice = { sources: SOURCES[q.source], category: q.category ?? "", includeFlagged: q.includeFlagged };
  const anchor =
    q.anchor !== undefined && q.anchorRating !== undefined ? { modelId: q.anchor, rating: q.anchorRating } : null;
  // Addressing a room creates it, and the view is the client's to name: a view with no battles gets no room,
  // and an anchor's rating is not in the name (the room refits for a new one), so made-up queries create none.
  if (standings.totalBattles === 0)
    return { ...standings, style: { status: "ready", features: [], battles: 0, withoutFeatures: 0 } };
  // The same ceiling and the same cut of bootstrap rounds as the plain fit (fit-plan.ts).
  const plan = fitPlan(standings.fit.models, q.rounds, settings(env).arena.maxFitModels);
  if (plan.where === "refused") return { ...standings, style: { status: "refused", notice: plan.notice } };
  const rounds = plan.rounds;
  const key = JSON.stringify({ slice, rounds, anchor: anchor?.modelId ?? null });
  const room = env.STYLE_ROOM.get(env.STYLE_ROOM.idFromName(key));
  const answer = await room.standings({ slice, rounds, anchor, version: await battlesVersion(db, slice) });
  if (answer.status === "computing") return { ...standings, style: { status: "computing" } };
  const { models, features, battles, withoutFeatures } = answer.result;
  const byModel = new Map(models.map((m) => [m.modelId, m]));
  const rows = standings.rows.map((row) => {
    const m = byModel.get(row.modelId);
    return { ...row, bt: m?.rating ?? null, ciLower: m?.lower ?? null, ciUpper: m?.upper ?? null };
  });
  assignRanks(rows);
  rows.sort(ORDER[q.order]);
  return {
    ...standings,
    rows,
    // The style fit's intervals are FastChat's bootstrap, unweighted, whatever the plain view asked for.
    ci: "bootstrap",
    reweight: false,
    anchor: answer.result.anchor,
    style: { status: "ready", features, battles, withoutFeatures },
  };
}
