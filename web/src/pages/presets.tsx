import { createResource, createSignal, For, onMount, Show } from "solid-js";
import { Alert } from "../components/alert";
import { emptyDraft, type PresetDraft, PresetForm, presetFields } from "../components/preset-form";
import { ApiError, api, call, type PresetView } from "../lib/api";
import { formatTime } from "../lib/format";
import { createModelOptions } from "../lib/model-options";
import { presetName } from "../lib/presets";

const asField = (n: number | null) => (n === null ? "" : String(n));
const draftOf = (p: PresetView): PresetDraft => ({
  name: p.name,
  modelId: p.modelId,
  systemPrompt: p.systemPrompt ?? "",
  temperature: asField(p.temperature),
  maxTokens: asField(p.maxTokens),
});
const messageOf = (err: unknown) => (err instanceof Error ? err.message : String(err));

/** Presets: a model with its own system prompt and parameters, saved under a name and used wherever a model is. */
export default function PresetsPage() {
  onMount(() => (document.title = "Presets · Quorum"));
  const options = createModelOptions(() => true);
  const [list, { refetch }] = createResource(async () => {
    try {
      return { presets: (await call(api.presets.$get())).presets, error: null };
    } catch (err) {
      return { presets: [], error: err instanceof ApiError ? err.message : "The presets could not be loaded." };
    }
  });
  const [editing, setEditing] = createSignal<string | null>(null);
  const [deleting, setDeleting] = createSignal<string | null>(null);
  const [notice, setNotice] = createSignal("");
  const [formKey, setFormKey] = createSignal(0);

  const create = async (draft: PresetDraft) => {
    const { systemPrompt, temperature, maxTokens, ...rest } = presetFields(draft);
    const made = await call(
      api.presets.$post({
        json: {
          ...rest,
          ...(systemPrompt !== null ? { systemPrompt } : {}),
          ...(temperature !== null ? { temperature } : {}),
          ...(maxTokens !== null ? { maxTokens } : {}),
        },
      }),
    );
    await refetch();
    setFormKey((k) => k + 1);
    setNotice(`Saved ${presetName(made)} as ${made.id}.`);
    return `Saved as ${made.id}.`;
  };

  const edit = async (p: PresetView, draft: PresetDraft) => {
    const saved = await call(api.presets[":slug"].$patch({ param: { slug: p.slug }, json: presetFields(draft) }));
    await refetch();
    setEditing(null);
    const text =
      saved.saved === "new_version"
        ? `Saved as version ${saved.version} (${saved.id}): version ${p.version} was used, so it stays as it was.`
        : `Updated version ${saved.version} in place: nothing had used it yet.`;
    setNotice(text);
    return text;
  };

  const remove = async (p: PresetView) => {
    try {
      await call(api.presets[":slug"].$delete({ param: { slug: p.slug } }));
      setNotice(`Deleted ${p.name}. Results that used it keep its name.`);
      setDeleting(null);
      await refetch();
    } catch (err) {
      setNotice(`Couldn't delete ${p.name}: ${messageOf(err)}`);
    }
  };

  return (
    <section class="page presets-page">
      <h1>Presets</h1>
      <p class="muted">
        A preset is a model with its own system prompt and parameters, under a name: pick it wherever you pick a model —
        a council run, the arena, a judge — and it keeps its own row on the leaderboard. Once something has used a
        version, an edit saves the next version, so earlier results stay true.
      </p>
      <p class="muted small" role="status" data-testid="presets-notice">
        {notice()}
      </p>

      <section class="card" aria-labelledby="new-preset-title">
        <h2 id="new-preset-title">New preset</h2>
        <Show when={formKey() + 1} keyed>
          <PresetForm
            id="new-preset"
            initial={emptyDraft()}
            options={options()}
            submitLabel="Save preset"
            save={create}
          />
        </Show>
      </section>

      <h2>Your presets</h2>
      <Show when={list.latest} fallback={<p class="muted">Loading…</p>}>
        {(loaded) => (
          <>
            <Alert message={loaded().error} />
            <Show when={!loaded().error && !loaded().presets.length}>
              <p class="muted">No presets yet: save one above.</p>
            </Show>
            <ul class="preset-list">
              <For each={loaded().presets}>
                {(p) => (
                  <li class="card preset" data-preset={p.slug} aria-labelledby={`preset-${p.slug}`}>
                    <div class="row spread">
                      <h3 id={`preset-${p.slug}`}>{presetName(p)}</h3>
                      <code class="muted small">{p.id}</code>
                    </div>
                    <p class="small">
                      On <code>{p.modelId}</code>
                      {p.temperature !== null ? ` · temperature ${p.temperature}` : ""}
                      {p.maxTokens !== null ? ` · at most ${p.maxTokens} tokens` : ""} ·{" "}
                      {p.versions === 1 ? "1 version" : `${p.versions} versions`} ·{" "}
                      {p.usedAt === null ? "not used yet" : `used since ${formatTime(p.usedAt)}`}
                    </p>
                    <Show when={p.systemPrompt} fallback={<p class="muted small">No system prompt.</p>}>
                      <pre class="preset-prompt">{p.systemPrompt}</pre>
                    </Show>
                    <Show
                      when={editing() === p.slug}
                      fallback={
                        <div class="row">
                          <button type="button" aria-label={`Edit ${p.name}`} onClick={() => setEditing(p.slug)}>
                            Edit
                          </button>
                          <Show
                            when={deleting() === p.slug}
                            fallback={
                              <button
                                type="button"
                                class="danger"
                                aria-label={`Delete ${p.name}`}
                                onClick={() => setDeleting(p.slug)}
                              >
                                Delete
                              </button>
                            }
                          >
                            <span class="small">Delete {p.name}? It can't be used again.</span>
                            <button type="button" class="danger" onClick={() => void remove(p)}>
                              Yes, delete
                            </button>
                            <button type="button" onClick={() => setDeleting(null)}>
                              Keep it
                            </button>
                          </Show>
                        </div>
                      }
                    >
                      <PresetForm
                        id={`edit-${p.slug}`}
                        initial={draftOf(p)}
                        options={options()}
                        submitLabel="Save changes"
                        save={(draft) => edit(p, draft)}
                        cancel={() => setEditing(null)}
                      />
                    </Show>
                  </li>
                )}
              </For>
            </ul>
          </>
        )}
      </Show>
    </section>
  );
}
