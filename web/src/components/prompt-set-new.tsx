import { createSignal, For, Show } from "solid-js";
import { api, call, messageOf, type PromptSetSummary } from "../lib/api";
import { type LineError, lineErrorsOf, promptCount, promptsOfLines } from "../lib/prompt-lines";
import { uploadSet } from "../lib/prompt-set-files";
import { MAX_PROMPT_SET_ITEMS, MAX_PROMPT_SET_UPLOAD_BYTES } from "../../../worker/shared/constants";
import { Alert } from "./alert";

/** JSON bodies are capped at 1 MiB: a paste bigger than this goes as an upload of JSON Lines instead. */
const JSON_BODY_ROOM = 900_000;

async function createFromLines(name: string, prompts: string[]): Promise<PromptSetSummary> {
  const items = prompts.map((prompt) => ({ prompt }));
  if (JSON.stringify(items).length < JSON_BODY_ROOM) return call(api["prompt-sets"].$post({ json: { name, items } }));
  const body = items.map((item) => JSON.stringify(item)).join("\n");
  return call(
    api["prompt-sets"].upload.$post(
      { query: { name, format: "jsonl" } },
      { init: { body }, headers: { "Content-Type": "application/x-ndjson" } },
    ),
  );
}

/** The lines a refused upload names, under the refusal. */
export function LineErrors(props: { errors: LineError[]; id: string }) {
  return (
    <Show when={props.errors.length}>
      <ul class="small import-errors" id={props.id} data-testid="prompt-set-line-errors">
        <For each={props.errors}>
          {(e) => (
            <li>
              Line {e.line}: {e.message}
            </li>
          )}
        </For>
      </ul>
    </Show>
  );
}

/** A new prompt set: pasted lines, one prompt each, or an uploaded JSON Lines or CSV file. */
export function PromptSetNew(props: { onCreated: (set: PromptSetSummary) => void }) {
  const [name, setName] = createSignal("");
  const [lines, setLines] = createSignal("");
  const [fileName, setFileName] = createSignal("");
  const [file, setFile] = createSignal<File | null>(null);
  const [busy, setBusy] = createSignal<"paste" | "upload" | null>(null);
  const [error, setError] = createSignal<{ form: "paste" | "upload"; message: string; lines: LineError[] } | null>(
    null,
  );
  const prompts = () => promptsOfLines(lines());

  /** Creates the set; on success clears the form it came from. */
  const run = async (form: "paste" | "upload", element: HTMLFormElement, create: () => Promise<PromptSetSummary>) => {
    setError(null);
    setBusy(form);
    try {
      props.onCreated(await create());
      if (form === "paste") {
        setName("");
        setLines("");
      } else {
        setFileName("");
        setFile(null);
        element.reset();
      }
    } catch (err) {
      const found = lineErrorsOf(err);
      setError({
        form,
        message: found.length ? "Nothing was stored. Fix these lines and try again:" : messageOf(err),
        lines: found,
      });
    } finally {
      setBusy(null);
    }
  };

  const paste = (e: Event) => {
    e.preventDefault();
    if (!name().trim()) return setError({ form: "paste", message: "Give the set a name.", lines: [] });
    if (!prompts().length) return setError({ form: "paste", message: "Paste at least one prompt.", lines: [] });
    void run("paste", e.currentTarget as HTMLFormElement, () => createFromLines(name().trim(), prompts()));
  };

  const upload = (e: Event) => {
    e.preventDefault();
    const f = file();
    if (!f) return setError({ form: "upload", message: "Choose a .jsonl or .csv file first.", lines: [] });
    const named = fileName().trim() || f.name.replace(/\.[^.]+$/, "");
    void run("upload", e.currentTarget as HTMLFormElement, () => uploadSet(named, f));
  };

  const errorOf = (form: "paste" | "upload") => (error()?.form === form ? error() : null);

  return (
    <section class="card prompt-set-new" aria-labelledby="prompt-set-new-title">
      <h2 id="prompt-set-new-title">New prompt set</h2>
      <form onSubmit={paste} aria-labelledby="prompt-set-paste-title">
        <h3 id="prompt-set-paste-title">Paste prompts</h3>
        <div class="field">
          <label for="prompt-set-name">Name</label>
          <input
            id="prompt-set-name"
            type="text"
            maxLength={200}
            value={name()}
            onInput={(e) => setName(e.currentTarget.value)}
          />
        </div>
        <div class="field">
          <label for="prompt-set-lines">Prompts, one per line</label>
          <textarea
            id="prompt-set-lines"
            rows={8}
            value={lines()}
            aria-describedby="prompt-set-lines-count"
            onInput={(e) => setLines(e.currentTarget.value)}
          />
          <p id="prompt-set-lines-count" class="muted small">
            {promptCount(prompts().length)} (blank lines are left out; at most{" "}
            {MAX_PROMPT_SET_ITEMS.toLocaleString("en")})
          </p>
        </div>
        <button type="submit" disabled={busy() !== null}>
          {busy() === "paste" ? "Creating…" : "Create set"}
        </button>
        <Alert message={errorOf("paste")?.message ?? null} />
        <LineErrors id="prompt-set-paste-errors" errors={errorOf("paste")?.lines ?? []} />
      </form>
      <form onSubmit={upload} aria-labelledby="prompt-set-upload-title">
        <h3 id="prompt-set-upload-title">Upload a file</h3>
        <p class="muted small">
          JSON Lines (<code>{'{"prompt": "…"}'}</code> a line) or CSV with a <code>prompt</code> column; optionally{" "}
          <code>id</code>, <code>category</code>, <code>reference</code> (an answer judges compare with),{" "}
          <code>turns</code> (earlier turns, as a JSON array), and for goal battles <code>goal</code>,{" "}
          <code>persona</code> (who the simulated user plays) and <code>marker</code>. Up to{" "}
          {MAX_PROMPT_SET_UPLOAD_BYTES / 1024 / 1024} MiB.
        </p>
        <div class="field">
          <label for="prompt-set-upload-name">Name (the file's name when left empty)</label>
          <input
            id="prompt-set-upload-name"
            type="text"
            maxLength={200}
            value={fileName()}
            onInput={(e) => setFileName(e.currentTarget.value)}
          />
        </div>
        <div class="row">
          <label for="prompt-set-file">File</label>
          <input
            id="prompt-set-file"
            type="file"
            accept=".jsonl,.ndjson,.csv,text/csv,application/x-ndjson"
            onChange={(e) => setFile(e.currentTarget.files?.[0] ?? null)}
          />
          <button type="submit" disabled={busy() !== null}>
            {busy() === "upload" ? "Uploading…" : "Upload"}
          </button>
        </div>
        <Alert message={errorOf("upload")?.message ?? null} />
        <LineErrors id="prompt-set-upload-errors" errors={errorOf("upload")?.lines ?? []} />
      </form>
    </section>
  );
}
