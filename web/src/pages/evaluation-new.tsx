import { createResource, createSignal, For, Show } from "solid-js";
import { Alert } from "../components/alert";
import {
  defaultGoalSettings,
  GoalSettings,
  goalSettingsOf,
  type GoalSettingsForm,
} from "../components/evaluation/goal-settings";
import { ModelCombobox } from "../components/model-combobox";
import { api, call, type EvaluationEstimate } from "../lib/api";
import { createModelOptions } from "../lib/model-options";
import { promptCount, promptsOfLines } from "../lib/prompt-lines";
import { navigate } from "../lib/router";

const NEW_SET = "__new__";
const ids = (value: string) =>
  value
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);

/** What each method does, in one line: the page says it beside the choice. */
const METHODS = {
  pairwise:
    "Each judge compares each contestant's answer with the baseline's (or every pair) in both orders, on a five-point scale.",
  council:
    "Each prompt is a council round: the reviewers (or else the contestants, each leaving its own answer out) rank all the answers blind.",
  goal: "Each prompt's goal is a goal battle for every pair of contestants: the one that reaches it first wins; at the turn limit, the judge decides.",
} as const;
const METHOD_NAMES: Record<Method, string> = { pairwise: "Pairwise", council: "Council", goal: "Goal battles" };
type Method = keyof typeof METHODS;

/**
 * A new evaluation: a prompt set (picked, or pasted here), the contestants (models and presets), the method, a
 * baseline, the judges (a council's reviewers) and repeats; the estimate before Start.
 */
