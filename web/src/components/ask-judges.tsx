import { createSignal, Show } from "solid-js";

interface Props {
  /** the ids last used, as typed */
  initial: string;
  /** the round has a vote, so verdicts show as they come */
  voted: boolean;
  asking: boolean;
  /** resolves true when the server took the judges */
  onAsk: (ids: string) => Promise<boolean>;
}

/** Names judge models and asks them to compare the two sides; before the vote nothing of them shows. */
export function AskJudges(props: Props) {
  const [ids, setIds] = createSignal(props.initial);
  return (
    <form
      class="ask-judges"
      novalidate
      onSubmit={(e) => {
        e.preventDefault();
        if (!props.asking) void props.onAsk(ids());
      }}
    >
      <label for="judge-ids">Judge model ids</label>
      <div class="row">
        <input
          id="judge-ids"
          type="text"
          placeholder="provider:model-name, provider:model-name"
          autocomplete="off"
          spellcheck={false}
          aria-describedby="judge-ids-help"
          value={ids()}
          onInput={(e) => setIds(e.currentTarget.value)}
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
