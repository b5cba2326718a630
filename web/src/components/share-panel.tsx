import { createSignal, For, Show } from "solid-js";

/** A link to a loopback address opens only on the machine that made it. */
const onlyThisMachine = (url: string) => /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/.test(new URL(url).hostname);
import { createActions } from "../lib/actions";
import { api, call, type ShareLink } from "../lib/api";
import { formatTime } from "../lib/format";
import { Alert } from "./alert";

type Kind = "run" | "comparison";

/** The three calls, for either kind of item. */
function shareCalls(kind: Kind, id: string) {
  const param = { param: { id } };
  const base = kind === "run" ? api.runs[":id"] : api.comparisons[":id"];
  return {
    create: () => call(base.share.$post(param)),
    list: async () => (await call(base.shares.$get(param))).shares,
    revoke: (shareId: string) => call(api.shares[":shareId"].$delete({ param: { shareId } })),
  };
}

/**
 * Read-only links to one run or comparison: make one (its address is shown once: only its hash is kept),
 * copy it, and revoke any that is still live.
 */
function SharePanel(props: { kind: Kind; id: string }) {
  const calls = shareCalls(props.kind, props.id);
  // Signals, not a resource: a resource would suspend the whole page around this panel while it loads.
  const [links, setLinks] = createSignal<ShareLink[]>([]);
  const [loading, setLoading] = createSignal(true);
  const [fresh, setFresh] = createSignal<{ id: string; url: string } | null>(null);
  const { busy, error, act } = createActions();
  const [copied, setCopied] = createSignal("");
  let urlInput: HTMLInputElement | undefined;
  const what = props.kind === "run" ? "run" : "comparison";

  void act("load", async () => {
    setLinks(await calls.list());
  }).then(() => setLoading(false));

  const create = () =>
    act("create", async () => {
      const made = await calls.create();
      setFresh({ id: made.id, url: made.url });
      setCopied("");
      setLinks((list) => [...list, { id: made.id, kind: made.kind, itemId: made.itemId, createdAt: made.createdAt }]);
      queueMicrotask(() => urlInput?.select());
    });

  const copy = async () => {
    const url = fresh()?.url;
    if (!url) return;
    try {
      await navigator.clipboard.writeText(url);
      setCopied("Copied.");
    } catch {
      urlInput?.select();
      setCopied("Selected: press Ctrl+C (⌘C) to copy.");
    }
  };

  const revoke = (link: ShareLink) =>
    act(`revoke:${link.id}`, async () => {
      await calls.revoke(link.id);
      if (fresh()?.id === link.id) setFresh(null);
      setLinks((list) => list.filter((l) => l.id !== link.id));
    });

  return (
    <section class="card share-panel" aria-labelledby="share-title" data-testid="share-panel">
      <h2 id="share-title">Share a read-only link</h2>
      <p class="muted small">
        Whoever has the link sees this {what}, live, and nothing else: no access token, no other runs, no buttons that
        change anything. Its address is shown only once, when you make it; revoke it here when it has served.
      </p>
      <button type="button" onClick={() => void create()} disabled={busy() !== null}>
        {busy() === "create" ? "Making a link…" : "Create link"}
      </button>
      <Show when={fresh()}>
        {(made) => (
          <div class="share-new">
            <label for="share-url">New link</label>
            <div class="row">
              <input
                id="share-url"
                type="text"
                readonly
                value={made().url}
                ref={urlInput}
                data-testid="share-url"
                onFocus={(e) => e.currentTarget.select()}
              />
              <button type="button" onClick={() => void copy()}>
                Copy
              </button>
            </div>
            <p class="small" role="status">
              {copied()}
            </p>
            <Show when={onlyThisMachine(made().url)}>
              <p class="callout warn small" data-testid="share-local-note">
                This link points at {new URL(made().url).host}, which only this machine can open. For teammates, serve
                Quorum where they can reach it (<code>HOST=0.0.0.0</code> with an <code>APP_TOKEN</code>, or deployed)
                and make the link there.
              </p>
            </Show>
          </div>
        )}
      </Show>
      <h3>Live links</h3>
      <Show
        when={links().length}
        fallback={<p class="muted small">{loading() ? "Loading…" : `No live link to this ${what}.`}</p>}
      >
        <ul class="share-list">
          <For each={links()}>
            {(link) => (
              <li>
                <span>
                  Made <time datetime={new Date(link.createdAt).toISOString()}>{formatTime(link.createdAt)}</time>
                  <Show when={fresh()?.id === link.id}> (the new one)</Show>
                </span>
                <button
                  type="button"
                  class="small danger"
                  onClick={() => void revoke(link)}
                  disabled={busy() !== null}
                  aria-label={`Revoke the link made ${formatTime(link.createdAt)}`}
                >
                  {busy() === `revoke:${link.id}` ? "Revoking…" : "Revoke"}
                </button>
              </li>
            )}
          </For>
        </ul>
      </Show>
      <Alert message={error()} />
    </section>
  );
}

/** A toolbar's Share button for one item and the panel it opens: the page puts each where it belongs. */
export function createShareToggle(kind: Kind, id: string) {
  const [open, setOpen] = createSignal(false);
  return {
    Button: () => (
      <button type="button" aria-expanded={open()} aria-controls="share-panel" onClick={() => setOpen(!open())}>
        Share
      </button>
    ),
    Panel: () => (
      <Show when={open()}>
        <div id="share-panel">
          <SharePanel kind={kind} id={id} />
        </div>
      </Show>
    ),
  };
}
