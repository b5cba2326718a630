import { createSignal, For, onMount, Show } from "solid-js";
import { createStore } from "solid-js/store";
import { Alert } from "../components/alert";
import { ExportLinks } from "../components/export-links";
import { api, call, type RunListItem } from "../lib/api";
import { Link } from "../lib/router";
import { describeCost } from "../../../worker/shared/run";
import { COST_HIDDEN, formatTime, formatTotalCost, RUN_STATUS_TEXT, shortModelName } from "../lib/format";

const PAGE_SIZE = 20;

export default function HistoryPage() {
  const [runs, setRuns] = createStore<{ items: RunListItem[]; nextCursor: string | null; loaded: boolean }>({
    items: [],
    nextCursor: null,
    loaded: false,
  });
  const [loading, setLoading] = createSignal(false);
  const [error, setError] = createSignal<string | null>(null);
  const [confirming, setConfirming] = createSignal<string | null>(null);
  const [status, setStatus] = createSignal("");
  let heading!: HTMLHeadingElement;

  const load = async (cursor?: string) => {
    setLoading(true);
    setError(null);
    try {
      const page = await call(api.runs.$get({ query: { limit: String(PAGE_SIZE), ...(cursor ? { cursor } : {}) } }));
      setRuns({
        items: cursor ? [...runs.items, ...page.items] : page.items,
        nextCursor: page.nextCursor,
        loaded: true,
      });
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
    } finally {
      setLoading(false);
    }
  };

  const remove = async (run: RunListItem) => {
    setError(null);
    try {
      await call(api.runs[":id"].$delete({ param: { id: run.id } }));
      sessionStorage.removeItem(`quorum.run.${run.id}`);
      setRuns("items", (items) => items.filter((r) => r.id !== run.id));
      setStatus(`Deleted the run "${run.question.slice(0, 60)}".`);
      heading.focus();
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
    } finally {
      setConfirming(null);
    }
  };

  onMount(() => {
    document.title = "History · Quorum";
    void load();
  });

  return (
    <section class="page" aria-labelledby="history-title">
      <h1 id="history-title" ref={heading} tabindex="-1">
        History
      </h1>
      <p class="sr-only" role="status">
        {status()}
      </p>
      <Alert message={error()} />
      <Show
        when={runs.loaded || !loading()}
        fallback={
          <p class="muted" role="status">
            Loading runs…
          </p>
        }
      >
        <Show
          when={runs.items.length}
          fallback={
            <p>
              No runs yet. <Link href="/">Ask your first question.</Link>
            </p>
          }
        >
          <ol class="history" aria-label="Runs, newest first">
            <For each={runs.items}>
              {(run) => (
                <li class="card history-item" data-run-id={run.id}>
                  <div class="history-main">
                    <Link href={`/runs/${run.id}`} class="history-question">
                      {run.question}
                    </Link>
                    <p class="muted small">
                      <time datetime={new Date(run.createdAt).toISOString()}>{formatTime(run.createdAt)}</time> ·{" "}
                      <span class={`badge status-${run.status}`}>{RUN_STATUS_TEXT[run.status]}</span> ·{" "}
                      {run.winner ? (
                        <>
                          Winner:{" "}
                          <strong>
                            {run.winner.displayName ??
                              (run.winner.modelId ? shortModelName(run.winner.modelId) : `Answer ${run.winner.label}`)}
                          </strong>
                        </>
                      ) : (
                        "No winner"
                      )}{" "}
                      · {run.models.map(shortModelName).join(", ")} ·{" "}
                      <span data-testid="history-cost">
                        estimated cost {run.costHidden ? COST_HIDDEN : describeCost(run, formatTotalCost)}
                      </span>
                    </p>
                  </div>
                  <div class="history-actions" role="group" aria-label={`Actions for "${run.question.slice(0, 60)}"`}>
                    <Link class="button small" href={`/runs/${run.id}`}>
                      Open
                    </Link>
                    <ExportLinks runId={run.id} small />
                    <Show
                      when={confirming() === run.id}
                      fallback={
                        <button type="button" class="small danger" onClick={() => setConfirming(run.id)}>
                          Delete
                        </button>
                      }
                    >
                      <span class="confirm">
                        Delete for good?{" "}
                        <button type="button" class="small danger" onClick={() => void remove(run)}>
                          Yes, delete
                        </button>{" "}
                        <button
                          type="button"
                          class="small"
                          ref={(el) => queueMicrotask(() => el.focus())}
                          onClick={() => setConfirming(null)}
                        >
                          Keep
                        </button>
                      </span>
                    </Show>
                  </div>
                </li>
              )}
            </For>
          </ol>
          <Show when={runs.nextCursor}>
            <button type="button" onClick={() => void load(runs.nextCursor!)} disabled={loading()}>
              {loading() ? "Loading…" : "Show older runs"}
            </button>
          </Show>
        </Show>
      </Show>
    </section>
  );
}
