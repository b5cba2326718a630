import { createResource, For, Show } from "solid-js";
import { api, call } from "../lib/api";

export type ExampleQuestion = Awaited<ReturnType<typeof loadExamples>>[number];

async function loadExamples() {
  return (await call(api.examples.$get())).examples;
}

/** Fetched once per page load: the list only changes with the server's code. */
let examples: ReturnType<typeof loadExamples> | undefined;

/**
 * "Try an example": buttons that put one of the demo's example questions in the prompt box. The demo models have
 * prepared answers for exactly these, so a first run without keys reads like a real one. Nothing shows when the
 * list can't be loaded: the box works without it.
 */
export function ExampleChips(props: { onPick: (question: string) => void }) {
  const [list] = createResource(async () => {
    examples ??= loadExamples();
    return examples.catch(() => []);
  });
  return (
    <Show when={list()?.length}>
      <div class="examples" role="group" aria-labelledby="examples-title">
        <span id="examples-title" class="muted small">
          Try an example:
        </span>
        <For each={list()}>
          {(example) => (
            <button
              type="button"
              class="small chip"
              title={example.question}
              data-example={example.id}
              onClick={() => props.onPick(example.question)}
            >
              {example.title}
            </button>
          )}
        </For>
      </div>
    </Show>
  );
}
