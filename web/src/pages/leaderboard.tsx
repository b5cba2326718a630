import { createEffect, createResource, createSignal, For, onCleanup, Show } from "solid-js";
import { createStore } from "solid-js/store";
import { BattleImport, type ImportReport } from "../components/battle-import";
import { JudgesTable } from "../components/judges-table";
import { LeaderboardTable } from "../components/leaderboard-table";
import { RatingChart } from "../components/rating-chart";
import { DemoNote } from "../components/demo-note";
import { FitNotice } from "../components/fit-notice";
import { SettledNotice } from "../components/settled-notice";
import { LabelFilters, labelText } from "../components/label-filters";
import { StyleEffects } from "../components/style-effects";
import { OddsHeatmap } from "../components/odds-heatmap";
import { panelId, tabId, Tabs } from "../components/tabs";
import { api, call, messageOf, type LeaderboardQuery } from "../lib/api";
import { Link } from "../lib/router";
import {
  LEADERBOARD_ORDERS,
  LEADERBOARD_SOURCES,
  type LeaderboardOrder,
  type LeaderboardSource,
  INTERVAL_METHODS,
} from "../../../worker/shared/constants";

type Source = LeaderboardSource;
type Order = LeaderboardOrder;
type Tab = "models" | "judges";

const TABS: { value: Tab; label: string }[] = [
  { value: "models", label: "Models" },
  { value: "judges", label: "Judges" },
];

const SOURCE_LABEL: Record<Source, string> = {
  human: "Human votes",
  judge: "Judges",
  import: "Imported",
  eval: "Evaluations",
  goal: "Goal battles",
  all: "All",
};
const SOURCES = LEADERBOARD_SOURCES.map((value) => ({ value, label: SOURCE_LABEL[value] }));
const FROM_TEXT: Record<Source, string> = {
  human: "human votes",
  judge: "judges",
  import: "imported battles",
  eval: "evaluations' judges",
  goal: "goal battles",
  all: "all sources",
};
const EXPORT_TEXT: Record<Source, string> = {
  human: "human-vote battles",
  judge: "judge battles",
  import: "imported battles",
  eval: "evaluation battles",
  goal: "goal battles",
  all: "all battles",
};
const ORDER_TEXT: Record<Order, string> = {
  bt: "Bradley–Terry rating",
  elo: "Elo",
  trueskill: "TrueSkill (μ − 3σ)",
  winRate: "win rate",
};

interface Filters {
  tab: Tab;
  source: Source;
  category: string;
  label: string;
  minAppearances: string;
  order: Order;
  includeFlagged: boolean;
  style: boolean;
  ci: (typeof INTERVAL_METHODS)[number];
  reweight: boolean;
  /** show the demo models even where a configured real provider would leave them out */
  includeDemo: boolean;
}

/** The filters live in the address, so a link (or a reload) shows the same view. */
function readFilters(): Filters {
  const q = new URLSearchParams(location.search);
  const pick = <T extends string>(value: string | null, allowed: readonly T[], fallback: T) =>
    allowed.includes(value as T) ? (value as T) : fallback;
  return {
    tab: pick(q.get("tab"), ["models", "judges"], "models"),
    source: pick(q.get("source"), LEADERBOARD_SOURCES, "human"),
    category: q.get("category") ?? "",
    label: q.get("label") ?? "",
    minAppearances: q.get("minAppearances") ?? "1",
    order: pick(q.get("order"), LEADERBOARD_ORDERS, "bt"),
    includeFlagged: q.get("includeFlagged") === "true",
    style: q.get("style") === "true",
    ci: pick(q.get("ci"), INTERVAL_METHODS, "sandwich"),
    reweight: q.get("reweight") === "true",
    includeDemo: q.get("demo") === "include",
  };
}

const validMin = (raw: string) => /^\d+$/.test(raw.trim()) && Number(raw) >= 1;

