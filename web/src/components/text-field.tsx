import { type JSX, Show } from "solid-js";

interface Props {
  id: string;
  label: string;
  value: string;
  onValue: (value: string) => void;
  /** a textarea of this many rows; a one-line input without */
  rows?: number;
  /** the help beneath the field, read out with it */
  children: JSX.Element;
}

/** A labelled text field with a line of help beneath it that a screen reader reads with the field. */
export function TextField(props: Props) {
  const helpId = () => `${props.id}-help`;
  const input = (e: { currentTarget: { value: string } }) => props.onValue(e.currentTarget.value);
  return (
    <div class="field">
      <label for={props.id}>{props.label}</label>
      <Show
        when={props.rows}
        fallback={<input id={props.id} type="text" value={props.value} onInput={input} aria-describedby={helpId()} />}
      >
        {(rows) => (
          <textarea id={props.id} rows={rows()} value={props.value} onInput={input} aria-describedby={helpId()} />
        )}
      </Show>
      <p id={helpId()} class="muted small">
        {props.children}
      </p>
    </div>
  );
}
