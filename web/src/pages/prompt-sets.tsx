import { createSignal, For, onMount, Show } from "solid-js";
import { Alert } from "../components/alert";
import { DownloadLink } from "../components/download-link";
import { PromptSetNew } from "../components/prompt-set-new";
import { PromptSetView } from "../components/prompt-set-view";
import { api, call, messageOf, type PromptSetSummary } from "../lib/api";
import { formatTime } from "../lib/format";
import { promptCount } from "../lib/prompt-lines";
import { Link } from "../lib/router";
import type { PromptSetFormat } from "../../../worker/shared/constants";
import { TableFrame } from "../components/table-frame";
import { ConfirmDelete } from "../components/confirm-delete";

const PAGE_SIZE = 50;

const exportHref = (id: string, format: PromptSetFormat) =>
  api["prompt-sets"][":id"].export.$url({ param: { id }, query: { format } }).toString();

/** One set's row: what it is, and what can be done with it. */
function SetRow(props: { set: PromptSetSummary; onView: (edit: boolean) => void; onDelete: () => Promise<void> }) {
  const s = () => props.set;
  return (
    <tr data-set-id={s().id} data-name={s().name}>
      <th scope="row">{s().name}</th>
      <td class="num">v{s().version}</td>
      <td class="num" data-testid="prompt-set-items">
        {s().items.toLocaleString("en")}
      </td>
      <td>
        <time datetime={new Date(s().createdAt).toISOString()}>{formatTime(s().createdAt)}</time>
      </td>
      <td>{s().usedAt === null ? "Not yet" : formatTime(s().usedAt!)}</td>
      <td>
        <div class="history-actions" role="group" aria-label={`Actions for ${s().name}`}>
          <button type="button" class="small" onClick={() => props.onView(false)}>
            View
          </button>
          <button type="button" class="small" onClick={() => props.onView(true)}>
            Edit
          </button>
          <DownloadLink class="button small" href={exportHref(s().id, "jsonl")}>
            JSONL
          </DownloadLink>
          <DownloadLink class="button small" href={exportHref(s().id, "csv")}>
            CSV
          </DownloadLink>
          <Show when={s().usedAt === null} fallback={<span class="muted small">kept: an evaluation used it</span>}>
            <ConfirmDelete onDelete={() => props.onDelete()} />
          </Show>
        </div>
      </td>
    </tr>
  );
}

/** Prompt sets: the prompts evaluations run over. Create (paste or upload), view, edit, export, delete. */
export default function PromptSetsPage() {
  const [sets, setSets] = createSignal<PromptSetSummary[]>([]);
  const [cursor, setCursor] = createSignal<string | null>(null);
  const [loaded, setLoaded] = createSignal(false);
  const [error, setError] = createSignal<string | null>(null);
  const [status, setStatus] = createSignal("");
  const [open, setOpen] = createSignal<{ set: PromptSetSummary; edit: boolean } | null>(null);
  let heading!: HTMLHeadingElement;

  const load = async (after?: string) => {
    setError(null);
    try {
      const page = await call(
        api["prompt-sets"].$get({ query: { limit: String(PAGE_SIZE), ...(after ? { cursor: after } : {}) } }),
      );
      setSets((shown) => (after ? [...shown, ...page.items] : page.items));
      setCursor(page.nextCursor);
    } catch (err) {
      setError(messageOf(err));
    } finally {
      setLoaded(true);
    }
  };

  const created = (set: PromptSetSummary) => {
    setSets((shown) => [set, ...shown]);
    setStatus(`Created "${set.name}" with ${promptCount(set.items)}.`);
  };

  const remove = async (set: PromptSetSummary) => {
    setError(null);
    try {
      await call(api["prompt-sets"][":id"].$delete({ param: { id: set.id } }));
      setSets((shown) => shown.filter((s) => s.id !== set.id));
      if (open()?.set.id === set.id) setOpen(null);
      setStatus(`Deleted "${set.name}".`);
      heading.focus();
    } catch (err) {
      setError(messageOf(err));
    }
  };

  const edited = (set: PromptSetSummary & { edit: "replaced" | "new_version" }) => {
    const { edit, ...summary } = set;
    if (edit === "replaced") setSets((shown) => shown.map((s) => (s.id === summary.id ? summary : s)));
    else setSets((shown) => [summary, ...shown]);
    setOpen({ set: summary, edit: false });
    setStatus(
      edit === "replaced"
        ? `Saved "${summary.name}": ${promptCount(summary.items)}.`
        : `An evaluation used the set, so your edit is saved as version ${summary.version}, a new set.`,
    );
  };

  onMount(() => {
    document.title = "Prompt sets · Quorum";
    void load();
  });

  return (
    <section class="page" aria-labelledby="prompt-sets-title">
      <h1 id="prompt-sets-title" ref={heading} tabindex="-1">
        Prompt sets
      </h1>
      <p class="muted">
        The prompts an evaluation runs over: paste them, upload a file, or pick them in{" "}
        <Link href="/history">History</Link>. A set an evaluation used never changes: editing it makes a new version.
      </p>
      <p role="status" data-testid="prompt-sets-status">
        {status()}
      </p>
      <Alert message={error()} />
      <PromptSetNew onCreated={created} />
      {/* Keyed: opening another set, or the same one again after an edit, starts its view afresh. */}
      <Show when={open()} keyed>
        {(o) => (
          <PromptSetView
            set={o.set}
            editing={o.edit}
            onEdited={edited}
            onClose={() => {
              setOpen(null);
              heading.focus();
            }}
          />
        )}
      </Show>
      <section aria-labelledby="prompt-sets-list-title">
        <h2 id="prompt-sets-list-title">Your prompt sets</h2>
        <Show when={loaded()} fallback={<p class="muted">Loading prompt sets…</p>}>
          <Show when={sets().length} fallback={<p>No prompt sets yet: paste a few prompts above.</p>}>
            <TableFrame labelledBy="prompt-sets-list-title">
              <table class="prompt-sets-table" aria-labelledby="prompt-sets-list-title" data-testid="prompt-sets">
                <thead>
                  <tr>
                    <th scope="col">Name</th>
                    <th scope="col" class="num">
                      Version
                    </th>
                    <th scope="col" class="num">
                      Items
                    </th>
                    <th scope="col">Created</th>
                    <th scope="col">Used</th>
                    <th scope="col">Actions</th>
                  </tr>
                </thead>
                <tbody>
                  <For each={sets()}>
                    {(set) => (
                      <SetRow set={set} onView={(edit) => setOpen({ set, edit })} onDelete={() => remove(set)} />
                    )}
                  </For>
                </tbody>
              </table>
            </TableFrame>
          </Show>
          <Show when={cursor()}>
            <button type="button" onClick={() => void load(cursor()!)}>
              Show older
            </button>
          </Show>
        </Show>
      </section>
    </section>
  );
}
