import { createSignal, Show } from "solid-js";

/**
 * Delete, then "Delete for good? Yes, delete / Keep": the second step takes the focus on Keep, so Enter twice
 * never deletes by accident.
 */
export function ConfirmDelete(props: { onDelete: () => Promise<unknown> }) {
  const [confirming, setConfirming] = createSignal(false);
  return (
    <Show
      when={confirming()}
      fallback={
        <button type="button" class="small danger" onClick={() => setConfirming(true)}>
          Delete
        </button>
      }
    >
      <span class="confirm">
        Delete for good?{" "}
        <button
          type="button"
          class="small danger"
          onClick={() => void props.onDelete().finally(() => setConfirming(false))}
        >
          Yes, delete
        </button>{" "}
        <button
          type="button"
          class="small"
          ref={(el) => queueMicrotask(() => el.focus())}
          onClick={() => setConfirming(false)}
        >
          Keep
        </button>
      </span>
    </Show>
  );
}
