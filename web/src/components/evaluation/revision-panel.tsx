import type { InferResponseType } from "hono/client";
import { createSignal, For, Show } from "solid-js";
import { api, call } from "../../lib/api";
import { navigate } from "../../lib/router";
import { wordDiff } from "../../lib/word-diff";
import { Alert } from "../alert";

type Draft = InferResponseType<(typeof api.evaluations)[":id"]["revisions"]["$post"], 200>;
type Saved = InferResponseType<(typeof api.presets)[":slug"]["$patch"], 200>;

const refOf = (contestant: string) => {
  const m = /^preset:([a-z0-9-]+)@(\d+)$/.exec(contestant);
  return m ? { slug: m[1], version: Number(m[2]) } : null;
};

/** The plan the evaluation was started with, the saved version in the old one's place. */
function rerunOf(plan: Draft["plan"], from: string, to: string) {
  const swap = (id: string) => (id === from ? to : id);
  const { timeoutMs, maxTokens, temperature } = plan.settings;
  return {
    promptSetId: plan.promptSetId,
    method: plan.method,
    contestants: plan.contestants.map(swap),
    judges: plan.judges,
    repeats: plan.repeats,
    ...(plan.baseline === null ? {} : { baseline: swap(plan.baseline) }),
    ...(plan.rubric === null ? {} : { rubric: plan.rubric }),
    settings: {
      ...(timeoutMs === null ? {} : { timeoutMs }),
      ...(maxTokens === null ? {} : { maxTokens }),
      ...(temperature === null ? {} : { temperature }),
    },
  };
}

/**
 * Suggest a revision for one preset contestant: a model drafts a revised system prompt from the items it lost,
 * shown as a word diff against the current one; saved, it becomes the preset's next version, and evaluating it
 * runs the same plan again and opens that evaluation with the way back to compare.
 */
export function RevisionPanel(props: { evaluationId: string; contestant: string; name: string; model: string }) {
  const [model, setModel] = createSignal(props.model);
  const [draft, setDraft] = createSignal<Draft | null>(null);
  const [saved, setSaved] = createSignal<Saved | null>(null);
  const [busy, setBusy] = createSignal(false);
  const [error, setError] = createSignal<string | null>(null);
  const ref = refOf(props.contestant);
  const fieldId = `revision-model-${props.contestant.replace(/[^a-z0-9]/gi, "-")}`;

  const act = async (work: () => Promise<void>) => {
    setBusy(true);
    setError(null);
    try {
      await work();
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
    } finally {
      setBusy(false);
    }
  };
  const suggest = () =>
    act(async () => {
      setSaved(null);
      setDraft(
        await call(
          api.evaluations[":id"].revisions.$post({
            param: { id: props.evaluationId },
            json: { contestant: props.contestant, model: model().trim() },
          }),
        ),
      );
    });
  const save = (d: Draft) =>
    act(async () => {
      if (!ref) return;
      setSaved(
        await call(api.presets[":slug"].$patch({ param: { slug: ref.slug }, json: { systemPrompt: d.revisedPrompt } })),
      );
    });
  const evaluate = (d: Draft, s: Saved) =>
    act(async () => {
      const started = await call(api.evaluations.$post({ json: rerunOf(d.plan, props.contestant, s.id) }));
      navigate(`/evaluations/${encodeURIComponent(started.id)}?previous=${encodeURIComponent(props.evaluationId)}`);
    });
  const diff = () => {
    const d = draft();
    return d ? wordDiff(d.currentPrompt, d.revisedPrompt) : null;
  };

  return (
    <section class="revision-panel" aria-label={`Revise ${props.name}`} data-testid="revision-panel">
      <h3>{props.name}</h3>
      <p class="revision-ask">
        <label for={fieldId}>Drafting model</label>{" "}
        <input id={fieldId} value={model()} onInput={(e) => setModel(e.currentTarget.value)} />{" "}
        <button type="button" disabled={busy() || !model().trim()} onClick={suggest}>
          Suggest a revision
        </button>
      </p>
      <Alert message={error()} />
      <Show when={draft()}>
        {(d) => (
          <>
            <p data-testid="revision-rationale">{d().rationale}</p>
            <p class="muted small">
              Drafted by {d().model} from the {d().lostItems.length} item{d().lostItems.length === 1 ? "" : "s"} it lost
              most:{" "}
              {d()
                .lostItems.map((i) => i.itemId)
                .join(", ")}
              .
            </p>
            <div class="answers-side-by-side">
              <div>
                <h4>Current</h4>
                <p class="diff-view" data-testid="revision-current">
                  <For each={diff()?.left}>{(seg) => (seg.changed ? <del>{seg.text}</del> : seg.text)}</For>
                </p>
              </div>
              <div>
                <h4>Revised</h4>
                <p class="diff-view" data-testid="revision-revised">
                  <For each={diff()?.right}>{(seg) => (seg.changed ? <mark>{seg.text}</mark> : seg.text)}</For>
                </p>
              </div>
            </div>
            <Show
              when={saved()}
              fallback={
                <button type="button" disabled={busy()} onClick={() => save(d())}>
                  Save as version {(ref?.version ?? 0) + 1}
                </button>
              }
            >
              {(s) => (
                <p>
                  Saved as <code>{s().id}</code>.{" "}
                  <button type="button" disabled={busy()} onClick={() => evaluate(d(), s())}>
                    Evaluate the revision
                  </button>
                </p>
              )}
            </Show>
          </>
        )}
      </Show>
    </section>
  );
}
