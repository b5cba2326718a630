import { Show } from "solid-js";

/** An error the person should read now. */
export const Alert = (props: { message: string | null }) => (
  <Show when={props.message}>
    <p class="callout error" role="alert">
      {props.message}
    </p>
  </Show>
);
