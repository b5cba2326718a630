import { createResource, Show } from "solid-js";
import { Alert } from "../components/alert";
import { SpendChart } from "../components/spend-chart";
import { SpendTable } from "../components/spend-table";
import { api, call, type SpendHistory } from "../lib/api";
import { formatSpend, formatTotalCost } from "../lib/format";

const DAYS = 30;

const FEATURE_NAMES: Record<SpendHistory["byFeature"][number]["feature"], string> = {
  runs: "Council answers and syntheses",
  evaluations: "Council reviews",
  arena: "Arena (both sides' replies)",
  judges: "Judges",
  classifier: "Prompt classifier",
  endpoint: "OpenAI-compatible endpoint (/v1)",
  goal: "Goal battles (sides, simulated user, checks, judge)",
  chat: "Chat threads (single and topper replies)",
};

/** What was spent over the last 30 UTC days, by day, feature, provider and model, with the caps and today's holds. */
export default function SpendPage() {
  const [history] = createResource(async () => {
    try {
      return { data: await call(api.spend.history.$get({ query: { days: String(DAYS) } })), error: null };
    } catch (err) {
      return { data: null, error: err instanceof Error ? err.message : String(err) };
    }
  });
  const data = () => history()?.data ?? null;

  return (
    <>
      <h1>Spend</h1>
      <p class="muted">
        What provider calls cost, from the prices Quorum knows (QUORUM_PRICES and its catalog), per UTC day. Blind arena
        work shows here once it is revealed by a vote; until then it is only set aside.
      </p>
      <Alert message={history()?.error ?? null} />
      <Show when={data()}>
        {(h) => (
          <>
            <section class="spend-caps" aria-labelledby="spend-caps-title">
              <h2 id="spend-caps-title">Today and the caps</h2>
              <dl class="spend-facts" data-testid="spend-caps">
                <dt>Spent today</dt>
                <dd>
                  {formatTotalCost(h().today.spentUsd)}
                  <Show when={h().today.unknownCostCalls > 0}>
                    {" "}
                    (+{h().today.unknownCostCalls} calls with no price, cost unknown)
                  </Show>
                </dd>
                <dt>Set aside now</dt>
                <dd data-testid="spend-reserved">
                  {formatTotalCost(h().today.reservedUsd)}
                  <span class="muted small"> for work under way, and blind work until its vote</span>
                </dd>
                <dt>Day cap (QUORUM_MAX_DAY_USD)</dt>
                <dd>
                  <Show when={h().today.capUsd !== null} fallback="none set">
                    {formatTotalCost(h().today.capUsd!)},{" "}
                    {formatTotalCost(Math.max(0, h().today.capUsd! - h().today.spentUsd - h().today.reservedUsd))} left;
                    resets at 00:00 UTC
                  </Show>
                </dd>
                <dt>Per run or comparison (QUORUM_MAX_RUN_USD)</dt>
                <dd>
                  <Show when={h().runCapUsd !== null} fallback="none set">
                    {formatTotalCost(h().runCapUsd!)}
                  </Show>
                </dd>
                <dt>
                  Last {DAYS} days ({h().from} to {h().to})
                </dt>
                <dd data-testid="spend-total">
                  {formatSpend(h().total)} in {h().total.calls} calls
                  <Show when={h().total.unknownCostCalls > 0}>
                    , {h().total.unknownCostCalls} of them with no price (their cost is unknown, not $0)
                  </Show>
                </dd>
              </dl>
            </section>
            <h2>Per day</h2>
            <SpendChart days={h().byDay} />
            <Show when={h().total.unknownCostCalls > 0}>
              <p class="muted small">
                A ring above a bar marks a day with calls of no known price: the bar shows only the priced part.
              </p>
            </Show>
            <Show when={h().total.calls > 0} fallback={<p class="muted">No provider call in the last {DAYS} days.</p>}>
              <SpendTable
                id="spend-by-feature"
                title="Per feature"
                nameHeader="Feature"
                rows={h().byFeature.map((f) => ({ ...f, name: FEATURE_NAMES[f.feature] }))}
              />
              <SpendTable
                id="spend-by-provider"
                title="Per provider"
                nameHeader="Provider"
                rows={h().byProvider.map((p) => ({ ...p, name: p.name }))}
              />
              <SpendTable
                id="spend-by-model"
                title="Per model"
                nameHeader="Model"
                ids
                rows={h().byModel.map((m) => ({ ...m, name: m.modelId }))}
              />
              <SpendTable
                id="spend-by-day"
                title="Per day (days with calls, newest first)"
                nameHeader="Day (UTC)"
                ids
                rows={h()
                  .byDay.filter((d) => d.calls > 0)
                  .reverse()
                  .map((d) => ({ ...d, name: d.day }))}
              />
            </Show>
          </>
        )}
      </Show>
    </>
  );
}
