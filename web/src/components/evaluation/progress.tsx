import { createSignal, For, Show } from "solid-js";
import type { EvaluationDetail } from "../../../../worker/shared/evaluation";
import { api, call } from "../../lib/api";
import { Alert } from "../alert";

const eta = (ms: number | null) => {
  if (ms === null) return "";
  const minutes = Math.round(ms / 60_000);
  return minutes < 1 ? "under a minute left" : `about ${minutes} min left`;
};

/**
 * Where a running evaluation stands: one bar per contestant (answered, and judged, or a council's reviewed), spend
 * so far, and Pause, Resume, Cancel, Retry.
 */
export function EvaluationProgress(props: { detail: EvaluationDetail }) {
  const [error, setError] = createSignal<string | null>(null);
  const [busy, setBusy] = createSignal(false);
  const p = () => props.detail.progress;
  const done = () => p().answers.done + p().judgments.done;
  const total = () => Math.max(1, p().answers.total + p().judgments.total);
  const act = async (action: "pause" | "resume" | "cancel" | "retry") => {
    setBusy(true);
    setError(null);
    try {
      const param = { param: { id: props.detail.id } };
      if (action === "pause") await call(api.evaluations[":id"].pause.$post(param));
      else if (action === "resume") await call(api.evaluations[":id"].resume.$post(param));
      else if (action === "cancel") await call(api.evaluations[":id"].cancel.$post(param));
      else await call(api.evaluations[":id"].retry.$post(param));
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
    } finally {
      setBusy(false);
    }
  };
  const failed = () => p().answers.failed + p().judgments.failed;
  // A goal evaluation's calls are its battles: it answers nothing apart from them.
  const goal = () => props.detail.method === "goal";
  return (
    <section class="evaluation-progress" aria-labelledby="evaluation-progress-title">
      <h2 id="evaluation-progress-title">Progress</h2>
      <p>
        <progress max={total()} value={done()} aria-label="Calls done" /> {done()} of {total()}{" "}
        {goal() ? "battles" : "calls"} · <span data-testid="evaluation-spent">${p().spentUsd.toFixed(4)} spent</span>
        <Show when={p().unknownCostCalls > 0}> (+{p().unknownCostCalls} calls with no price)</Show>
        <Show when={props.detail.status === "running"}> · {eta(p().etaMs)}</Show>
      </p>
      <table class="progress-table">
        <thead>
          <tr>
            <th scope="col">Contestant</th>
            <Show when={!goal()}>
              <th scope="col">Answered</th>
            </Show>
            <th scope="col">{goal() ? "Battles" : props.detail.method === "council" ? "Reviewed" : "Judged"}</th>
          </tr>
        </thead>
        <tbody>
          <For each={p().contestants}>
            {(c) => (
              <tr>
                <th scope="row">{c.displayName}</th>
                <Show when={!goal()}>
                  <td>
                    {c.answered} / {c.answersTotal}
                    <Show when={c.answerFailed > 0}>
                      <span class="field-error"> ({c.answerFailed} failed)</span>
                    </Show>
                  </td>
                </Show>
                <td>
                  {c.judged} / {c.judgedTotal}
                  <Show when={c.judgeFailed > 0}>
                    <span class="field-error"> ({c.judgeFailed} failed)</span>
                  </Show>
                </td>
              </tr>
            )}
          </For>
        </tbody>
      </table>
      <Show when={props.detail.error}>
        <p class="field-error">{props.detail.error}</p>
      </Show>
      <p class="actions">
        <Show when={props.detail.status === "running" || props.detail.status === "queued"}>
          <button type="button" class="secondary" disabled={busy()} onClick={() => void act("pause")}>
            Pause
          </button>{" "}
        </Show>
        <Show when={props.detail.status === "paused"}>
          <button type="button" disabled={busy()} onClick={() => void act("resume")}>
            Resume
          </button>{" "}
        </Show>
        <Show when={!["completed", "cancelled", "failed"].includes(props.detail.status)}>
          <button type="button" class="secondary" disabled={busy()} onClick={() => void act("cancel")}>
            Cancel (keeps what finished)
          </button>{" "}
        </Show>
        <Show when={failed() > 0}>
          <button type="button" class="secondary" disabled={busy()} onClick={() => void act("retry")}>
            Retry {failed()} failed
          </button>
        </Show>
      </p>
      <Alert message={error()} />
    </section>
  );
}
