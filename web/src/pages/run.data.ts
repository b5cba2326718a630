/** A run as the run page sees it: loaded from the live socket, kept current event by event. */
import { batch, createSignal, onCleanup } from "solid-js";
import { createStore, produce, reconcile } from "solid-js/store";
import type { RunDetail } from "../../../worker/shared/run";
import { api, ApiError, call } from "../lib/api";
import { connectLive, type LiveStatus } from "../lib/live";
import { applyEvent, isTerminal } from "../lib/run-state";

interface Cached {
  seq: number;
  detail: RunDetail;
}

const cacheKey = (id: string) => `quorum.run.${id}`;

function readCache(id: string): Cached | null {
  try {
    const raw = sessionStorage.getItem(cacheKey(id));
    return raw ? (JSON.parse(raw) as Cached) : null;
  } catch {
    return null;
  }
}

export function createLiveRun(id: string) {
  const cached = readCache(id);
  const [store, setStore] = createStore<{ detail: RunDetail | null }>({ detail: cached?.detail ?? null });
  const [connection, setConnection] = createSignal<LiveStatus>("connecting");
  const [loadError, setLoadError] = createSignal<string | null>(null);
  let seq: number | undefined = cached?.seq;

  /** Fetches the stored run when the live socket can't be reached. */
  const refresh = async () => {
    try {
      const detail = await call(api.runs[":id"].$get({ param: { id } }));
      // Keep the live copy if events moved it on while the request was out.
      if (!store.detail || isTerminal(detail) || !isTerminal(store.detail)) setStore("detail", reconcile(detail));
      setLoadError(null);
    } catch (err) {
      if (err instanceof ApiError && err.status === 404) {
        setLoadError("This run doesn't exist (it may have been deleted).");
        live.close();
      } else if (!store.detail) setLoadError(err instanceof Error ? err.message : String(err));
    }
  };

  const live = connectLive({
    runId: id,
    since: () => seq,
    onStatus: setConnection,
    onUnreachable: () => void refresh(),
    onEvent: (event) =>
      batch(() => {
        if (event.type === "snapshot") setStore("detail", reconcile(event.state));
        else if (store.detail) setStore("detail", produce((d) => applyEvent(d!, event)));
        seq = event.seq;
      }),
  });

  // A reload resumes after the last seq instead of starting over from a snapshot.
  const save = () => {
    if (!store.detail || seq === undefined) return;
    try {
      sessionStorage.setItem(cacheKey(id), JSON.stringify({ seq, detail: store.detail } satisfies Cached));
    } catch {
      // Storage full or disabled: the next load simply starts from a snapshot.
    }
  };
  window.addEventListener("pagehide", save);
  onCleanup(() => {
    save();
    window.removeEventListener("pagehide", save);
    live.close();
  });

  return {
    get detail() {
      return store.detail;
    },
    connection,
    loadError,
  };
}
