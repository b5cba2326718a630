import { createSignal, Show } from "solid-js";
import { judgeIdsProblem } from "../lib/arena-state";
import type { ModelOption } from "../lib/model-match";
import { ModelCombobox } from "./model-combobox";

interface Props {
  /** the ids last used, as typed */
  initial: string;
  /** the round has a vote, so verdicts show as they come */
  voted: boolean;
  asking: boolean;
  /** the models to suggest */
  models: ModelOption[];
  /** resolves to null when the server took the judges, or to why it didn't */
  onAsk: (ids: string) => Promise<string | null>;
}

/** Names judge models and asks them to compare the two sides; before the vote nothing of them shows. */
export function AskJudges(props: Props) {
  const [ids, setIds] = createSignal(props.initial);
  // Checked from the first ask on, so the error beside the field goes as soon as the ids are right.
  const [checked, setChecked] = createSignal(false);
  const [refused, setRefused] = createSignal<string | null>(null);
  const error = () => refused() ?? (checked() ? judgeIdsProblem(ids()) : null);
  let field: HTMLInputElement | undefined;
  return (
    <form
      class="ask-judges"
      novalidate
      onSubmit={async (e) => {
        e.preventDefault();
        if (props.asking) return;
        setChecked(true);
        const ask = ids();
        if (judgeIdsProblem(ask)) return field?.focus();
        const why = await props.onAsk(ask);
        if (why && ids() === ask) setRefused(why);
      }}
    >
      <label for="judge-ids">Judge model ids</label>
      <div class="row">
        <ModelCombobox
          id="judge-ids"
          ref={(el) => (field = el)}
          multiple
          options={props.models}
          placeholder="provider:model-name, provider:model-name"
          describedBy="judge-ids-help"
          value={ids()}
          error={error()}
          onValue={(v) => {
            setIds(v);
            setRefused(null);
          }}
        />
        <button type="submit" disabled={props.asking}>
          {props.asking ? "Asking…" : "Ask judges"}
        </button>
      </div>
      <p id="judge-ids-help" class="muted small">
        Comma-separated. Each judge compares A and B twice, the second time with their places swapped.
        <Show when={!props.voted}> Their verdicts stay hidden until you vote, so they can't sway you.</Show>
      </p>
    </form>
  );
}
