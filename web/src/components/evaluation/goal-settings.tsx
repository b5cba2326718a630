import { Show } from "solid-js";
import { DEFAULT_GOAL_TURNS, MAX_GOAL_TURNS } from "../../../../worker/shared/constants";
import type { ModelOption } from "../../lib/model-match";
import { ModelCombobox } from "../model-combobox";

/** A goal evaluation's battle settings as the form holds them. */
export interface GoalSettingsForm {
  userMode: "script" | "model";
  userModel: string;
  /** the user's lines after each item's prompt, one a line */
  script: string;
  maxTurns: string;
  turnSeconds: string;
}

export const defaultGoalSettings = (): GoalSettingsForm => ({
  userMode: "script",
  userModel: "",
  script: "",
  maxTurns: String(DEFAULT_GOAL_TURNS),
  turnSeconds: "120",
});

/** The form's settings as POST /api/evaluations takes them (`settings.goal`). */
export function goalSettingsOf(f: GoalSettingsForm) {
  const lines = f.script
    .split(/\r\n|\r|\n/)
    .map((l) => l.trim())
    .filter(Boolean);
  return {
    maxTurns: Math.min(MAX_GOAL_TURNS, Math.max(1, Math.round(Number(f.maxTurns) || DEFAULT_GOAL_TURNS))),
    turnTimeoutMs: Math.max(1, Math.round(Number(f.turnSeconds) || 120)) * 1000,
    user:
      f.userMode === "model"
        ? { mode: "model" as const, modelId: f.userModel.trim() }
        : { mode: "script" as const, script: lines },
  };
}

/** The simulated user and the limits of a goal evaluation's battles. */
export function GoalSettings(props: {
  value: GoalSettingsForm;
  onValue: (v: GoalSettingsForm) => void;
  options: ModelOption[];
}) {
  const set = (patch: Partial<GoalSettingsForm>) => props.onValue({ ...props.value, ...patch });
  return (
    <fieldset class="field" data-testid="goal-settings">
      <legend>Goal battles</legend>
      <p class="muted small">
        Each prompt is the user's first message; its item's <code>goal</code> (and <code>persona</code>,{" "}
        <code>marker</code>) say what the battle pursues.
      </p>
      <label>
        <input
          type="radio"
          name="goal-user-mode"
          checked={props.value.userMode === "script"}
          onChange={() => set({ userMode: "script" })}
        />{" "}
        Scripted user
      </label>{" "}
      <label>
        <input
          type="radio"
          name="goal-user-mode"
          checked={props.value.userMode === "model"}
          onChange={() => set({ userMode: "model" })}
        />{" "}
        A model plays the user
      </label>
      <Show
        when={props.value.userMode === "model"}
        fallback={
          <div class="field">
            <label for="goal-script">The user's next messages, one per line (the same for both sides)</label>
            <textarea
              id="goal-script"
              rows="3"
              value={props.value.script}
              onInput={(e) => set({ script: e.currentTarget.value })}
            />
          </div>
        }
      >
        <div class="field">
          <label for="goal-user-model">User model</label>
          <ModelCombobox
            id="goal-user-model"
            options={props.options}
            value={props.value.userModel}
            onValue={(v) => set({ userModel: v })}
            placeholder="demo:concise"
          />
        </div>
      </Show>
      <div class="field">
        <label for="goal-max-turns">Turns at most</label>
        <input
          id="goal-max-turns"
          type="number"
          min="1"
          max={MAX_GOAL_TURNS}
          value={props.value.maxTurns}
          onInput={(e) => set({ maxTurns: e.currentTarget.value })}
        />
      </div>
      <div class="field">
        <label for="goal-turn-seconds">Seconds a turn may take</label>
        <input
          id="goal-turn-seconds"
          type="number"
          min="1"
          value={props.value.turnSeconds}
          onInput={(e) => set({ turnSeconds: e.currentTarget.value })}
        />
      </div>
    </fieldset>
  );
}
