import { LIVE_STATUS_TEXT, type LiveStatus } from "../lib/live";

/** The live connection's state, announced to screen readers as it changes. */
export function ConnectionStatus(props: { connection: LiveStatus }) {
  return (
    <span role="status">
      <span class="sr-only">Connection: </span>
      {LIVE_STATUS_TEXT[props.connection]}
    </span>
  );
}
