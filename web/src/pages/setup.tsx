import { createEffect, createResource, createSignal, For, onMount, Show } from "solid-js";
import { Alert } from "../components/alert";
import { ExampleChips } from "../components/example-chips";
import { ModelParams } from "../components/model-params";
import { ModelPicker } from "../components/model-picker";
import { RunSettings } from "../components/run-settings";
import { api, call, messageOf, type CreateRunBody, type PickerGroup } from "../lib/api";
import { shortModelName } from "../lib/format";
import { navigate } from "../lib/router";
import {
  buildRunBody,
  choiceSummary,
  createSetup,
  draftQuestion,
  newPick,
  setDraftQuestion,
  setupFromRun,
} from "./setup.data";
import { MAX_RUN_MODELS } from "../../../worker/shared/constants";
import { isPresetId, loadPresets, presetGroup } from "../lib/presets";

export function SetupPage() {
  // Never rejects, and starts empty: a first load without a value would suspend the page's Suspense (app.tsx),
  // and the form is meant to stay usable while the models load.
  const [catalog] = createResource(
    async (): Promise<{ groups: PickerGroup[]; error: string | null }> => {
      try {
        const [{ providers }, presets] = await Promise.all([call(api.models.$get()), loadPresets()]);
        // Presets are offered as one more group: picked, matched and checked as models are.
        return { groups: [...providers, presetGroup(presets, providers)], error: null };
      } catch (err) {
        return { groups: [], error: err instanceof Error ? err.message : String(err) };
      }
    },
    { initialValue: { groups: [], error: null } },
  );
  const { state, setState, fresh, remembered } = createSetup();
  const [question, setQuestion] = [draftQuestion, setDraftQuestion];
  // "Run again" opens this page at /?again=<run id>: the form is filled from that run once it and the models are loaded.
  const againId = new URLSearchParams(location.search).get("again");
  const [again] = createResource(
    () => againId,
    async (id) => {
      try {
        return { detail: await call(api.runs[":id"].$get({ param: { id } })), error: null };
      } catch (err) {
        return { detail: null, error: messageOf(err) };
      }
    },
  );
  // Models and settings fold into one line once the person has a choice to reuse.
  const [choiceOpen, setChoiceOpen] = createSignal(!remembered && !againId);
  const [error, setError] = createSignal<string | null>(null);
  const [sending, setSending] = createSignal(false);
  let questionBox!: HTMLTextAreaElement;
  let seeded = false;
  let opened = false;

  const groups = () => catalog.latest?.groups ?? [];
  const nameOf = (id: string) =>
    groups()
      .flatMap((g) => g.models)
      .find((m) => m.id === id)?.displayName ?? shortModelName(id);
  /** a preset's model (the preset group lists it as the option's name); undefined for a model id */
  const baseOf = (id: string) =>
    isPresetId(id)
      ? groups()
          .find((g) => g.id === "preset")
          ?.models.find((m) => m.id === id)?.name
      : undefined;
  const isPicked = (id: string) => state.picks.some((p) => p.id === id);
  const setPicked = (id: string, on: boolean) => {
    if (on && !isPicked(id)) setState("picks", (ps) => [...ps, newPick(id)]);
    if (!on) setState("picks", (ps) => ps.filter((p) => p.id !== id));
  };

  onMount(() => (document.title = "New run · Quorum"));

  const [topCount, setTopCount] = createSignal("3");
  const [topMessage, setTopMessage] = createSignal<{ error: boolean; text: string } | null>(null);
  /** Ticks the current leaders by human votes (Bradley–Terry) among the models this page offers and can run. */
  const pickTop = async () => {
    const n = Number(topCount());
    if (!Number.isInteger(n) || n < 1 || n > MAX_RUN_MODELS)
      return setTopMessage({ error: true, text: `How many: a whole number from 1 to ${MAX_RUN_MODELS}.` });
    setTopMessage({ error: false, text: "Reading the leaderboard…" });
    try {
      const board = await call(api.leaderboard.$get({ query: {} }));
      const runnable = new Set([
        ...groups().flatMap((g) => g.models.filter((m) => m.available).map((m) => m.id)),
        ...state.custom.filter((id) => groups().some((g) => g.available && id.startsWith(`${g.id}:`))),
      ]);
      const top = board.rows.filter((r) => r.bt !== null && runnable.has(r.modelId)).slice(0, n);
      if (!top.length)
        return setTopMessage({
          error: true,
          text: "No model offered here has a rating from human votes yet: vote in the Arena first.",
        });
      setState("picks", (ps) => top.map((r) => ps.find((p) => p.id === r.modelId) ?? newPick(r.modelId)));
      const fewer = top.length < n ? ` Only ${top.length} of the rated models can run here.` : "";
      setTopMessage({
        error: false,
        text: `Selected the top ${top.length} by human votes: ${top.map((r) => r.displayName).join(", ")}.${fewer}`,
      });
    } catch (err) {
      setTopMessage({
        error: true,
        text: `Couldn't read the leaderboard: ${err instanceof Error ? err.message : String(err)}`,
      });
    }
  };

  createEffect(() => {
    const gs = groups();
    if (!gs.length) return;
    // A model remembered from an earlier visit whose provider is no longer configured can't run: drop it.
    // So is a remembered preset deleted since, or whose model can no longer run.
    const usable = (id: string) =>
      isPresetId(id)
        ? gs.some((g) => g.models.some((m) => m.id === id && m.available))
        : gs.some((g) => g.available && id.startsWith(`${g.id}:`));
    if (state.picks.some((p) => !usable(p.id))) setState("picks", (ps) => ps.filter((p) => usable(p.id)));
    if (state.synthesis && !usable(state.synthesis)) setState("synthesis", "");
    // Nothing left of the remembered choice: show the models rather than an empty summary.
    if (!opened && !againId && !state.picks.length) setChoiceOpen(true);
    opened = true;
    // First visit with no keys configured: start with the demo models, so Run works at once (once only).
    if (!fresh || seeded || state.picks.length) return;
    seeded = true;
    if (gs.some((g) => g.available && g.id !== "demo" && g.id !== "preset")) return;
    const demo = gs.find((g) => g.id === "demo");
    if (demo)
      setState(
        "picks",
        demo.models.filter((m) => m.available).map((m) => newPick(m.id)),
      );
  });

  let filled = false;
  /** models of the earlier run whose provider can't run here now (the form drops them) */
  const [leftOut, setLeftOut] = createSignal<string[]>([]);
  createEffect(() => {
    const detail = again()?.detail;
    const gs = groups();
    if (!detail || !gs.length || filled) return;
    filled = true;
    const listed = (id: string) => gs.some((g) => g.models.some((m) => m.id === id));
    setLeftOut(
      detail.run.models.map((m) => m.id).filter((id) => !gs.some((g) => g.available && id.startsWith(`${g.id}:`))),
    );
    setState(setupFromRun(detail, listed, state));
    setQuestion(detail.run.question);
    // The address was only the way here: a reload shows the form as it now stands, not the old run again.
    history.replaceState(null, "", "/");
  });
  const ignoredSettings = () => {
    const s = again()?.detail?.run.settings;
    if (!s) return [];
    return [
      s.systemPrompt !== undefined && "a system prompt",
      s.temperature !== undefined && "a temperature",
      s.maxTokens !== undefined && "a token limit",
      s.rubric?.categoryWeights !== undefined && "per-category rubric weights",
    ].filter((x): x is string => Boolean(x));
  };

  const submit = async (e: Event) => {
    e.preventDefault();
    setError(null);
    let body: CreateRunBody;
    try {
      body = buildRunBody(state, question(), nameOf);
    } catch (err) {
      setError((err as Error).message);
      if (!question().trim()) questionBox.focus();
      else setChoiceOpen(true);
      return;
    }
    setSending(true);
    try {
      const created = await call(api.runs.$post({ json: body }));
      setQuestion("");
      navigate(`/runs/${created.id}`);
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
    } finally {
      setSending(false);
    }
  };

  return (
    <section class="page setup" aria-labelledby="setup-title">
      <h1 id="setup-title">Ask several models at once</h1>
      <p class="muted">
        Every model answers; then each reviews the others' answers blind, and the votes decide the winner.
      </p>
      <Show when={againId}>
        <Show
          when={again()?.error}
          fallback={
            <p class="callout info" role="status" data-testid="run-again-note">
              {again()?.detail
                ? "Filled in from the earlier run: change anything, then Run. The earlier run stays in History."
                : "Loading the earlier run…"}
              <Show when={leftOut().length}>
                {" "}
                Left out, as their provider isn't configured here now: {leftOut().join(", ")}.
              </Show>
              <Show when={ignoredSettings().length}>
                {" "}
                It also set a run-wide {ignoredSettings().join(", ")}, which this form doesn't offer: the new run goes
                without.
              </Show>
            </p>
          }
        >
          <p class="callout error" role="alert">
            Couldn't load the run to run again: {again()?.error}
          </p>
        </Show>
      </Show>
      <form onSubmit={submit} novalidate>
        <div class="field">
          <label for="question">Question</label>
          <textarea
            id="question"
            ref={questionBox}
            rows="5"
            required
            aria-describedby="question-help"
            value={question()}
            onInput={(e) => setQuestion(e.currentTarget.value)}
            onKeyDown={(e) => {
              if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) void submit(e);
            }}
          />
          <p id="question-help" class="muted small">
            Ctrl+Enter runs it.
          </p>
        </div>

        <Alert message={error()} />
        <div class="submit-row">
          <button type="submit" class="primary" disabled={sending()}>
            Run
          </button>
          <Show when={sending()}>
            <span class="muted" role="status">
              Starting the run…
            </span>
          </Show>
        </div>
        {/* After Run, so the keyboard still reaches Run straight from the question. */}
        <ExampleChips
          onPick={(example) => {
            setQuestion(example);
            questionBox.focus();
          }}
        />

        <details class="choice" open={choiceOpen()} onToggle={(e) => setChoiceOpen(e.currentTarget.open)}>
          <summary>
            <span class="choice-title">Models and settings</span>{" "}
            <span class="choice-summary" data-testid="choice-summary">
              {choiceSummary(state, nameOf)}
            </span>
          </summary>
          <Show
            when={!catalog.latest?.error}
            fallback={
              <p class="callout error" role="alert">
                Couldn't load the models: {catalog.latest?.error}
              </p>
            }
          >
            <Show
              when={groups().length}
              fallback={
                <p class="muted" role="status">
                  Loading models…
                </p>
              }
            >
              <ModelPicker
                groups={groups()}
                custom={state.custom}
                isPicked={isPicked}
                setPicked={setPicked}
                addCustom={(id) => {
                  if (!state.custom.includes(id)) setState("custom", (c) => [...c, id]);
                  setPicked(id, true);
                }}
                removeCustom={(id) => {
                  setPicked(id, false);
                  setState("custom", (c) => c.filter((x) => x !== id));
                }}
              />
            </Show>
          </Show>

          <section class="picked-models" aria-labelledby="picked-title">
            <h2 id="picked-title">Selected models ({state.picks.length})</h2>
            <div class="row top-pick">
              <label for="top-count">How many</label>
              <input
                id="top-count"
                type="number"
                min="1"
                max={MAX_RUN_MODELS}
                step="1"
                inputmode="numeric"
                value={topCount()}
                onInput={(e) => setTopCount(e.currentTarget.value)}
              />
              <button type="button" onClick={() => void pickTop()} aria-describedby="top-pick-message">
                Pick the top models
              </button>
            </div>
            <p id="top-pick-message" class={topMessage()?.error ? "field-error small" : "muted small"} role="status">
              {topMessage()?.text ?? "From the leaderboard of human votes, among the models above that can run."}
            </p>
            <Show
              when={state.picks.length}
              fallback={<p class="muted small">None yet: tick models above or add one by id.</p>}
            >
              <ul class="picked-list">
                <For each={state.picks}>
                  {(pick, i) => (
                    <ModelParams
                      pick={pick}
                      name={nameOf(pick.id)}
                      presetModel={baseOf(pick.id)}
                      update={(field, value) => setState("picks", i(), field, value)}
                      remove={() => setPicked(pick.id, false)}
                    />
                  )}
                </For>
              </ul>
            </Show>
          </section>

          <RunSettings state={state} setState={setState} groups={groups()} nameOf={nameOf} />
        </details>
      </form>
    </section>
  );
}
