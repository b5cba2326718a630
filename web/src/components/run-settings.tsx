import { For, Show } from "solid-js";
import type { SetStoreFunction } from "solid-js/store";
import type { PickerGroup } from "../lib/api";
import type { SetupState } from "../pages/setup.data";
import { MAX_CONCURRENCY, MAX_TIMEOUT_MS } from "../../../worker/shared/constants";
import { ReviewOptions } from "./review-options";

interface Props {
  state: SetupState;
  setState: SetStoreFunction<SetupState>;
  groups: PickerGroup[];
  nameOf: (id: string) => string;
}

/** How the run goes: blind or not, self-review, synthesis, reviewer weights, pace; reviewers and rubric folded away. */
export function RunSettings(props: Props) {
  const set = props.setState;
  /** Models that can run, by provider: the catalog's and those added by id. */
  const chairs = () =>
    props.groups
      .filter((g) => g.available)
      .map((g) => ({
        group: g,
        ids: [
          ...g.models.filter((m) => m.available).map((m) => m.id),
          ...props.state.custom.filter((id) => id.startsWith(`${g.id}:`)),
        ],
      }))
      .filter((g) => g.ids.length);
  const offered = () => chairs().some((c) => c.ids.includes(props.state.synthesis));
  return (
    <fieldset class="run-settings">
      <legend>Run settings</legend>
      <label class="check">
        <input
          type="checkbox"
          checked={props.state.blind}
          aria-describedby="blind-help"
          onChange={(e) => set("blind", e.currentTarget.checked)}
        />
        Blind review
      </label>
      <p id="blind-help" class="muted small">
        Answers are labelled A, B, C; model names stay hidden until the run is done.
      </p>
      <fieldset class="inline">
        <legend>Self-review</legend>
        <label class="check">
          <input
            type="radio"
            name="self-review"
            value="exclude"
            checked={props.state.selfReview === "exclude"}
            onChange={() => set("selfReview", "exclude")}
          />
          Exclude each reviewer's own answer
        </label>
        <label class="check">
          <input
            type="radio"
            name="self-review"
            value="downweight"
            checked={props.state.selfReview === "downweight"}
            onChange={() => set("selfReview", "downweight")}
          />
          Include it, with the reviewer's ballot down-weighted
        </label>
        <Show when={props.state.selfReview === "downweight"}>
          <div class="field narrow">
            <label for="self-weight">Down-weight factor</label>
            <input
              id="self-weight"
              type="number"
              min="0"
              max="1"
              step="0.05"
              value={props.state.selfReviewWeight}
              onInput={(e) => set("selfReviewWeight", e.currentTarget.value)}
            />
          </div>
        </Show>
      </fieldset>
      <fieldset class="inline">
        <legend>Reviewer weights</legend>
        <label class="check">
          <input
            type="radio"
            name="reviewer-weights"
            value="equal"
            checked={props.state.reviewerWeights === "equal"}
            onChange={() => set("reviewerWeights", "equal")}
          />
          Equal
        </label>
        <label class="check">
          <input
            type="radio"
            name="reviewer-weights"
            value="calibrated"
            checked={props.state.reviewerWeights === "calibrated"}
            aria-describedby="weights-help"
            onChange={() => set("reviewerWeights", "calibrated")}
          />
          Calibrated by judge agreement
        </label>
        <p id="weights-help" class="muted small">
          Calibrated: each reviewer's ballot counts as much as it has agreed with people when it judged in the Arena; a
          reviewer without that record counts as the average of the others.
        </p>
      </fieldset>
      <label class="check">
        <input
          type="checkbox"
          checked={props.state.autoEvaluate}
          aria-describedby="auto-help"
          onChange={(e) => set("autoEvaluate", e.currentTarget.checked)}
        />
        Evaluate automatically
      </label>
      <p id="auto-help" class="muted small">
        Start the cross-review and vote as soon as the answers are in.
      </p>
      <div class="field">
        <label for="synthesis">Synthesis</label>
        <select
          id="synthesis"
          aria-describedby="synthesis-help"
          value={props.state.synthesis}
          onChange={(e) => set("synthesis", e.currentTarget.value)}
        >
          <option value="" selected={!props.state.synthesis}>
            None
          </option>
          <Show when={props.state.synthesis && !offered()}>
            <option value={props.state.synthesis} selected>
              {props.nameOf(props.state.synthesis)}
            </option>
          </Show>
          <For each={chairs()}>
            {(c) => (
              <optgroup label={c.group.displayName}>
                <For each={c.ids}>
                  {(id) => (
                    <option value={id} selected={id === props.state.synthesis}>
                      {props.nameOf(id)}
                    </option>
                  )}
                </For>
              </optgroup>
            )}
          </For>
        </select>
        <p id="synthesis-help" class="muted small">
          After the ranking, this model writes one final answer from the ranked answers and their critiques. It is not
          ranked.
        </p>
      </div>
      <div class="grid-fields">
        <div class="field narrow">
          <label for="concurrency">Concurrency</label>
          <input
            id="concurrency"
            type="number"
            min="1"
            max={MAX_CONCURRENCY}
            step="1"
            aria-describedby="concurrency-help"
            value={props.state.concurrency}
            onInput={(e) => set("concurrency", e.currentTarget.value)}
          />
          <p id="concurrency-help" class="muted small">
            Models called at once.
          </p>
        </div>
        <div class="field narrow">
          <label for="timeout">Timeout per model (seconds)</label>
          <input
            id="timeout"
            type="number"
            min="1"
            max={MAX_TIMEOUT_MS / 1000}
            step="1"
            value={props.state.timeoutSeconds}
            onInput={(e) => set("timeoutSeconds", e.currentTarget.value)}
          />
        </div>
      </div>
      <ReviewOptions state={props.state} setState={props.setState} groups={props.groups} />
    </fieldset>
  );
}
