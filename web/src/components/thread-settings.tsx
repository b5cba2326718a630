import { Show } from "solid-js";
import type { ModelOption } from "../lib/model-match";
import { ModelCombobox } from "./model-combobox";
import { TextField } from "./text-field";

export interface ThreadFields {
  modelId: string;
  systemPrompt: string;
  category: string;
}

interface Props {
  fields: ThreadFields;
  onField: (name: keyof ThreadFields, value: string) => void;
  options: ModelOption[];
  /** an existing thread's settings are saved with a button; a new thread's go with its first message */
  onSave?: () => void;
  saving?: boolean;
  /** the last save's outcome, announced beside the button */
  note?: string | null;
}

/** A thread's model (or preset), system prompt and the topper's category. */
export function ThreadSettingsForm(props: Props) {
  return (
    <div class="thread-settings">
      <div class="field">
        <label for="thread-model">Model</label>
        <ModelCombobox
          id="thread-model"
          value={props.fields.modelId}
          onValue={(v) => props.onField("modelId", v)}
          options={props.options}
          describedBy="thread-model-help"
        />
        <p id="thread-model-help" class="muted small">
          Who answers a single message: any model or preset, e.g. <code>demo:concise</code> or{" "}
          <code>openai:gpt-4o-mini</code>.
        </p>
      </div>
      <TextField
        id="thread-system"
        label="System prompt"
        rows={2}
        value={props.fields.systemPrompt}
        onValue={(v) => props.onField("systemPrompt", v)}
      >
        Sent before every message of this thread, whatever the mode.
      </TextField>
      <TextField
        id="thread-category"
        label="Topper category"
        value={props.fields.category}
        onValue={(v) => props.onField("category", v)}
      >
        Optional: a topper message goes to this category's leader (e.g. <code>coding</code>) instead of the overall one.
      </TextField>
      <Show when={props.onSave}>
        <div class="submit-row">
          <button type="button" disabled={props.saving} onClick={() => props.onSave?.()}>
            {props.saving ? "Saving…" : "Save settings"}
          </button>{" "}
          <span class="muted small" role="status">
            {props.note ?? ""}
          </span>
        </div>
      </Show>
    </div>
  );
}

/** The fields as the API takes them: blanks are "none". */
export const settingsOf = (f: ThreadFields) => ({
  modelId: f.modelId.trim() || null,
  systemPrompt: f.systemPrompt.trim() ? f.systemPrompt : null,
  category: f.category.trim() || null,
});
