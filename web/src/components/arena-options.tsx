import { createSignal, For, Show } from "solid-js";
import type { SetStoreFunction } from "solid-js/store";
import { createModelOptions } from "../lib/model-options";
import type { ArenaFieldErrors, ArenaOptions } from "../pages/arena.data";
import { ModelCombobox } from "./model-combobox";
import { GenerationFields } from "./generation-fields";

interface Props {
  options: ArenaOptions;
  set: SetStoreFunction<ArenaOptions>;
  /** problems with the model fields, each shown beside its field */
  errors: ArenaFieldErrors;
}

const MODES: { value: ArenaOptions["mode"]; label: string }[] = [
  { value: "sampled", label: "A sampled pair" },
  { value: "manual", label: "Two models I name" },
  { value: "topper", label: "The leader against a challenger" },
];

/** The settings of a new round, folded away: most rounds need none of them. */
export function ArenaOptionsPanel(props: Props) {
  // The catalog only matters once the options are open: fetched then, once.
  const [opened, setOpened] = createSignal(false);
  const models = createModelOptions(opened);
  return (
    <details class="arena-options" onToggle={(e) => e.currentTarget.open && setOpened(true)}>
      <summary>Options: models, category, blind, judges, settings</summary>
      <fieldset class="inline">
        <legend>Models</legend>
        <For each={MODES}>
          {(m) => (
            <label class="check">
              <input
                type="radio"
                name="arena-mode"
                value={m.value}
                checked={props.options.mode === m.value}
                onChange={() => props.set("mode", m.value)}
              />
              {m.label}
            </label>
          )}
        </For>
        <p class="muted small">Either way the sides are shuffled, so you won't know which model is A.</p>
        <Show when={props.options.mode === "manual"}>
          <div class="grid-fields">
            <div class="field">
              <label for="arena-first">First model id</label>
              <ModelCombobox
                id="arena-first"
                options={models()}
                value={props.options.first}
                error={props.errors.first}
                onValue={(v) => props.set("first", v)}
              />
            </div>
            <div class="field">
              <label for="arena-second">Second model id</label>
              <ModelCombobox
                id="arena-second"
                options={models()}
                value={props.options.second}
                error={props.errors.second}
                onValue={(v) => props.set("second", v)}
              />
            </div>
          </div>
        </Show>
      </fieldset>
      <div class="grid-fields">
        <div class="field">
          <label for="arena-category">Category (optional)</label>
          <input
            id="arena-category"
            type="text"
            placeholder="e.g. coding"
            value={props.options.category}
            onInput={(e) => props.set("category", e.currentTarget.value)}
          />
        </div>
        <GenerationFields
          id="arena"
          temperature={props.options.temperature}
          maxTokens={props.options.maxTokens}
          set={props.set}
        />
        <div class="field wide">
          <label for="arena-system">System prompt</label>
          <textarea
            id="arena-system"
            rows="2"
            placeholder="none"
            value={props.options.systemPrompt}
            onInput={(e) => props.set("systemPrompt", e.currentTarget.value)}
          />
        </div>
      </div>
      <p class="muted small">Both models get the same settings.</p>
      <div class="field">
        <label for="arena-judges">Auto-judge (optional)</label>
        <ModelCombobox
          id="arena-judges"
          multiple
          options={models()}
          placeholder="provider:model-name, provider:model-name"
          describedBy="arena-judges-help"
          value={props.options.judges}
          error={props.errors.judges}
          onValue={(v) => props.set("judges", v)}
        />
        <p id="arena-judges-help" class="muted small">
          Judge model ids, comma-separated: each compares the two answers right after your vote, twice, with A and B
          swapped the second time. A judge that is one of the two models sits out.
        </p>
      </div>
      <label class="check">
        <input
          type="checkbox"
          checked={props.options.blind}
          aria-describedby="arena-blind-help"
          onChange={(e) => props.set("blind", e.currentTarget.checked)}
        />
        Blind: hide the names until I vote
      </label>
      <p id="arena-blind-help" class="muted small">
        Votes on rounds that are not blind are kept but left out of the ratings.
      </p>
    </details>
  );
}
