import { createMemo, createSignal, For, Show } from "solid-js";
import type { PickerGroup, PickerModel } from "../lib/api";
import { modelOptions } from "../lib/model-match";
import { checkModelId } from "../pages/setup.data";
import { ModelCombobox } from "./model-combobox";
import { Link } from "../lib/router";

interface Props {
  groups: PickerGroup[];
  /** typed ids the catalog doesn't list, shown under their provider */
  custom: string[];
  isPicked: (id: string) => boolean;
  setPicked: (id: string, on: boolean) => void;
  addCustom: (id: string) => void;
  removeCustom: (id: string) => void;
}

const price = (m: PickerModel) =>
  m.priceIn === null || m.priceOut === null ? "price unknown" : `$${m.priceIn} / $${m.priceOut} per M tokens`;
const domId = (id: string) => `m-${id.replace(/[^a-zA-Z0-9_-]/g, "_")}`;

/** Every provider with its models, available or not (and why), plus a field for any model id. */
export function ModelPicker(props: Props) {
  const [typed, setTyped] = createSignal("");
  const [message, setMessage] = createSignal<{ error: boolean; text: string } | null>(null);
  // Suggested: the models not ticked yet (a ticked one is already in the run).
  const suggestions = createMemo(() => modelOptions(props.groups).filter((m) => !props.isPicked(m.id)));

  const add = () => {
    const check = checkModelId(typed(), props.groups);
    if (!check.ok) return setMessage({ error: true, text: check.message });
    const known = check.provider.models.find((m) => m.id === check.id);
    if (known) props.setPicked(check.id, true);
    else props.addCustom(check.id);
    setMessage({ error: false, text: `Selected ${known?.displayName ?? check.id}.` });
    setTyped("");
  };

  return (
    <fieldset class="model-picker">
      <legend>Models</legend>
      <For each={[...props.groups].sort((a, b) => Number(b.available) - Number(a.available))}>
        {(group) => (
          <fieldset class="provider" data-provider={group.id} aria-describedby={`${group.id}-status`}>
            <legend>
              {group.displayName}{" "}
              <span id={`${group.id}-status`} class={group.available ? "badge ok" : "badge off"}>
                {group.available ? "available" : `unavailable: ${group.reason ?? "not configured"}`}
              </span>
            </legend>
            <Show when={group.id === "preset"}>
              <p class="muted small">
                A model with its own system prompt and parameters, under its own name on the leaderboard.{" "}
                <Link href="/presets">Manage presets</Link>.
              </p>
            </Show>
            <Show when={group.id === "demo"}>
              <p class="muted small">
                Built-in demo models, no key and no network: prepared answers to the example questions, and an honest
                “this is the demo” to anything else.
              </p>
            </Show>
            <ul class="model-list">
              <For each={group.models}>
                {(m) => (
                  <li>
                    <label class="check">
                      <input
                        type="checkbox"
                        checked={props.isPicked(m.id)}
                        disabled={!m.available}
                        aria-describedby={`${domId(m.id)}-desc`}
                        onChange={(e) => props.setPicked(m.id, e.currentTarget.checked)}
                      />
                      {m.displayName}
                    </label>
                    <span id={`${domId(m.id)}-desc`} class="muted small">
                      <Show when={m.demo}>
                        <span class="badge demo">demo</span>{" "}
                      </Show>
                      <code>{m.id}</code> ·{" "}
                      {group.id === "preset" ? (
                        <>
                          on <code>{m.name}</code>
                        </>
                      ) : m.demo ? (
                        "free"
                      ) : (
                        price(m)
                      )}
                      {m.available || m.reason === group.reason
                        ? ""
                        : ` · unavailable: ${m.reason ?? "not configured"}`}
                    </span>
                  </li>
                )}
              </For>
              <For each={props.custom.filter((id) => id.startsWith(`${group.id}:`))}>
                {(id) => (
                  <li>
                    <label class="check">
                      <input
                        type="checkbox"
                        checked={props.isPicked(id)}
                        disabled={!group.available}
                        aria-describedby={`${domId(id)}-desc`}
                        onChange={(e) => props.setPicked(id, e.currentTarget.checked)}
                      />
                      {id.slice(id.indexOf(":") + 1)}
                    </label>
                    <span id={`${domId(id)}-desc`} class="muted small">
                      <code>{id}</code> · added by id
                    </span>{" "}
                    <button
                      type="button"
                      class="small"
                      aria-label={`Remove ${id}`}
                      onClick={() => props.removeCustom(id)}
                    >
                      Remove
                    </button>
                  </li>
                )}
              </For>
            </ul>
            <Show when={!group.models.length && !props.custom.some((id) => id.startsWith(`${group.id}:`))}>
              <p class="muted small">
                {group.id === "preset"
                  ? "No presets yet."
                  : group.available
                    ? "No models listed: add one by id below."
                    : "Configure it to use its models."}
              </p>
            </Show>
          </fieldset>
        )}
      </For>
      <div class="add-model">
        <label for="model-id">Model id</label>
        <div class="row">
          <ModelCombobox
            id="model-id"
            options={suggestions()}
            value={typed()}
            describedBy="model-id-help model-id-message"
            invalid={message()?.error ?? false}
            onValue={(v) => {
              setTyped(v);
              // An error goes as soon as the id would be accepted; "Selected …" stays until the next add.
              if (message()?.error && checkModelId(v, props.groups).ok) setMessage(null);
            }}
            onKeyDown={(e) => {
              if (e.key === "Enter") {
                e.preventDefault();
                add();
              }
            }}
          />
          <button type="button" onClick={add}>
            Add model
          </button>
        </div>
        <p id="model-id-help" class="muted small">
          Any model a configured provider serves, e.g. <code>openai:gpt-4o-mini</code> or{" "}
          <code>openai-compatible:llama3.2</code>.
        </p>
        <p id="model-id-message" class={message()?.error ? "field-error small" : "muted small"} role="status">
          {message()?.text ?? ""}
        </p>
      </div>
    </fieldset>
  );
}
