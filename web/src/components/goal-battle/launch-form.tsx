import { createSignal, type JSX, Show } from "solid-js";
import { createStore } from "solid-js/store";
import { launchGoalBattle } from "../../lib/goal-battle-api";
import {
  buildLaunch,
  LAUNCH_DEFAULTS,
  type LaunchErrors,
  type LaunchField,
  type LaunchValues,
  launchRefusal,
  MAX_LAUNCH,
} from "../../lib/goal-battle-form";
import { createModelOptions } from "../../lib/model-options";
import {
  MAX_GOAL_TURNS,
  MAX_OUTPUT_TOKENS,
  MAX_TEMPERATURE,
  MAX_TIMEOUT_MS,
} from "../../../../worker/shared/constants";
import { Alert } from "../alert";
import { ModelCombobox } from "../model-combobox";

const OPTIONS_KEY = "quorum.goalBattle.form";

function loadValues(): LaunchValues {
  try {
    return {
      ...LAUNCH_DEFAULTS,
      ...(JSON.parse(localStorage.getItem(OPTIONS_KEY) ?? "null") as Partial<LaunchValues>),
    };
  } catch {
    return { ...LAUNCH_DEFAULTS };
  }
}

const fieldId = (field: LaunchField) => `goal-${field}`;
const errorId = (field: LaunchField) => `goal-${field}-error`;

/**
 * The launch form: contestants (two, or a pool to draw two from), the framing and the goal, the user (a model with a
 * persona, or a script), how a goal is recognised, the limits, how the winner is decided, and how many battles.
 * Each launch is one POST: "Launch 3" sends three with the same settings. A refusal is shown beside its field.
 */
