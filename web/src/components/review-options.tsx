import { createSignal, For } from "solid-js";
import type { SetStoreFunction } from "solid-js/store";
import type { PickerGroup } from "../lib/api";
import { modelOptions } from "../lib/model-match";
import { newDimension, reviewersProblem, type SetupState } from "../pages/setup.data";
import { MAX_RUBRIC_DIMENSIONS, MAX_RUBRIC_WEIGHT } from "../../../worker/shared/constants";
import { ModelCombobox } from "./model-combobox";

interface Props {
  state: SetupState;
  setState: SetStoreFunction<SetupState>;
  groups: PickerGroup[];
}

/** Who reviews (judge-only models among them) and what they score: folded away, since most runs keep the defaults. */
export function ReviewOptions(props: Props) {
  const set = props.setState;
  const options = () => [
    ...modelOptions(props.groups),
    ...props.state.custom.map((id) => ({ id, name: id, provider: "added by id" })),
  ];
  // Open from the start when a remembered choice uses them; never folded away under the person's hands.
  // Said beside the field once the person has left it, not while an id is half typed.
  const [left, setLeft] = createSignal(false);
  const openAtFirst = props.state.reviewers.trim() !== "" || props.state.rubric.length > 0;
  return (
    <details class="advanced" open={openAtFirst}>
      <summary>Advanced: reviewers and rubric</summary>
      <div class="field">
        <label for="reviewers">Reviewers</label>
        <ModelCombobox
          id="reviewers"
          multiple
          options={options()}
          placeholder="provider:model-name, provider:model-name"
          describedBy="reviewers-help"
          value={props.state.reviewers}
          onValue={(v) => set("reviewers", v)}
          onBlur={() => setLeft(true)}
          error={left() ? reviewersProblem(props.state.reviewers) : null}
        />
        <p id="reviewers-help" class="muted small">
          Leave empty to have the answering models review each other. A model listed here that isn't selected above
          reviews and ranks every answer without answering (judge only); a selected one listed here keeps the
          self-review rule. A blind run lists every selected model or none of them.
        </p>
      </div>
      <fieldset class="rubric-editor">
        <legend>Rubric</legend>
        <p id="rubric-help" class="muted small">
          Empty: reviewers score correctness, completeness, clarity, helpfulness, safety and overall. Otherwise they
          score these dimensions (0–10), and an answer's overall is their weighted mean. A key is lowercase letters,
          digits, - or _.
        </p>
        <ol class="rubric-rows">
          <For each={props.state.rubric}>
            {(row, i) => (
              <li class="row">
                <input
                  type="text"
                  aria-label={`Key of dimension ${i() + 1}`}
                  placeholder="key, e.g. accuracy"
                  spellcheck={false}
                  value={row.key}
                  onInput={(e) => set("rubric", i(), "key", e.currentTarget.value)}
                />
                <input
                  type="text"
                  aria-label={`What dimension ${i() + 1} judges`}
                  placeholder="what it judges"
                  value={row.description}
                  onInput={(e) => set("rubric", i(), "description", e.currentTarget.value)}
                />
                <input
                  type="number"
                  class="narrow"
                  aria-label={`Weight of dimension ${i() + 1}`}
                  min="0"
                  max={MAX_RUBRIC_WEIGHT}
                  step="any"
                  value={row.weight}
                  onInput={(e) => set("rubric", i(), "weight", e.currentTarget.value)}
                />
                <button
                  type="button"
                  aria-label={`Remove dimension ${i() + 1}`}
                  onClick={() => set("rubric", (rows) => rows.filter((_, j) => j !== i()))}
                >
                  Remove
                </button>
              </li>
            )}
          </For>
        </ol>
        <button
          type="button"
          aria-describedby="rubric-help"
          disabled={props.state.rubric.length >= MAX_RUBRIC_DIMENSIONS}
          onClick={() => set("rubric", (rows) => [...rows, newDimension()])}
        >
          Add a dimension
        </button>
      </fieldset>
      <div class="field narrow">
        <label for="category">Category</label>
        <input
          id="category"
          type="text"
          aria-describedby="category-help"
          value={props.state.category}
          onInput={(e) => set("category", e.currentTarget.value)}
        />
        <p id="category-help" class="muted small">
          Optional, e.g. math: a rubric's per-category weights (set through the API) apply to runs of that category.
        </p>
      </div>
    </details>
  );
}
