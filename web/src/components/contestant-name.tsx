import { For, Show } from "solid-js";
import type { ContestantNames } from "../../../worker/shared/contestant-name";

/**
 * A contestant as every list names it: its shown name, and a preset's model beside it, as the leaderboard shows
 * them. `names` is the response's own (`names`, keyed by id); an id it lacks is shown as it is.
 */
export function ContestantName(props: { id: string; names: ContestantNames }) {
  const name = () => props.names[props.id];
  return (
    <span data-contestant={props.id}>
      {name()?.displayName ?? props.id}
      <Show when={name()?.modelId}>
        {(model) => (
          <>
            {" "}
            <span class="muted small">on {model()}</span>
          </>
        )}
      </Show>
    </span>
  );
}

/** Contestants in a row, comma-separated, each named as above. */
export function ContestantList(props: { ids: readonly string[]; names: ContestantNames }) {
  return (
    <For each={props.ids}>
      {(id, i) => (
        <>
          {i() > 0 ? ", " : ""}
          <ContestantName id={id} names={props.names} />
        </>
      )}
    </For>
  );
}
