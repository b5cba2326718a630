import { createSignal, Show } from "solid-js";
import type { ModelOption } from "../lib/model-match";
import { MAX_OUTPUT_TOKENS, MAX_TEMPERATURE } from "../../../worker/shared/constants";
import { numberField } from "../pages/setup.data";
import { ModelCombobox } from "./model-combobox";
import { GenerationFields } from "./generation-fields";

/** The fields of a preset as typed: strings until sent, so a half-typed number is never lost. */
export interface PresetDraft {
  name: string;
  modelId: string;
  systemPrompt: string;
  temperature: string;
  maxTokens: string;
}

export const emptyDraft = (): PresetDraft => ({
  name: "",
  modelId: "",
  systemPrompt: "",
  temperature: "",
  maxTokens: "",
});

/** The draft as a request's fields (empty ones null), or an Error naming the field that is wrong. */
export function presetFields(d: PresetDraft) {
  if (!d.name.trim()) throw new Error("Give the preset a name.");
  if (!d.modelId.trim()) throw new Error("Pick the model the preset runs on.");
  return {
    name: d.name.trim(),
    modelId: d.modelId.trim(),
    systemPrompt: d.systemPrompt.trim() ? d.systemPrompt : null,
    temperature: numberField("Temperature", d.temperature, 0, MAX_TEMPERATURE, false) ?? null,
    maxTokens: numberField("Max tokens", d.maxTokens, 1, MAX_OUTPUT_TOKENS, true) ?? null,
  };
}

interface Props {
  /** prefix of the fields' ids: one form per page section */
  id: string;
  initial: PresetDraft;
  options: ModelOption[];
  submitLabel: string;
  /** saves the draft; resolves to what to announce, or throws with what went wrong */
  save: (draft: PresetDraft) => Promise<string>;
  cancel?: () => void;
}

/** A preset's name, model, system prompt, temperature and token limit, with its save button and outcome. */
export function PresetForm(props: Props) {
  const [draft, setDraft] = createSignal({ ...props.initial });
  const [message, setMessage] = createSignal<{ error: boolean; text: string } | null>(null);
  const [saving, setSaving] = createSignal(false);
  const set = (field: keyof PresetDraft, value: string) => setDraft((d) => ({ ...d, [field]: value }));
  const f = (name: string) => `${props.id}-${name}`;

  const submit = async (e: SubmitEvent) => {
    e.preventDefault();
    setSaving(true);
    try {
      setMessage({ error: false, text: await props.save(draft()) });
    } catch (err) {
      setMessage({ error: true, text: err instanceof Error ? err.message : String(err) });
    } finally {
      setSaving(false);
    }
  };

  return (
    <form class="preset-form" onSubmit={(e) => void submit(e)} aria-describedby={f("message")}>
      <div class="grid-fields">
        <div class="field">
          <label for={f("name")}>Name</label>
          <input
            id={f("name")}
            type="text"
            maxLength={80}
            autocomplete="off"
            value={draft().name}
            onInput={(e) => set("name", e.currentTarget.value)}
          />
        </div>
        <div class="field">
          <label for={f("model")}>Model</label>
          <ModelCombobox
            id={f("model")}
            options={props.options.filter((o) => !o.id.startsWith("preset:"))}
            value={draft().modelId}
            onValue={(v) => set("modelId", v)}
          />
        </div>
        <GenerationFields id={f("gen")} temperature={draft().temperature} maxTokens={draft().maxTokens} set={set} />
        <div class="field wide">
          <label for={f("system")}>System prompt</label>
          <textarea
            id={f("system")}
            rows="4"
            placeholder="none"
            value={draft().systemPrompt}
            onInput={(e) => set("systemPrompt", e.currentTarget.value)}
          />
        </div>
      </div>
      <div class="row">
        <button type="submit" class="primary" disabled={saving()}>
          {props.submitLabel}
        </button>
        <Show when={props.cancel}>
          {(cancel) => (
            <button type="button" onClick={() => cancel()()}>
              Cancel
            </button>
          )}
        </Show>
      </div>
      <p id={f("message")} class={message()?.error ? "field-error small" : "muted small"} role="status">
        {message()?.text ?? ""}
      </p>
    </form>
  );
}