export function GoalLaunchForm(props: { onLaunched: (jobId: string) => void }) {
  const [v, setV] = createStore<LaunchValues>(loadValues());
  const [errors, setErrors] = createSignal<LaunchErrors>({});
  const [general, setGeneral] = createSignal<string | null>(null);
  const [progress, setProgress] = createSignal<string | null>(null);
  const [busy, setBusy] = createSignal(false);
  const options = createModelOptions(() => true);

  const set = <K extends keyof LaunchValues>(key: K, value: LaunchValues[K]) => {
    setV(key, value as never);
    if (key !== "draw" && key !== "userMode" && errors()[key as LaunchField])
      setErrors((e) => ({ ...e, [key]: undefined }));
  };
  const invalid = (field: LaunchField) => !!errors()[field];
  const described = (field: LaunchField, help?: string) =>
    [help, invalid(field) && errorId(field)].filter(Boolean).join(" ") || undefined;
  const error = (field: LaunchField) => (
    <Show when={errors()[field]}>
      <p id={errorId(field)} class="field-error small">
        {errors()[field]}
      </p>
    </Show>
  );

  const launch = async () => {
    const built = buildLaunch(v);
    setErrors(built.errors);
    setGeneral(null);
    if (!built.body) return focusFirstError(built.errors);
    try {
      localStorage.setItem(OPTIONS_KEY, JSON.stringify(v));
    } catch {
      // Storage disabled: the form starts from its defaults next time.
    }
    setBusy(true);
    let launched = 0;
    try {
      for (; launched < built.count; launched++) {
        setProgress(built.count > 1 ? `Launching ${launched + 1} of ${built.count}…` : "Launching…");
        const { jobId } = await launchGoalBattle(built.body);
        props.onLaunched(jobId);
      }
      setProgress(`Launched ${launched} battle${launched === 1 ? "" : "s"}.`);
    } catch (err) {
      const refusal = launchRefusal(err, v);
      setErrors(refusal.fields);
      const done = launched ? `Launched ${launched} of ${built.count}; the next was refused. ` : "";
      setGeneral(refusal.general ? `${done}${refusal.general}` : done ? `${done}See the fields marked above.` : null);
      setProgress(null);
      focusFirstError(refusal.fields);
    } finally {
      setBusy(false);
    }
  };

  const text = (field: LaunchField, label: string, extra: JSX.InputHTMLAttributes<HTMLInputElement> = {}) => (
    <div class="field">
      <label for={fieldId(field)}>{label}</label>
      <input
        id={fieldId(field)}
        type="text"
        value={v[field]}
        aria-invalid={invalid(field)}
        aria-describedby={described(field)}
        onInput={(e) => set(field, e.currentTarget.value)}
        {...extra}
      />
      {error(field)}
    </div>
  );
  const area = (field: LaunchField, label: string, help: string | null, rows: number, placeholder?: string) => (
    <div class="field">
      <label for={fieldId(field)}>{label}</label>
      <textarea
        id={fieldId(field)}
        rows={rows}
        value={v[field]}
        placeholder={placeholder}
        aria-invalid={invalid(field)}
        aria-describedby={described(field, help ? `${fieldId(field)}-help` : undefined)}
        onInput={(e) => set(field, e.currentTarget.value)}
      />
      <Show when={help}>
        <p id={`${fieldId(field)}-help`} class="muted small">
          {help}
        </p>
      </Show>
      {error(field)}
    </div>
  );
  const model = (field: LaunchField, label: string, placeholder: string, multiple = false) => (
    <div class="field">
      <label for={fieldId(field)}>{label}</label>
      <ModelCombobox
        id={fieldId(field)}
        multiple={multiple}
        options={options()}
        value={v[field]}
        onValue={(value) => set(field, value)}
        placeholder={placeholder}
        error={errors()[field] ?? null}
      />
    </div>
  );
  const number = (field: LaunchField, label: string, min: number, max: number, step: string) =>
    text(field, label, { type: "number", min, max, step, inputmode: step === "1" ? "numeric" : "decimal" });

  return (
    <form
      class="goal-form"
      aria-labelledby="goal-form-title"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        if (!busy()) void launch();
      }}
    >
      <h2 id="goal-form-title">Launch battles</h2>
      <fieldset>
        <legend>Contestants</legend>
        <div class="row" role="radiogroup" aria-label="How the contestants are chosen">
          <label class="check">
            <input type="radio" name="goal-draw" checked={v.draw === "pair"} onChange={() => set("draw", "pair")} />
            Two contestants
          </label>
          <label class="check">
            <input type="radio" name="goal-draw" checked={v.draw === "pool"} onChange={() => set("draw", "pool")} />
            Draw two from a pool
          </label>
        </div>
        <Show
          when={v.draw === "pair"}
          fallback={model("pool", "Pool (models or presets, comma-separated)", "demo:concise, demo:thorough", true)}
        >
          <div class="grid-fields">
            {model("first", "Contestant 1", "demo:concise")}
            {model("second", "Contestant 2", "demo:thorough")}
          </div>
        </Show>
        <p class="muted small">Sides are drawn at random and stay blind (A and B) until the battle ends.</p>
      </fieldset>
      {area("systemPrompt", "System prompt (both sides)", null, 3, "optional")}
      {area("goal", "Goal", "What both sides must achieve; the user and the judge see it too.", 2)}
      <fieldset>
        <legend>User</legend>
        <div class="row" role="radiogroup" aria-label="Who plays the user">
          <label class="check">
            <input
              type="radio"
              name="goal-user"
              checked={v.userMode === "model"}
              onChange={() => set("userMode", "model")}
            />
            Simulated by a model
          </label>
          <label class="check">
            <input
              type="radio"
              name="goal-user"
              checked={v.userMode === "script"}
              onChange={() => set("userMode", "script")}
            />
            A script
          </label>
        </div>
        <Show
          when={v.userMode === "model"}
          fallback={area("script", "User messages, one per line", "Both sides get the same message each turn.", 5)}
        >
          {model("userModel", "User model", "demo:skeptic")}
          {area("persona", "Persona", "Who the user is and how they talk; optional.", 2)}
        </Show>
      </fieldset>
      <fieldset>
        <legend>Goal check</legend>
        <div class="grid-fields">
          {text("marker", "Goal marker", { placeholder: "GOAL_REACHED", spellcheck: false })}
          {model("judgeModel", "Judge model", "optional")}
        </div>
        <p class="muted small">
          After each turn: a reply that contains the marker, or the judge's yes, reaches the goal.
        </p>
      </fieldset>
      <fieldset>
        <legend>Limits</legend>
        <div class="grid-fields">
          {number("maxTurns", "Max turns", 1, MAX_GOAL_TURNS, "1")}
          {number("turnTimeoutSeconds", "Turn timeout (seconds)", 1, MAX_TIMEOUT_MS / 1000, "any")}
          {number("temperature", "Temperature", 0, MAX_TEMPERATURE, "any")}
          {number("maxTokens", "Max tokens per reply", 1, MAX_OUTPUT_TOKENS, "1")}
        </div>
      </fieldset>
      <div class="grid-fields">
        {text("category", "Category", { placeholder: "optional" })}
        <div class="field">
          <label for={fieldId("judgeMode")}>Winner decided by</label>
          <select
            id={fieldId("judgeMode")}
            value={v.judgeMode}
            aria-invalid={invalid("judgeMode")}
            aria-describedby={described("judgeMode")}
            onChange={(e) => set("judgeMode", e.currentTarget.value as LaunchValues["judgeMode"])}
          >
            <option value="goal">Goal rule, then judge</option>
            <option value="llm">Judge only</option>
            <option value="human">My vote</option>
          </select>
          {error("judgeMode")}
        </div>
        {number("count", `Battles to launch (1–${MAX_LAUNCH})`, 1, MAX_LAUNCH, "1")}
      </div>
      <Alert message={general()} />
      <p class="actions">
        <button type="submit" class="primary" disabled={busy()}>
          {`Launch ${Number(v.count) > 1 ? Number(v.count) : ""}`.trim()}
        </button>{" "}
        <span class="muted small" role="status">
          {progress() ?? ""}
        </span>
      </p>
    </form>
  );
}

/** Moves the focus to the form's first field with an error, so it is read out and can be fixed at once. */
function focusFirstError(errors: LaunchErrors) {
  if (Object.values(errors).some(Boolean))
    queueMicrotask(() => document.querySelector<HTMLElement>('.goal-form [aria-invalid="true"]')?.focus());
}
