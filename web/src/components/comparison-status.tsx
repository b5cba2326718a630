import { Show } from "solid-js";
import type { ComparisonDetail } from "../../../worker/shared/arena";
import type { LiveStatus } from "../lib/live";
import { ConnectionStatus } from "./connection-status";

const STATUS_TEXT: Record<ComparisonDetail["comparison"]["status"], string> = {
  pending: "Starting",
  answering: "Answering",
  ready: "Ready for your vote",
  voted: "Voted",
  failed: "A side failed",
};

/**
 * Where a comparison stands: its status, the turn, blind or not, the category when given, and the live
 * connection. In a read-only view a ready comparison waits for someone else's vote.
 */
export function ComparisonStatus(props: {
  detail: ComparisonDetail;
  connection: LiveStatus;
  category?: string | null;
  readOnly?: boolean;
}) {
  const c = () => props.detail.comparison;
  return (
    <p class="muted small">
      <span class={`badge status-${c().status}`} data-testid="comparison-status" role="status">
        <span class="sr-only">Comparison status: </span>
        {props.readOnly && c().status === "ready" ? "Waiting for a vote" : STATUS_TEXT[c().status]}
      </span>{" "}
      · Turn {props.detail.turns.length} of {c().maxTurns} · {c().blind ? "blind" : "names shown"}
      <Show when={props.category}> · {props.category}</Show> · <ConnectionStatus connection={props.connection} />
    </p>
  );
}
