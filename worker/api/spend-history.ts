/** GET /api/spend/history — what was spent per UTC day, provider, model and feature, with the caps and today's holds. */
import type { Context } from "hono";
import { describeRoute } from "hono-openapi";
import type * as z from "zod/mini";
import { openDb } from "../db/queries";
import { type SpendHistoryRow, type SpendKind, spendHistory } from "../db/spend-history";
import { daySpend } from "../db/spend-queries";
import { PROVIDER_NAMES, parseModelId } from "../providers/registry";
import { settings } from "../shared/config";
import type { SPEND_FEATURES } from "../shared/constants";
import type { SpendHistoryQuery } from "../shared/requests";
import { spendHistoryResponse } from "../shared/responses";
import { errorResponses, jsonResponse } from "./openapi-describe";
import { DAY_MS, utcDay } from "./utc-day";

type Feature = (typeof SPEND_FEATURES)[number];
type Figure = { usd: number; unknownCostCalls: number; calls: number };

const FEATURE_OF: Record<SpendKind, Feature> = {
  answer: "runs",
  review: "evaluations",
  synthesis: "runs",
  side: "arena",
  judge: "judges",
  classifier: "classifier",
  v1: "endpoint",
  goal: "goal",
  chat: "chat",
};

const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

export const describedSpendHistory = describeRoute({
  tags: ["Service"],
  summary: "Spend over the last days (UTC): per day, provider, model and feature, with the caps and what is set aside",
  description:
    "days=30 (1–90, today included). Blind arena work not yet voted on is left out until its reveal (it shows only as today's reservedUsd). Calls whose model has no price are counted in unknownCostCalls, never as $0.",
  responses: {
    200: jsonResponse(spendHistoryResponse, "The figures, most spent first in each breakdown."),
    ...errorResponses(400),
  },
});

/** Adds each row's figure to the group `keyOf` puts it in. */
function sumBy<K>(rows: SpendHistoryRow[], keyOf: (r: SpendHistoryRow) => K): Map<K, Figure> {
  const groups = new Map<K, Figure>();
  for (const r of rows) {
    const key = keyOf(r);
    const g = groups.get(key) ?? { usd: 0, unknownCostCalls: 0, calls: 0 };
    g.usd += r.usd;
    g.unknownCostCalls += r.unknownCostCalls;
    g.calls += r.calls;
    groups.set(key, g);
  }
  return groups;
}

/** Most spent first; among equals, most calls without a price first (their cost is unknown, not nothing). */
const byMost = (a: Figure, b: Figure) => b.usd - a.usd || b.unknownCostCalls - a.unknownCostCalls || b.calls - a.calls;

const providerOf = (modelId: string) => parseModelId(modelId)?.provider ?? "unknown";

export async function spendHistoryHandler(
  c: Context<{ Bindings: Env }>,
  query: SpendHistoryQuery,
): Promise<z.infer<typeof spendHistoryResponse>> {
  const now = Date.now();
  const today = utcDay(now);
  const from = today.start - (query.days - 1) * DAY_MS;
  const db = openDb(c.env.DB);
  const [rows, spent] = await Promise.all([spendHistory(db, from), daySpend(db, today.start, now)]);
  const caps = settings(c.env).spend;

  const days = sumBy(rows, (r) => r.day);
  const byDay = Array.from({ length: query.days }, (_, i) => {
    const day = from + i * DAY_MS;
    return { day: isoDay(day), ...(days.get(day) ?? { usd: 0, unknownCostCalls: 0, calls: 0 }) };
  });
  const byProvider = [...sumBy(rows, (r) => providerOf(r.modelId))]
    .map(([provider, f]) => ({
      provider,
      name: provider in PROVIDER_NAMES ? PROVIDER_NAMES[provider as keyof typeof PROVIDER_NAMES] : provider,
      ...f,
    }))
    .sort(byMost);
  const byModel = [...sumBy(rows, (r) => r.modelId)]
    .map(([modelId, f]) => ({ modelId, provider: providerOf(modelId), ...f }))
    .sort(byMost);
  const byFeature = [...sumBy(rows, (r) => FEATURE_OF[r.kind])].map(([feature, f]) => ({ feature, ...f })).sort(byMost);
  const total = sumBy(rows, () => "all").get("all") ?? { usd: 0, unknownCostCalls: 0, calls: 0 };

  return {
    from: isoDay(from),
    to: today.day,
    byDay,
    byProvider,
    byModel,
    byFeature,
    total,
    today: {
      day: today.day,
      spentUsd: spent.spentUsd,
      reservedUsd: spent.reservedUsd,
      capUsd: caps.dayUsd,
      unknownCostCalls: spent.unknownCostCalls,
      resetsAt: today.resetsAt,
    },
    runCapUsd: caps.runUsd,
  };
}
