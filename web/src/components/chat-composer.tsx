import { createSignal, For, Show } from "solid-js";
import { MODE_HELP, MODE_TEXT } from "../lib/thread-state";
import { MESSAGE_MODES, type MessageMode } from "../lib/thread-types";

interface Props {
  mode: MessageMode;
  onMode: (mode: MessageMode) => void;
  /** why Send is unavailable right now, if it is */
  blocked: string | null;
  sending: boolean;
  /** resolves true when the message was taken (the box then empties) */
  onSend: (text: string) => Promise<boolean>;
}

/**
 * The thread's message box and the mode of the next message. Enter sends, Shift+Enter breaks the line, Escape
 * leaves the box (so the keys 1–4 vote on a dual message).
 */
export function ChatComposer(props: Props) {
  const [text, setText] = createSignal("");
  const [problem, setProblem] = createSignal<string | null>(null);
  const send = async () => {
    if (props.sending) return;
    if (props.blocked) return setProblem(props.blocked);
    if (!text().trim()) return setProblem("Write a message first.");
    setProblem(null);
    if (await props.onSend(text())) setText("");
  };
  return (
    <form
      class="composer chat-composer"
      novalidate
      onSubmit={(e) => {
        e.preventDefault();
        void send();
      }}
    >
      <fieldset class="chat-modes" aria-describedby="chat-mode-help">
        <legend>Mode of the next message</legend>
        <div class="chat-mode-options">
          <For each={MESSAGE_MODES}>
            {(mode) => (
              <label class="check">
                <input
                  type="radio"
                  name="chat-mode"
                  value={mode}
                  checked={props.mode === mode}
                  onChange={() => props.onMode(mode)}
                />{" "}
                {MODE_TEXT[mode]}
              </label>
            )}
          </For>
        </div>
        <p id="chat-mode-help" class="muted small">
          {MODE_HELP[props.mode]}
        </p>
      </fieldset>
      <div class="field">
        <label for="chat-message">Message</label>
        <textarea
          id="chat-message"
          rows="3"
          aria-describedby="chat-message-help"
          value={text()}
          onInput={(e) => {
            setText(e.currentTarget.value);
            setProblem(null);
          }}
          onKeyDown={(e) => {
            if (e.key === "Enter" && !e.shiftKey && !e.isComposing) {
              e.preventDefault();
              void send();
            } else if (e.key === "Escape") e.currentTarget.blur();
          }}
        />
        <p id="chat-message-help" class="muted small">
          Enter sends; Shift+Enter starts a new line.
        </p>
      </div>
      <div class="submit-row">
        <button type="submit" class="primary" disabled={props.sending}>
          Send
        </button>{" "}
        <Show when={props.sending}>
          <span class="muted" role="status">
            Sending…
          </span>
        </Show>
        <Show when={problem() ?? props.blocked}>
          {(why) => (
            <span class="muted small" role="status" data-testid="composer-blocked">
              {why()}
            </span>
          )}
        </Show>
      </div>
    </form>
  );
}
