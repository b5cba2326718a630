/**
 * style=true (or style=fastchat) on the leaderboard: ratings and intervals with style held equal, as Chatbot
 * Arena publishes them (arena-rank's method, or FastChat's of 2024), and each style feature's effect. Fitted in the background by a StyleRoom; until it is ready the
 * rows keep their plain ratings and `style.status` says "computing".
 */

import { battlesVersion } from "../db/style-queries";
import type { Db } from "../db/queries";
import { assignRanks } from "./leaderboard";
import type { LeaderboardQuery } from "../shared/requests";
import { fitPlan } from "./fit-plan";
import { settings } from "../shared/config";
import type { StyleResult } from "./style-fit";
import { ORDER, type Standings, sliceOf } from "./standings";
import { settledRanking } from "./settled";

export type StyleSummary =
  | { status: "computing" }
  | { status: "refused"; notice: string }
  | ({ status: "ready" } & Pick<StyleResult, "method" | "features" | "battles" | "withoutFeatures">);

export async function withStyleControl(
  env: Env,
  db: Db,
  q: LeaderboardQuery,
  standings: Standings,
): Promise<Standings & { style: StyleSummary }> {
  const method = q.style ?? "arena-rank";
  const slice = sliceOf(q, standings.demo.excludedModels > 0);
  const anchor =
    q.anchor !== undefined && q.anchorRating !== undefined ? { modelId: q.anchor, rating: q.anchorRating } : null;
  // Addressing a room creates it, and the view is the client's to name: a view with no battles gets no room,
  // and an anchor's rating is not in the name (the room refits for a new one), so made-up queries create none.
  if (standings.totalBattles === 0)
    return { ...standings, style: { status: "ready", method, features: [], battles: 0, withoutFeatures: 0 } };
  // The same ceiling and the same cut of bootstrap rounds as the plain fit (fit-plan.ts); arena-rank's needs none.
  const fastchat = method === "fastchat";
  const plan = fitPlan(standings.fit.models, fastchat ? q.rounds : 0, settings(env).arena.maxFitModels);
  if (plan.where === "refused") return { ...standings, style: { status: "refused", notice: plan.notice } };
  const rounds = plan.rounds;
  // FastChat's view keeps the room name it had before arena-rank's method, so its stored fit carries over.
  const view = fastchat ? { slice, rounds } : { slice, method };
  const key = JSON.stringify({ ...view, anchor: anchor?.modelId ?? null });
  const room = env.STYLE_ROOM.get(env.STYLE_ROOM.idFromName(key));
  const version = await battlesVersion(db, slice);
  const answer = await room.standings({ slice, method, rounds, anchor, version });
  if (answer.status === "computing") return { ...standings, style: { status: "computing" } };
  const { models, features, battles, withoutFeatures } = answer.result;
  // No battle carries style metadata: there is nothing to hold equal, so the plain ratings stand, and the
  // summary's zero battles says why (an empty fit would blank every rating and the chart).
  if (battles === 0)
    return { ...standings, style: { status: "ready", method, features: [], battles, withoutFeatures } };
  const byModel = new Map(models.map((m) => [m.modelId, m]));
  const rows = standings.rows.map((row) => {
    const m = byModel.get(row.modelId);
    // The plain fit's separations don't hold with style held equal.
    return { ...row, bt: m?.rating ?? null, ciLower: m?.lower ?? null, ciUpper: m?.upper ?? null, separation: null };
  });
  assignRanks(rows);
  rows.sort(ORDER[q.order]);
  return {
    ...standings,
    rows,
    settled: settledRanking(rows, settings(env).arena.focus),
    // The style fit's own intervals, whatever the plain view asked for: arena-rank's sandwich on reweighted
    // battles, or FastChat's unweighted bootstrap.
    ci: fastchat ? "bootstrap" : "sandwich",
    reweight: !fastchat,
    anchor: answer.result.anchor,
    style: { status: "ready", method, features, battles, withoutFeatures },
  };
}
