import { createSignal, Show, type JSX } from "solid-js";
import { ExampleChips } from "./example-chips";

interface Props {
  help: string;
  /** why Send is unavailable right now, if it is */
  blocked: string | null;
  sending: boolean;
  /** resolves true when the prompt was taken (the box then empties) */
  onSend: (text: string) => Promise<boolean>;
  onBlocked: (reason: string) => void;
  /** offer "Try an example" under the box (a new round; not a follow-up turn) */
  examples?: boolean;
  children?: JSX.Element;
}

/** The one prompt box: Enter sends to both sides, Shift+Enter breaks the line, Escape leaves the box (so 1–4 vote). */
export function ArenaComposer(props: Props) {
  const [text, setText] = createSignal("");
  let box!: HTMLTextAreaElement;
  const send = async () => {
    if (props.sending) return;
    if (props.blocked) return props.onBlocked(props.blocked);
    if (await props.onSend(text())) setText("");
  };
  return (
    <form
      class="composer"
      novalidate
      onSubmit={(e) => {
        e.preventDefault();
        void send();
      }}
    >
      <div class="field">
        <label for="arena-prompt">Prompt</label>
        <textarea
          id="arena-prompt"
          ref={box}
          rows="3"
          aria-describedby="arena-prompt-help"
          value={text()}
          onInput={(e) => setText(e.currentTarget.value)}
          onKeyDown={(e) => {
            if (e.key === "Enter" && !e.shiftKey && !e.isComposing) {
              e.preventDefault();
              void send();
            } else if (e.key === "Escape") e.currentTarget.blur();
          }}
        />
        <p id="arena-prompt-help" class="muted small">
          {props.help}
        </p>
      </div>
      <div class="submit-row">
        <button type="submit" class="primary" disabled={props.sending || props.blocked !== null}>
          Send to both
        </button>
        <Show when={props.sending}>
          <span class="muted" role="status">
            Sending…
          </span>
        </Show>
      </div>
      <Show when={props.examples}>
        <ExampleChips
          onPick={(example) => {
            setText(example);
            box.focus();
          }}
        />
      </Show>
      {props.children}
    </form>
  );
}
