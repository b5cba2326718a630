import { createEffect, createSignal, For, Show } from "solid-js";
import { AnswerCard } from "../components/answer-card";
import { ReviewSection } from "../components/review-section";
import { RunHeader } from "../components/run-header";
import { OutcomeFirst, rankedAnswers } from "../components/run-outcome";
import { ExportLinks } from "../components/export-links";
import { createShareToggle } from "../components/share-panel";
import { Alert } from "../components/alert";
import { createActions } from "../lib/actions";
import { api, call } from "../lib/api";
import { navigate } from "../lib/router";
import { retryAllLabel } from "../lib/format";
import { isTerminal } from "../lib/run-state";
import { createLiveRun } from "./run.data";
import { LoadingOrError } from "../components/loading-or-error";

type Layout = "side" | "stacked";
const LAYOUT_KEY = "quorum.layout";

export default function RunPage(props: { params: Record<string, string> }) {
  return (
    <Show when={props.params.id} keyed>
      {(id) => <RunView id={id} />}
    </Show>
  );
}

function RunView(props: { id: string }) {
  const run = createLiveRun(props.id);
  const [layout, setLayout] = createSignal<Layout>(localStorage.getItem(LAYOUT_KEY) === "stacked" ? "stacked" : "side");
  const { busy, error, act } = createActions();
  const share = createShareToggle("run", props.id);

  const chooseLayout = (l: Layout) => {
    setLayout(l);
    localStorage.setItem(LAYOUT_KEY, l);
  };

  // The actions: their progress arrives as live events.
  const param = { param: { id: props.id } };
  const cancel = () => act("cancel", () => call(api.runs[":id"].cancel.$post(param)));
  const evaluate = () => act("evaluate", () => call(api.runs[":id"].evaluate.$post(param)));
  const retry = (modelId: string | null) =>
    act(`retry:${modelId ?? "all"}`, () =>
      call(api.runs[":id"].answers.$post({ ...param, json: modelId ? { modelIds: [modelId] } : {} })),
    );

  createEffect(() => {
    const q = run.detail?.run.question;
    document.title = q ? `${q.slice(0, 60)} · Quorum` : "Run · Quorum";
  });

  return (
    <section class="page run-page" aria-labelledby="run-title">
      <Show
        when={run.detail}
        fallback={
          <LoadingOrError
            error={run.loadError()}
            loading="Loading the run…"
            heading={<h1 id="run-title">Run not available</h1>}
          />
        }
      >
        {(detail) => (
          <>
            <RunHeader detail={detail()} connection={run.connection()} />
            <OutcomeFirst detail={detail()} />
            <div class="toolbar" role="group" aria-label="Run actions">
              <Show when={!isTerminal(detail())}>
                <button type="button" onClick={cancel} disabled={busy() !== null}>
                  {busy() === "cancel" ? "Cancelling…" : "Cancel run"}
                </button>
              </Show>
              <Show when={isTerminal(detail()) && detail().answers.some((a) => a.status === "done")}>
                <button type="button" onClick={evaluate} disabled={busy() !== null}>
                  {detail().aggregation ? "Review and vote again" : "Run review and vote"}
                </button>
              </Show>
              <Show
                when={
                  isTerminal(detail()) &&
                  detail().answers.filter((a) => a.status === "failed" || a.status === "cancelled").length > 1
                }
              >
                <button type="button" onClick={() => retry(null)} disabled={busy() !== null}>
                  {retryAllLabel(detail().answers)}
                </button>
              </Show>
              <Show when={isTerminal(detail())}>
                <button
                  type="button"
                  onClick={() => navigate(`/?again=${encodeURIComponent(props.id)}`)}
                  aria-describedby="run-again-help"
                >
                  Run again
                </button>
                <span id="run-again-help" class="sr-only">
                  Opens a new run's setup filled in as this one; this run stays in History.
                </span>
              </Show>
              <ExportLinks runId={props.id} />
              <share.Button />
            </div>
            <share.Panel />
            <Alert message={error()} />

            <section aria-labelledby="answers-title">
              <div class="section-head">
                <h2 id="answers-title">Answers</h2>
                <div class="segmented" role="group" aria-label="Answer layout">
                  <button type="button" aria-pressed={layout() === "side"} onClick={() => chooseLayout("side")}>
                    Side by side
                  </button>
                  <button type="button" aria-pressed={layout() === "stacked"} onClick={() => chooseLayout("stacked")}>
                    Stacked
                  </button>
                </div>
              </div>
              <Show when={detail().run.settings.blind && !isTerminal(detail())}>
                <p class="muted small">Blind run: model names stay hidden until the run is done.</p>
              </Show>
              <div class={`answers layout-${layout()}`}>
                <For each={rankedAnswers(detail())}>
                  {(answer) => (
                    <AnswerCard
                      answer={answer}
                      params={detail().run.models.find((m) => m.id === answer.modelId)?.params}
                      presetModel={answer.modelId ? detail().run.names?.[answer.modelId]?.modelId : null}
                      ranking={detail().aggregation?.finalRanking}
                      runEnded={isTerminal(detail())}
                      retrying={busy() === `retry:${answer.modelId ?? "all"}`}
                      onRetry={() => retry(answer.modelId)}
                    />
                  )}
                </For>
              </div>
            </section>

            <ReviewSection detail={detail()} />
          </>
        )}
      </Show>
    </section>
  );
}