export default function EvaluationNewPage() {
  const options = createModelOptions(() => true);
  const [sets] = createResource(async () => {
    try {
      return (await call(api["prompt-sets"].$get({ query: { limit: "100" } }))).items;
    } catch {
      return [];
    }
  });
  const [name, setName] = createSignal("");
  const [setId, setSetId] = createSignal<string>("");
  const [pasted, setPasted] = createSignal("");
  const [contestants, setContestants] = createSignal("");
  const [baseline, setBaseline] = createSignal("");
  const [method, setMethod] = createSignal<Method>("pairwise");
  const [judges, setJudges] = createSignal("");
  const [repeats, setRepeats] = createSignal("1");
  const [rubric, setRubric] = createSignal("");
  const [goal, setGoal] = createSignal<GoalSettingsForm>(defaultGoalSettings());
  const [estimate, setEstimate] = createSignal<EvaluationEstimate | null>(null);
  const [error, setError] = createSignal<string | null>(null);
  const [busy, setBusy] = createSignal(false);

  const chosenSet = () => setId() || (sets()?.[0]?.id ?? NEW_SET);
  const pastedPrompts = () => promptsOfLines(pasted());

  /** The chosen set's id, creating the pasted one first. */
  const promptSetId = async (): Promise<string> => {
    if (chosenSet() !== NEW_SET) return chosenSet();
    if (pastedPrompts().length === 0) throw new Error("Paste at least one prompt, one per line, or pick a prompt set.");
    const made = await call(
      api["prompt-sets"].$post({
        json: {
          name: name().trim() || (method() === "goal" ? "Pasted goals" : "Pasted prompts"),
          // A pasted goal is also what the user first says: "Book a train to Paris".
          items: pastedPrompts().map((prompt) => (method() === "goal" ? { prompt, goal: prompt } : { prompt })),
        },
      }),
    );
    setSetId(made.id);
    return made.id;
  };

  const body = (id: string) => ({
    ...(name().trim() ? { name: name().trim() } : {}),
    promptSetId: id,
    contestants: ids(contestants()),
    method: method(),
    judges: ids(judges()),
    ...(baseline() && ids(contestants()).includes(baseline()) ? { baseline: baseline() } : {}),
    repeats: Number(repeats()) || 1,
    ...(rubric().trim() && method() === "pairwise" ? { rubric: rubric().trim() } : {}),
    ...(method() === "goal" ? { settings: { goal: goalSettingsOf(goal()) } } : {}),
  });

  const run = async (what: "estimate" | "start") => {
    setBusy(true);
    setError(null);
    try {
      const json = body(await promptSetId());
      if (what === "estimate") setEstimate(await call(api.evaluations.estimate.$post({ json })));
      else {
        const started = await call(api.evaluations.$post({ json }));
        navigate(`/evaluations/${encodeURIComponent(started.id)}`);
      }
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <h1>New evaluation</h1>
      <p class="muted">Every contestant answers every prompt; the method decides how the answers are judged.</p>
      <form
        class="evaluation-form"
        onSubmit={(e) => {
          e.preventDefault();
          void run("start");
        }}
      >
        <div class="field">
          <label for="evaluation-name">Name</label>
          <input
            id="evaluation-name"
            type="text"
            maxLength={200}
            placeholder="optional"
            value={name()}
            onInput={(e) => setName(e.currentTarget.value)}
          />
        </div>
        <div class="field">
          <label for="evaluation-set">Prompt set</label>
          <select id="evaluation-set" value={chosenSet()} onChange={(e) => setSetId(e.currentTarget.value)}>
            <For each={sets() ?? []}>
              {(s) => (
                <option value={s.id}>
                  {s.name} (v{s.version}, {promptCount(s.items)})
                </option>
              )}
            </For>
            <option value={NEW_SET}>Paste new prompts…</option>
          </select>
        </div>
        <Show when={chosenSet() === NEW_SET}>
          <div class="field">
            <label for="evaluation-prompts">
              {method() === "goal"
                ? "Goals, one per line (each also the user's first message)"
                : "Prompts, one per line"}
            </label>
            <textarea
              id="evaluation-prompts"
              rows="8"
              value={pasted()}
              onInput={(e) => setPasted(e.currentTarget.value)}
              aria-describedby="evaluation-prompts-count"
            />
            <p id="evaluation-prompts-count" class="muted small">
              {promptCount(pastedPrompts().length)}; saved as a prompt set when you estimate or start.
            </p>
          </div>
        </Show>
        <div class="field">
          <label for="evaluation-contestants">Contestants (models or presets, comma-separated)</label>
          <ModelCombobox
            id="evaluation-contestants"
            multiple
            options={options()}
            value={contestants()}
            onValue={setContestants}
            placeholder="demo:concise, preset:terse@1"
          />
          <p class="muted small">
            <a href="/presets">Make a preset</a> to compare system prompts on one model.
          </p>
        </div>
        <fieldset class="field">
          <legend>Method</legend>
          <For each={Object.keys(METHODS) as Method[]}>
            {(m) => (
              <label>
                <input
                  type="radio"
                  name="evaluation-method"
                  value={m}
                  checked={method() === m}
                  onChange={() => setMethod(m)}
                />{" "}
                {METHOD_NAMES[m]}
              </label>
            )}
          </For>
          <p class="muted small" data-testid="evaluation-method-help">
            {METHODS[method()]}
          </p>
        </fieldset>
        <div class="field">
          <label for="evaluation-baseline">Baseline</label>
          <select id="evaluation-baseline" value={baseline()} onChange={(e) => setBaseline(e.currentTarget.value)}>
            <option value="">
              {method() === "council"
                ? "None: win rates against the others"
                : method() === "goal"
                  ? "None: every pair battles (up to 6 contestants)"
                  : "None: judge every pair (up to 6 contestants)"}
            </option>
            {/* Named as the pickers name them (a preset by its name and version); a typed id nobody knows, as typed. */}
            <For each={ids(contestants())}>
              {(c) => <option value={c}>{options().find((o) => o.id === c)?.name ?? c}</option>}
            </For>
          </select>
        </div>
        <div class="field">
          <label for="evaluation-judges">
            {method() === "council"
              ? "Reviewers (comma-separated; none: the contestants review each other)"
              : method() === "goal"
                ? "Judge (one, optional: checks for the goal without a marker, decides battles at the limit)"
                : "Judges (comma-separated)"}
          </label>
          <ModelCombobox
            id="evaluation-judges"
            multiple
            options={options()}
            value={judges()}
            onValue={setJudges}
            placeholder="demo:skeptic"
          />
        </div>
        <div class="field">
          <label for="evaluation-repeats">
            {method() === "goal" ? "Battles per pair and goal" : "Answers per prompt"}
          </label>
          <input
            id="evaluation-repeats"
            type="number"
            min="1"
            max="5"
            value={repeats()}
            onInput={(e) => setRepeats(e.currentTarget.value)}
          />
        </div>
        <Show when={method() === "goal"}>
          <GoalSettings value={goal()} onValue={setGoal} options={options()} />
        </Show>
        <Show when={method() === "pairwise"}>
          <div class="field">
            <label for="evaluation-rubric">What the judges should weigh most</label>
            <textarea
              id="evaluation-rubric"
              rows="2"
              placeholder="optional, e.g. correctness first, then brevity"
              value={rubric()}
              onInput={(e) => setRubric(e.currentTarget.value)}
            />
          </div>
        </Show>
        <Show when={estimate()}>
          {(e) => (
            <p class="outcome-strip" data-testid="evaluation-estimate" role="status">
              At most <strong>${e().usd.toFixed(4)}</strong>:{" "}
              {e().goalBattles !== undefined
                ? `${e().goalBattles} goal battles`
                : `${e().answerCalls} answer calls and ${e().reviewCalls === undefined ? `${e().judgeCalls} judge calls` : `${e().reviewCalls} reviews`}`}
              <Show when={e().selfSkipped > 0}>
                {" "}
                ({e().selfSkipped} left out: a judge never judges its own answers)
              </Show>
              .<Show when={e().unpriced.length > 0}> No price known for {e().unpriced.join(", ")}.</Show>
            </p>
          )}
        </Show>
        <Alert message={error()} />
        <p class="actions">
          <button type="button" class="secondary" disabled={busy()} onClick={() => void run("estimate")}>
            Estimate
          </button>{" "}
          <button type="submit" class="primary" disabled={busy()}>
            Start
          </button>
        </p>
      </form>
    </>
  );
}
