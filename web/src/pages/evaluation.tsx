import { createEffect, createResource, createSignal, For, onCleanup, Show } from "solid-js";
import { Alert } from "../components/alert";
import { DownloadLink } from "../components/download-link";
import { CostChart } from "../components/evaluation/cost-chart";
import { EvaluationJudges } from "../components/evaluation/judges";
import { EvaluationLeaderboard, SeparationNote } from "../components/evaluation/leaderboard";
import { EvaluationMatrixView } from "../components/evaluation/matrix";
import { EvaluationProgress } from "../components/evaluation/progress";
import { RevisionPanel } from "../components/evaluation/revision-panel";
import { Link } from "../lib/router";
import { api, call } from "../lib/api";
import { createLiveEvaluation, EVALUATION_FINAL } from "./evaluation.data";

const REFRESH_MS = 3000;
const pct = (n: number | null) => (n === null ? "—" : `${(n * 100).toFixed(0)}%`);

/** One evaluation: the outcome first, then the leaderboard, cost, judges and the items; refreshed while it runs. */
export default function EvaluationPage(props: { params: Record<string, string> }) {
  // Another evaluation's page (a revision's rerun opens from this one) starts over with its own feed and report.
  return (
    <Show when={props.params.id} keyed>
      {(id) => <EvaluationView id={id} />}
    </Show>
  );
}

function EvaluationView(props: { id: string }) {
  const id = () => props.id;
  const live = createLiveEvaluation(props.id);
  const [version, setVersion] = createSignal(0);
  const [report] = createResource(
    () => ({ id: id(), version: version() }),
    async (q) => {
      try {
        return { data: await call(api.evaluations[":id"].report.$get({ param: { id: q.id } })), error: null };
      } catch (err) {
        return { data: null, error: err instanceof Error ? err.message : String(err) };
      }
    },
  );
  const data = () => report.latest?.data ?? null;
  // The report is read again while the evaluation runs, and once more when it ends.
  createEffect(() => {
    const status = live.detail?.status ?? data()?.status;
    if (!status) return;
    if (EVALUATION_FINAL.has(status)) {
      if (data() && data()?.status !== status) setVersion((v) => v + 1);
      return;
    }
    if (status === "paused") return;
    const timer = setTimeout(() => setVersion((v) => v + 1), REFRESH_MS);
    onCleanup(() => clearTimeout(timer));
  });
  const names = () =>
    new Map<string, string>(Object.entries(data()?.names ?? {}).map(([id, n]) => [id, n.displayName]));
  // Set when this evaluation reran an earlier one with a revised preset: the way back to compare them.
  const previous = new URLSearchParams(location.search).get("previous");
  const presetRows = () => (data()?.rows ?? []).filter((row) => row.contestant.startsWith("preset:"));
  const exportHref = (format: "json" | "csv" | "md" | "battles") =>
    `/api/evaluations/${encodeURIComponent(id())}/export?format=${format}`;

  return (
    <>
      <Alert message={report()?.error ?? live.loadError()} />
      <Show when={data()}>
        {(r) => (
          <>
            <h1>{r().name}</h1>
            <p class="muted">
              Status: <span data-testid="evaluation-status">{live.detail?.status ?? r().status}</span> ·{" "}
              {r().totals.items} items · {r().rows.length} contestants · {r().judges.length} judge
              {r().judges.length === 1 ? "" : "s"} · answers ${r().totals.answerCostUsd.toFixed(4)}, judges $
              {r().totals.judgeCostUsd.toFixed(4)}
            </p>
            <Show when={previous}>
              {(p) => (
                <p>
                  <Link
                    class="button secondary"
                    href={`/evaluations/compare?a=${encodeURIComponent(p())}&b=${encodeURIComponent(id())}`}
                  >
                    Compare with the previous evaluation
                  </Link>
                </p>
              )}
            </Show>
            <Show when={live.detail && !EVALUATION_FINAL.has(live.detail.status) ? live.detail : null}>
              {(d) => <EvaluationProgress detail={d()} />}
            </Show>
            <SeparationNote report={r()} />
            <EvaluationLeaderboard report={r()} />
            <p class="muted small">
              {r().methods.counting}. Ratings: {r().methods.intervals}. Length control: {r().methods.lengthControl}.
            </p>
            <h2>Rating against cost</h2>
            <CostChart report={r()} />
            <EvaluationJudges report={r()} names={names()} />
            <Show when={r().categories.length > 1}>
              <section aria-labelledby="categories-title">
                <h2 id="categories-title">Per category</h2>
                <For each={r().categories}>
                  {(c) => (
                    <p>
                      <strong>{c.category}</strong> ({c.items} items):{" "}
                      {[...c.rows]
                        .filter((row) => row.contestant !== r().baseline)
                        .sort((a, b) => (b.bt ?? -Infinity) - (a.bt ?? -Infinity))
                        .map((row) => `${names().get(row.contestant) ?? row.contestant} ${pct(row.winRate)}`)
                        .join(" · ")}
                    </p>
                  )}
                </For>
              </section>
            </Show>
            <Show when={r().stability}>
              {(s) => (
                <section aria-labelledby="stability-title">
                  <h2 id="stability-title">Stability across samples</h2>
                  <ul>
                    <For each={s()}>
                      {(row) => (
                        <li>
                          {names().get(row.contestant) ?? row.contestant}: {row.samples.map(pct).join(", ")} (range{" "}
                          {pct(row.range)})
                        </li>
                      )}
                    </For>
                  </ul>
                </section>
              )}
            </Show>
            <Show
              when={
                (live.detail?.status ?? r().status) === "completed" && presetRows().length > 0 && r().method !== "goal"
              }
            >
              <section aria-labelledby="revise-title">
                <h2 id="revise-title">Improve a preset</h2>
                <p class="muted small">
                  A model reads the items a preset lost (its answers, the winners' and the judges' reasons) and drafts a
                  revised system prompt; save it as the preset's next version, then evaluate it the same way.
                </p>
                <For each={presetRows()}>
                  {(row) => (
                    <RevisionPanel
                      evaluationId={id()}
                      contestant={row.contestant}
                      name={row.displayName}
                      model={r().judges.find((j) => !j.startsWith("preset:")) ?? ""}
                    />
                  )}
                </For>
              </section>
            </Show>
            <EvaluationMatrixView id={id()} names={names()} version={version()} />
            <section aria-labelledby="export-title">
              <h2 id="export-title">Export</h2>
              <p class="export-links">
                <DownloadLink class="button secondary" href={exportHref("json")}>
                  JSON (everything)
                </DownloadLink>{" "}
                <DownloadLink class="button secondary" href={exportHref("csv")}>
                  CSV (the items)
                </DownloadLink>{" "}
                <DownloadLink class="button secondary" href={exportHref("md")}>
                  Markdown (the summary)
                </DownloadLink>{" "}
                <DownloadLink class="button secondary" href={exportHref("battles")}>
                  Battles (Chatbot Arena format)
                </DownloadLink>
              </p>
            </section>
          </>
        )}
      </Show>
    </>
  );
}
