import { Show } from "solid-js";
import type { Standings } from "../lib/api";

/**
 * Says when the view leaves the offline demo's models out (a real provider is configured and they would mix with
 * real models), with a button to show them; and, once shown on request, a button to leave them out again.
 */
export function DemoNote(props: { demo: Standings["demo"]; onInclude: (include: boolean) => void }) {
  const n = () => props.demo.excludedModels;
  return (
    <>
      <Show when={n() > 0}>
        <p class="muted small" data-testid="demo-left-out">
          {n()} demo {n() === 1 ? "model is" : "models are"} left out: a real provider is configured, so the offline
          demo's models don't mix with real ones here.{" "}
          <button type="button" class="link-button" onClick={() => props.onInclude(true)}>
            Show demo models
          </button>
        </p>
      </Show>
      <Show when={props.demo.asked === "include"}>
        <p class="muted small" data-testid="demo-included">
          Demo models are shown, as asked.{" "}
          <button type="button" class="link-button" onClick={() => props.onInclude(false)}>
            Leave them out of mixed views
          </button>
        </p>
      </Show>
    </>
  );
}
