/**
 * "Who beats whom": for a leaderboard view, the chance each listed model beats each other one, read off the
 * same Bradley–Terry ratings the view's rows carry (Chatbot Arena's scale: base 10, 400 points).
 */
import type { LeaderboardRow } from "../shared/arena";
import { ODDS_TOP_MODELS } from "../shared/constants";

export interface OddsModel {
  modelId: string;
  displayName: string;
  bt: number | null;
}

export interface WinOdds {
  models: OddsModel[];
  /** `odds[i][j]`: the chance models[i] beats models[j]; null on the diagonal and where a rating is missing */
  odds: (number | null)[][];
}

/** P(a beats b) for ratings on Chatbot Arena's scale: 1 / (1 + 10^((b − a) / 400)). */
export function winProbability(a: number, b: number): number {
  return 1 / (1 + 10 ** ((b - a) / 400));
}

/** Listed ids that are not rows of the view (the caller turns them into a 404). */
export function missingModels(rows: readonly LeaderboardRow[], ids: readonly string[]): string[] {
  const shown = new Set(rows.map((r) => r.modelId));
  return ids.filter((id) => !shown.has(id));
}

/** The listed models in the order given, or the view's top rated models by rating when none are listed. */
export function winOdds(rows: readonly LeaderboardRow[], ids: readonly string[] | null): WinOdds {
  const byId = new Map(rows.map((r) => [r.modelId, r]));
  const chosen = ids
    ? ids.map((id) => byId.get(id)!)
    : rows
        .filter((r) => r.bt !== null)
        .sort((a, b) => b.bt! - a.bt! || (a.modelId < b.modelId ? -1 : 1))
        .slice(0, ODDS_TOP_MODELS);
  const models = chosen.map((r) => ({ modelId: r.modelId, displayName: r.displayName, bt: r.bt }));
  const odds = models.map((row, i) =>
    models.map((col, j) => (i === j || row.bt === null || col.bt === null ? null : winProbability(row.bt, col.bt))),
  );
  return { models, odds };
}
