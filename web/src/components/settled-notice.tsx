import { Show } from "solid-js";
import type { Standings } from "../lib/api";

/**
 * Says when the ranking in focus (QUORUM_ARENA_FOCUS) won't change with 95% confidence: the whole order, or the
 * first N, each model alone at its place with an interval that overlaps no other where it matters.
 */
export function SettledNotice(props: { standings: Standings }) {
  const name = (id: string) => props.standings.rows.find((r) => r.modelId === id)?.displayName ?? id;
  return (
    <Show when={props.standings.settled}>
      {(settled) => (
        <p class="callout settled" role="status" data-testid="settled">
          <strong>Settled:</strong>{" "}
          {settled().focus === "all"
            ? "the whole order"
            : `the top ${settled().models.length} (${settled().models.map(name).join(", ")})`}{" "}
          won't change with {Math.round(settled().confidence * 100)}% confidence: no interval there overlaps another, so
          more votes would sharpen the ratings, not reorder them.
        </p>
      )}
    </Show>
  );
}
