import { type JSX, Show } from "solid-js";
import { Alert } from "./alert";

interface Props {
  /** why the document can't be shown; null while it is still loading */
  error: string | null;
  /** what is said while it loads, e.g. "Loading the run…" */
  loading: string;
  /** shown above the error, e.g. the page's heading */
  heading?: JSX.Element;
  /** shown under the error: what to do instead */
  children?: JSX.Element;
}

/** A page's place-holder before its document arrives: a loading line, or, when it can't come, the error. */
export function LoadingOrError(props: Props) {
  return (
    <Show
      when={props.error}
      fallback={
        <p class="muted" role="status">
          {props.loading}
        </p>
      }
    >
      {props.heading}
      <Alert message={props.error} />
      {props.children}
    </Show>
  );
}
