import { createSignal, For, onMount, Show } from "solid-js";
import { api, call, messageOf, type PromptSetItem, type PromptSetSummary } from "../lib/api";
import { editableAsLines, type LineError, lineErrorsOf, promptsOfLines } from "../lib/prompt-lines";
import { replaceSetItems } from "../lib/prompt-set-files";
import { Alert } from "./alert";
import { LineErrors } from "./prompt-set-new";

const PAGE = 200;

type Edited = PromptSetSummary & { edit: "replaced" | "new_version" };

/** Every item of a set, a page at a time (an edit needs them all). */
async function allItems(id: string): Promise<PromptSetItem[]> {
  const items: PromptSetItem[] = [];
  let cursor: string | null = null;
  do {
    const page: { items: PromptSetItem[]; nextCursor: string | null } = await call(
      api["prompt-sets"][":id"].$get({ param: { id }, query: { limit: "1000", ...(cursor ? { cursor } : {}) } }),
    );
    items.push(...page.items);
    cursor = page.nextCursor;
  } while (cursor);
  return items;
}

/** One item: its prompt, and what else it carries. */
function Item(props: { item: PromptSetItem }) {
  return (
    <li class="prompt-set-item">
      <p class="prompt-set-prompt">{props.item.prompt}</p>
      <p class="muted small">
        <code>{props.item.id}</code>
        <Show when={props.item.category}> · {props.item.category}</Show>
        <Show when={props.item.turns}>{(t) => <> · after {t().length} earlier turns</>}</Show>
        <Show when={props.item.reference}> · has a reference answer</Show>
        <Show when={props.item.goal}>{(g) => <> · goal: {g()}</>}</Show>
        <Show when={props.item.persona}>{(p) => <> · user: {p()}</>}</Show>
        <Show when={props.item.marker}>{(m) => <> · marker {m()}</>}</Show>
      </p>
    </li>
  );
}

/**
 * A set's items (a page at a time), and its edit: as lines, one prompt each, when the set is only prompts; a used
 * set's edit is saved as its next version.
 */
