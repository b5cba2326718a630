import { Show } from "solid-js";
import { describeRedactions, type Redactions } from "../../../worker/shared/redact";

/** Redact mode's one line: what was masked before the text was stored or sent, counted, never shown. */
export function RedactionNote(props: { redactions: Redactions | undefined }) {
  return (
    <Show when={describeRedactions(props.redactions)}>
      {(text) => (
        <p class="callout info small" data-testid="redaction-note">
          {text()}.
        </p>
      )}
    </Show>
  );
}
