import { Show } from "solid-js";
import { Link } from "../lib/router";
import type { Pick } from "../pages/setup.data";
import { GenerationFields } from "./generation-fields";

interface Props {
  pick: Pick;
  name: string;
  update: (field: "temperature" | "maxTokens" | "systemPrompt", value: string) => void;
  remove: () => void;
  /** for a preset: the model it runs on (its own settings replace these fields) */
  presetModel?: string;
}

/** One chosen model with its own temperature, token limit and system prompt (empty = the run's default). */
export function ModelParams(props: Props) {
  const base = () => `p-${props.pick.id.replace(/[^a-zA-Z0-9_-]/g, "_")}`;
  const forName = () => <span class="sr-only"> for {props.name}</span>;
  return (
    <li class="picked">
      <div class="row spread">
        <span>
          <strong>{props.name}</strong> <code class="muted small">{props.pick.id}</code>
        </span>
        <button type="button" class="small" aria-label={`Deselect ${props.name}`} onClick={() => props.remove()}>
          Deselect
        </button>
      </div>
      <Show
        when={props.presetModel === undefined}
        fallback={
          <p class="muted small">
            A preset on <code>{props.presetModel}</code>, with its own system prompt and parameters.{" "}
            <Link href="/presets">Edit it under Presets</Link>.
          </p>
        }
      >
        <details>
          <summary>
            Advanced settings<span class="sr-only"> for {props.name}</span>
          </summary>
          <div class="grid-fields">
            <GenerationFields
              id={base()}
              temperature={props.pick.temperature}
              maxTokens={props.pick.maxTokens}
              set={props.update}
              labelSuffix={forName()}
            />
            <div class="field wide">
              <label for={`${base()}-sys`}>System prompt{forName()}</label>
              <textarea
                id={`${base()}-sys`}
                rows="3"
                placeholder="none"
                value={props.pick.systemPrompt}
                onInput={(e) => props.update("systemPrompt", e.currentTarget.value)}
              />
            </div>
          </div>
        </details>
      </Show>
    </li>
  );
}
