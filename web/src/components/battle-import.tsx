import { createSignal, For, Show } from "solid-js";
import { api, call, messageOf } from "../lib/api";
import { Alert } from "./alert";
import { DownloadLink } from "./download-link";

export type ImportReport = Awaited<ReturnType<typeof upload>>;
type Report = ImportReport;

/** The same file always gets the same import id, so uploading it twice writes its battles once. */
async function importIdOf(file: File): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", await file.arrayBuffer());
  return `file-${[...new Uint8Array(digest).slice(0, 16)].map((b) => b.toString(16).padStart(2, "0")).join("")}`;
}

async function upload(file: File) {
  const type = /\.csv$/i.test(file.name)
    ? "text/csv"
    : /\.(jsonl|ndjson)$/i.test(file.name)
      ? "application/x-ndjson"
      : "application/json";
  return call(
    api.battles.import.$post(
      { query: { importId: await importIdOf(file) } },
      { init: { body: file }, headers: { "Content-Type": type } },
    ),
  );
}

interface Props {
  exportHref: string;
  exportLabel: string;
  /** after an import: the page shows where the battles went, and returns a sentence saying so (or null) */
  onImported: (report: Report) => string | null;
}

/**
 * Upload a Chatbot Arena battle log (clean format, or lmarena's Kaggle CSV), and download this server's battles in
 * the clean format.
 */
export function BattleImport(props: Props) {
  const [file, setFile] = createSignal<File | null>(null);
  const [busy, setBusy] = createSignal(false);
  const [report, setReport] = createSignal<Report | null>(null);
  const [where, setWhere] = createSignal<string | null>(null);
  const [error, setError] = createSignal<string | null>(null);

  const send = async (e: Event) => {
    e.preventDefault();
    const f = file();
    setReport(null);
    setWhere(null);
    setError(null);
    if (!f) return setError("Choose a battle log file first.");
    setBusy(true);
    try {
      const done = await upload(f);
      setReport(done);
      setWhere(props.onImported(done));
    } catch (err) {
      setError(messageOf(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section class="card battle-io" aria-labelledby="battle-io-title">
      <h2 id="battle-io-title">Import and export battles</h2>
      <p class="muted small">
        Chatbot Arena's clean battle format (FastChat): a JSON array or JSON Lines of <code>model_a</code>,{" "}
        <code>model_b</code>, <code>winner</code>, <code>tstamp</code>, or lmarena's Kaggle CSV (
        <code>lmsys-arena-human-preference-55k</code>). Imported battles show under "Imported". A big log goes in from a
        terminal instead: <code>npm run import -- FILE</code>.
      </p>
      <form class="row" onSubmit={send}>
        <label for="battle-file">Battle log file</label>
        <input
          id="battle-file"
          type="file"
          accept=".json,.jsonl,.ndjson,.csv,application/json,text/csv"
          onChange={(e) => setFile(e.currentTarget.files?.[0] ?? null)}
        />
        <button type="submit" disabled={busy()}>
          {busy() ? "Importing…" : "Import"}
        </button>
      </form>
      <div role="status" data-testid="import-report">
        <Show when={report()}>
          {(r) => (
            <>
              <p>
                Accepted {r().accepted} {r().accepted === 1 ? "battle" : "battles"}
                {r().alreadyImported ? ` (${r().alreadyImported} already imported from this file before)` : ""}
                {"; "}rejected {r().rejected}.
              </p>
              <Show when={r().errors.length}>
                <ul class="small import-errors">
                  <For each={r().errors.slice(0, 5)}>
                    {(err) => (
                      <li>
                        Line {err.line}: {err.message}
                      </li>
                    )}
                  </For>
                </ul>
                <Show when={r().rejected > 5}>
                  <p class="muted small">…and {r().rejected - 5} more rejected lines.</p>
                </Show>
              </Show>
            </>
          )}
        </Show>
      </div>
      <p role="status" data-testid="import-where">
        <Show when={where()}>
          {where()} <a href="#leaderboard-title">See the leaderboard</a>
        </Show>
      </p>
      <Alert message={error()} />
      <p>
        <DownloadLink class="button" href={props.exportHref}>
          {props.exportLabel}
        </DownloadLink>
      </p>
    </section>
  );
}
