import type { JSX } from "solid-js";
import { MAX_OUTPUT_TOKENS, MAX_TEMPERATURE } from "../../../worker/shared/constants";

interface Props {
  /** prefix of the two inputs' ids, unique on the page */
  id: string;
  temperature: string;
  maxTokens: string;
  set: (field: "temperature" | "maxTokens", value: string) => void;
  /** appended to both labels, e.g. a screen-reader-only "for GPT-5" where several models have these fields */
  labelSuffix?: JSX.Element;
}

/** A model's temperature and output-token limit, as text the caller parses: empty means the default. */
export function GenerationFields(props: Props) {
  return (
    <>
      <div class="field">
        <label for={`${props.id}-temp`}>Temperature{props.labelSuffix}</label>
        <input
          id={`${props.id}-temp`}
          type="number"
          inputmode="decimal"
          min="0"
          max={MAX_TEMPERATURE}
          step="0.1"
          placeholder="default"
          value={props.temperature}
          onInput={(e) => props.set("temperature", e.currentTarget.value)}
        />
      </div>
      <div class="field">
        <label for={`${props.id}-max`}>Max tokens{props.labelSuffix}</label>
        <input
          id={`${props.id}-max`}
          type="number"
          inputmode="numeric"
          min="1"
          max={MAX_OUTPUT_TOKENS}
          step="1"
          placeholder="default"
          value={props.maxTokens}
          onInput={(e) => props.set("maxTokens", e.currentTarget.value)}
        />
      </div>
    </>
  );
}