export function PromptSetView(props: {
  set: PromptSetSummary;
  editing: boolean;
  onEdited: (set: Edited) => void;
  onClose: () => void;
}) {
  const [items, setItems] = createSignal<PromptSetItem[]>([]);
  const [cursor, setCursor] = createSignal<string | null>(null);
  const [loading, setLoading] = createSignal(true);
  const [error, setError] = createSignal<string | null>(null);
  const [draft, setDraft] = createSignal<{ name: string; lines: string } | null>(null);
  const [saving, setSaving] = createSignal(false);
  const [file, setFile] = createSignal<File | null>(null);
  const [lineErrors, setLineErrors] = createSignal<LineError[]>([]);
  let heading!: HTMLHeadingElement;

  const load = async (after?: string) => {
    setLoading(true);
    setError(null);
    try {
      const page = await call(
        api["prompt-sets"][":id"].$get({
          param: { id: props.set.id },
          query: { limit: String(PAGE), ...(after ? { cursor: after } : {}) },
        }),
      );
      setItems((shown) => (after ? [...shown, ...page.items] : page.items));
      setCursor(page.nextCursor);
    } catch (err) {
      setError(messageOf(err));
    } finally {
      setLoading(false);
    }
  };

  const startEdit = async () => {
    setError(null);
    try {
      const all = await allItems(props.set.id);
      setDraft(editableAsLines(all) ? { name: props.set.name, lines: all.map((i) => i.prompt).join("\n") } : null);
      if (!editableAsLines(all))
        setError(
          "This set has its own ids, categories, reference answers, multi-turn items, goals or prompts with line breaks, which lines can't hold: export it, change the file, and replace its items with it below.",
        );
    } catch (err) {
      setError(messageOf(err));
    }
  };

  const save = async (e: Event) => {
    e.preventDefault();
    const d = draft();
    if (!d) return;
    const prompts = promptsOfLines(d.lines);
    if (!prompts.length) return setError("Keep at least one prompt.");
    setSaving(true);
    setError(null);
    try {
      const res = await call(
        api["prompt-sets"][":id"].$put({
          param: { id: props.set.id },
          json: { name: d.name.trim() || props.set.name, items: prompts.map((prompt) => ({ prompt })) },
        }),
      );
      setDraft(null);
      props.onEdited(res);
    } catch (err) {
      setError(messageOf(err));
    } finally {
      setSaving(false);
    }
  };

  const replace = async (e: Event) => {
    e.preventDefault();
    const f = file();
    if (!f) return setError("Choose a .jsonl or .csv file first.");
    setSaving(true);
    setError(null);
    setLineErrors([]);
    try {
      props.onEdited(await replaceSetItems(props.set.id, f));
    } catch (err) {
      setLineErrors(lineErrorsOf(err));
      setError(lineErrorsOf(err).length ? "Nothing was changed. Fix these lines and try again:" : messageOf(err));
    } finally {
      setSaving(false);
    }
  };

  onMount(() => {
    heading.focus();
    void load();
    if (props.editing) void startEdit();
  });

  return (
    <section class="card prompt-set-view" aria-labelledby="prompt-set-view-title" data-testid="prompt-set-view">
      <div class="row spread">
        <h2 id="prompt-set-view-title" ref={heading} tabindex="-1">
          {props.set.name} <span class="muted">v{props.set.version}</span>
        </h2>
        <button type="button" class="small" onClick={() => props.onClose()}>
          Close
        </button>
      </div>
      <Alert message={error()} />
      <Show when={draft()}>
        {(d) => (
          <form onSubmit={save} aria-label={`Edit ${props.set.name}`}>
            <Show when={props.set.usedAt !== null}>
              <p class="callout small">
                An evaluation used this set, so it stays as it is: saving makes version {props.set.version + 1}.
              </p>
            </Show>
            <div class="field">
              <label for="prompt-set-edit-name">Name</label>
              <input
                id="prompt-set-edit-name"
                type="text"
                maxLength={200}
                value={d().name}
                onInput={(e) => setDraft({ ...d(), name: e.currentTarget.value })}
              />
            </div>
            <div class="field">
              <label for="prompt-set-edit-lines">Prompts, one per line</label>
              <textarea
                id="prompt-set-edit-lines"
                rows={10}
                value={d().lines}
                onInput={(e) => setDraft({ ...d(), lines: e.currentTarget.value })}
              />
            </div>
            <div class="row">
              <button type="submit" disabled={saving()}>
                {saving() ? "Saving…" : "Save"}
              </button>
              <button type="button" onClick={() => setDraft(null)}>
                Cancel
              </button>
            </div>
          </form>
        )}
      </Show>
      <Show when={!draft()}>
        <button type="button" class="small" onClick={() => void startEdit()}>
          Edit
        </button>
      </Show>
      <form class="row" onSubmit={replace} aria-label={`Replace the items of ${props.set.name} with a file`}>
        <label for="prompt-set-replace-file">Replace its items with a file</label>
        <input
          id="prompt-set-replace-file"
          type="file"
          accept=".jsonl,.ndjson,.csv,text/csv,application/x-ndjson"
          onChange={(e) => setFile(e.currentTarget.files?.[0] ?? null)}
        />
        <button type="submit" class="small" disabled={saving()}>
          Replace
        </button>
      </form>
      <LineErrors id="prompt-set-replace-errors" errors={lineErrors()} />
      <ol class="prompt-set-items" aria-label={`Items of ${props.set.name}`}>
        <For each={items()}>{(item) => <Item item={item} />}</For>
      </ol>
      <Show when={loading()}>
        <p class="muted" role="status">
          Loading items…
        </p>
      </Show>
      <Show when={!loading() && cursor()}>
        <button type="button" onClick={() => void load(cursor()!)}>
          Show more ({(props.set.items - items().length).toLocaleString("en")} left)
        </button>
      </Show>
    </section>
  );
}