export default function LeaderboardPage() {
  const [filters, setFilters] = createStore<Filters>(readFilters());
  const [reloads, setReloads] = createSignal(0);

  const query = (): LeaderboardQuery & { reload: number } => ({
    source: filters.source,
    order: filters.order,
    includeFlagged: String(filters.includeFlagged) as "true" | "false",
    ...(filters.style ? { style: "true" as const } : {}),
    ...(filters.ci === "bootstrap" ? { ci: "bootstrap" as const } : {}),
    ...(filters.reweight ? { reweight: "true" as const } : {}),
    ...(filters.includeDemo ? { demo: "include" as const } : {}),
    minAppearances: validMin(filters.minAppearances) ? String(Number(filters.minAppearances)) : undefined,
    ...(filters.category ? { category: filters.category } : {}),
    ...(filters.label ? { label: filters.label } : {}),
    reload: reloads(),
  });
  // The table's own query, order included, so the odds read the very standings the server cached for it.
  const viewQuery = (): LeaderboardQuery => {
    const { reload: _reload, ...q } = query();
    return q;
  };
  const [data] = createResource(query, async ({ reload: _reload, ...q }) => {
    try {
      return { standings: await call(api.leaderboard.$get({ query: q })), error: null };
    } catch (err) {
      return { standings: null, error: messageOf(err) };
    }
  });

  createEffect(() => {
    const { reload: _reload, ...q } = query();
    const params = new URLSearchParams(
      Object.entries(q).filter((e): e is [string, string] => typeof e[1] === "string"),
    );
    if (filters.tab === "judges") params.set("tab", "judges");
    history.replaceState(history.state, "", `/leaderboard?${params}`);
  });
  createEffect(
    () => (document.title = filters.tab === "judges" ? "Judges · Leaderboard · Quorum" : "Leaderboard · Quorum"),
  );

  const standings = () => data.latest?.standings ?? null;
  // Large fits, style control and a fresh view's online ratings are computed in the background (an incremental
  // fit's exact refit too): ask again, a bounded number of times, until ready.
  let backgroundChecks = 0;
  createEffect(() => {
    const s = standings();
    const pending =
      s?.style?.status === "computing" ||
      s?.fit.status === "computing" ||
      s?.online.status === "computing" ||
      (s?.fit.status === "ready" && s.fit.mode === "incremental");
    if (!pending || backgroundChecks >= 40) return;
    backgroundChecks++;
    const timer = setTimeout(() => setReloads((n) => n + 1), 1500);
    onCleanup(() => clearTimeout(timer));
  });
  /** After an import, the view moves to where its battles count, so they never seem to vanish; says where. */
  const showImported = (report: ImportReport): string | null => {
    setReloads((n) => n + 1);
    if (report.accepted === 0) return null;
    if (filters.source === "all" && !filters.category) return "They count here, under All, and under Imported.";
    setFilters({ source: "import", category: "", tab: "models" });
    return "The leaderboard above now shows Imported, all categories, where they count (and under All).";
  };
  const exportHref = () =>
    api.battles.export
      .$url({
        query: { source: filters.source, ...(filters.includeFlagged ? { includeFlagged: "true" as const } : {}) },
      })
      .toString();

  return (
    <section class="page leaderboard-page" aria-labelledby="leaderboard-title">
      <h1 id="leaderboard-title">Leaderboard</h1>
      <Tabs
        id="lb"
        label="Leaderboard views"
        tabs={TABS}
        selected={filters.tab}
        onSelect={(t) => setFilters("tab", t)}
      />
      <div
        class="tab-panel"
        role="tabpanel"
        id={panelId("lb", "models")}
        aria-labelledby={tabId("lb", "models")}
        tabindex="0"
        hidden={filters.tab !== "models"}
      >
        <p class="muted">
          Ratings from pairwise battles, as Chatbot Arena computes them: Bradley–Terry with 95% intervals (closed-form,
          as the Arena's leaderboard computes them today, or from 100 bootstrap rounds), online Elo, TrueSkill (μ ± σ,
          sorted by the cautious μ − 3σ) and the plain win rate. A rank such as 2–5 is every rank the intervals allow.
        </p>

        <form class="filters" onSubmit={(e) => e.preventDefault()} aria-label="Leaderboard filters">
          <div class="field">
            <label for="lb-source">Source</label>
            <select
              id="lb-source"
              value={filters.source}
              onChange={(e) => setFilters("source", e.currentTarget.value as Source)}
            >
              <For each={SOURCES}>{(s) => <option value={s.value}>{s.label}</option>}</For>
            </select>
          </div>
          <div class="field">
            <label for="lb-category">Category</label>
            <select
              id="lb-category"
              value={filters.category}
              onChange={(e) => setFilters("category", e.currentTarget.value)}
            >
              <option value="">All categories</option>
              <For
                each={[
                  ...new Set([...(standings()?.categories ?? []), ...(filters.category ? [filters.category] : [])]),
                ]}
              >
                {(c) => <option value={c}>{c}</option>}
              </For>
            </select>
          </div>
          <div class="field narrow">
            <label for="lb-min">Minimum appearances</label>
            <input
              id="lb-min"
              type="number"
              min="1"
              step="1"
              inputmode="numeric"
              value={filters.minAppearances}
              aria-invalid={!validMin(filters.minAppearances)}
              aria-describedby="lb-min-error"
              onInput={(e) => setFilters("minAppearances", e.currentTarget.value)}
            />
            <p id="lb-min-error" class="field-error small">
              {validMin(filters.minAppearances) ? "" : "A whole number, 1 or more."}
            </p>
          </div>
          <label class="check">
            <input
              type="checkbox"
              checked={filters.includeFlagged}
              aria-describedby="lb-flagged-help"
              onChange={(e) => setFilters("includeFlagged", e.currentTarget.checked)}
            />
            Include flagged votes
          </label>
          <p id="lb-flagged-help" class="muted small">
            Votes flagged as too fast, duplicate, leaking a name or not blind are left out unless this is ticked.
          </p>
          <label class="check">
            <input
              type="checkbox"
              checked={filters.style}
              aria-describedby="lb-style-help"
              onChange={(e) => setFilters("style", e.currentTarget.checked)}
            />
            Style control
          </label>
          <p id="lb-style-help" class="muted small">
            Ratings with answer length, headers, lists and bold held equal, as Chatbot Arena publishes them.
          </p>
          <label class="check">
            <input
              type="checkbox"
              checked={filters.reweight}
              aria-describedby="lb-reweight-help"
              onChange={(e) => setFilters("reweight", e.currentTarget.checked)}
            />
            Reweight pairs
          </label>
          <p id="lb-reweight-help" class="muted small">
            Each battle counts 1 / (its pair's battles, at least 50), so pairs played far more often don't dominate.
          </p>
          <div class="field">
            <label for="lb-ci">Intervals</label>
            <select
              id="lb-ci"
              value={filters.ci}
              onChange={(e) => setFilters("ci", e.currentTarget.value as Filters["ci"])}
            >
              <option value="sandwich">Closed form (sandwich)</option>
              <option value="bootstrap">Bootstrap, 100 rounds</option>
            </select>
          </div>
          <LabelFilters
            counts={standings()?.labels ?? []}
            selected={filters.label}
            onSelect={(label) => setFilters("label", label)}
          />
        </form>

        <Show when={data.latest?.error}>
          <p class="callout error" role="alert">
            {data.latest?.error}
          </p>
        </Show>
        <Show
          when={standings()}
          fallback={
            <Show when={!data.latest}>
              <p class="muted" role="status">
                Loading the leaderboard…
              </p>
            </Show>
          }
        >
          {(s) => (
            <>
              <p class="lb-summary" role="status" aria-busy={data.loading}>
                <strong>{s().totalBattles}</strong> {s().totalBattles === 1 ? "battle" : "battles"} counted
                <Show when={s().excludedFlagged > 0}>
                  {" "}
                  ·{" "}
                  <span data-testid="excluded-flagged">
                    {s().excludedFlagged} flagged {s().excludedFlagged === 1 ? "vote" : "votes"} left out
                  </span>
                </Show>
                <Show when={s().dedup?.removed ? s().dedup : null}>
                  {(d) => (
                    <>
                      {" "}
                      ·{" "}
                      <span data-testid="dedup-removed">
                        {d().removed} {d().removed === 1 ? "battle" : "battles"} of heavily repeated prompts left out
                        (each keeps {d().cap})
                      </span>
                    </>
                  )}
                </Show>
                <Show when={s().anchor}>
                  {(a) => (
                    <>
                      {" "}
                      · anchored at {a().modelId} = {a().rating}
                    </>
                  )}
                </Show>
              </p>
              <DemoNote demo={s().demo} onInclude={(include) => setFilters("includeDemo", include)} />
              <FitNotice fit={s().fit} online={s().online} />
              <SettledNotice standings={s()} />
              <Show
                when={s().rows.length}
                fallback={
                  <p class="callout empty-state">
                    No battles from {FROM_TEXT[filters.source]} yet{filters.category ? ` in “${filters.category}”` : ""}
                    {filters.label ? ` with the label “${labelText(filters.label)}”` : ""}.{" "}
                    <Link href="/arena">Vote in the Arena</Link>, or import a battle log below.
                  </p>
                }
              >
                <LeaderboardTable
                  standings={s()}
                  caption={`Models by ${ORDER_TEXT[s().order]}, from ${FROM_TEXT[s().source]}${s().category ? ` in “${s().category}”` : ""}${s().label ? `, ${labelText(s().label ?? "")} prompts` : ""}`}
                  onOrder={(order) => setFilters("order", order)}
                />
                <StyleEffects style={s().style} />
                <h2>Ratings with their 95% intervals</h2>
                <RatingChart rows={s().rows} />
                <OddsHeatmap query={viewQuery()} standings={s()} />
              </Show>
            </>
          )}
        </Show>

        <BattleImport
          exportHref={exportHref()}
          exportLabel={`Export ${EXPORT_TEXT[filters.source]} (JSON Lines)`}
          onImported={showImported}
        />
      </div>
      <Show when={filters.tab === "judges"}>
        <div
          class="tab-panel"
          role="tabpanel"
          id={panelId("lb", "judges")}
          aria-labelledby={tabId("lb", "judges")}
          tabindex="0"
        >
          <JudgesTable />
        </div>
      </Show>
    </section>
  );
}
