import { createSignal, Show } from "solid-js";
import { api, call, messageOf } from "../lib/api";
import { promptCount } from "../lib/prompt-lines";
import { Link } from "../lib/router";
import { Alert } from "./alert";

interface Picked {
  runs: string[];
  comparisons: string[];
}

/** "Save these prompts": the picked runs' questions and comparisons' prompts become a new prompt set. */
export function HistorySave(props: { picked: Picked; shown: number; onPickAll: () => void; onClear: () => void }) {
  const [name, setName] = createSignal("");
  const [busy, setBusy] = createSignal(false);
  const [error, setError] = createSignal<string | null>(null);
  const [saved, setSaved] = createSignal<string | null>(null);
  const count = () => props.picked.runs.length + props.picked.comparisons.length;

  const save = async (e: Event) => {
    e.preventDefault();
    setError(null);
    setSaved(null);
    if (!count()) return setError("Pick at least one run or comparison first.");
    if (!name().trim()) return setError("Give the prompt set a name.");
    setBusy(true);
    try {
      const set = await call(
        api["prompt-sets"]["from-history"].$post({ json: { name: name().trim(), ...props.picked } }),
      );
      const repeats = set.duplicates
        ? ` (${set.duplicates} repeated ${set.duplicates === 1 ? "prompt" : "prompts"} left out)`
        : "";
      setSaved(`Saved "${set.name}" with ${promptCount(set.items)}${repeats}.`);
      setName("");
      props.onClear();
    } catch (err) {
      setError(messageOf(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form class="card history-save" onSubmit={save} aria-labelledby="history-save-title">
      <h2 id="history-save-title">Save these prompts as a prompt set</h2>
      <div class="row">
        <button type="button" class="small" onClick={() => props.onPickAll()} disabled={!props.shown}>
          Pick all shown ({props.shown})
        </button>
        <button type="button" class="small" onClick={() => props.onClear()} disabled={!count()}>
          Clear
        </button>
        <label for="history-save-name">Name</label>
        <input
          id="history-save-name"
          type="text"
          maxLength={200}
          value={name()}
          onInput={(e) => setName(e.currentTarget.value)}
        />
        <button type="submit" disabled={busy() || !count()}>
          {busy() ? "Saving…" : `Save ${promptCount(count())}`}
        </button>
      </div>
      <Alert message={error()} />
      <p role="status" data-testid="history-save-status">
        <Show when={saved()}>
          {saved()} <Link href="/prompt-sets">See prompt sets</Link>
        </Show>
      </p>
    </form>
  );
}
