/**
 * A room's state as a page sees it (a run, a comparison): started from the live socket's snapshot,
 * kept current event by event, and kept in sessionStorage with the last seq applied, so a reload
 * shows what was there at once and the socket resumes after that seq instead of starting over.
 */
import { batch, createSignal, onCleanup } from "solid-js";
import { createStore, produce, reconcile } from "solid-js/store";
import { ApiError } from "./api";
import { connectLive, type LiveEvent, type LiveStatus } from "./live";

interface Cached<T> {
  seq: number;
  state: T;
}

type Snapshot<T> = { type: "snapshot"; seq: number; state: T };

export interface LiveDocOptions<T extends object, E extends LiveEvent> {
  /** the sessionStorage key of this room's copy */
  cacheKey: string;
  url: (since: number | undefined) => string;
  /** the stored state, for when the socket can't be reached */
  load: () => Promise<T>;
  /** applies one event (never a snapshot: that replaces the whole state) to a draft */
  apply: (draft: T, event: Exclude<E, { type: "snapshot" }>) => void;
  /** keep the live copy rather than a fetched one (events may have moved it on while the request was out) */
  keepLive?: (live: T, fetched: T) => boolean;
  /** what to say when the room does not exist */
  notFound: string;
  /** a copy already fetched, shown until the socket's snapshot replaces it */
  initial?: T;
}

function readCache<T>(key: string): Cached<T> | null {
  try {
    const raw = sessionStorage.getItem(key);
    if (!raw) return null;
    const parsed = JSON.parse(raw) as Partial<Cached<T>> & { detail?: T };
    // `detail` is how run pages stored their copy before this helper existed.
    const state = parsed.state ?? parsed.detail;
    return typeof parsed.seq === "number" && state ? { seq: parsed.seq, state } : null;
  } catch {
    return null;
  }
}

export function createLiveDoc<T extends object, E extends LiveEvent>(opts: LiveDocOptions<T, E>) {
  const cached = readCache<T>(opts.cacheKey);
  const [store, setStore] = createStore<{ state: T | null }>({ state: cached?.state ?? opts.initial ?? null });
  const [connection, setConnection] = createSignal<LiveStatus>("connecting");
  const [loadError, setLoadError] = createSignal<string | null>(null);
  let seq: number | undefined = cached?.seq;

  const refresh = async () => {
    try {
      const fetched = await opts.load();
      if (!store.state || !opts.keepLive?.(store.state, fetched)) setStore("state", reconcile(fetched));
      setLoadError(null);
    } catch (err) {
      if (err instanceof ApiError && err.status === 404) {
        setLoadError(opts.notFound);
        live.close();
      } else if (!store.state) setLoadError(err instanceof Error ? err.message : String(err));
    }
  };

  const live = connectLive<E>({
    url: opts.url,
    since: () => seq,
    onStatus: setConnection,
    onUnreachable: () => void refresh(),
    onEvent: (event) =>
      batch(() => {
        if (event.type === "snapshot") setStore("state", reconcile((event as unknown as Snapshot<T>).state));
        else if (store.state)
          setStore(
            "state",
            produce((d) => opts.apply(d as T, event as Exclude<E, { type: "snapshot" }>)),
          );
        seq = event.seq;
      }),
  });

  const save = () => {
    if (!store.state || seq === undefined) return;
    try {
      sessionStorage.setItem(opts.cacheKey, JSON.stringify({ seq, state: store.state } satisfies Cached<T>));
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
    get state() {
      return store.state;
    },
    connection,
    loadError,
    /** a change the page knows of before its event arrives (e.g. from an API response); `apply` must tolerate the event later */
    update(change: (draft: T) => void) {
      if (store.state)
        setStore(
          "state",
          produce((d) => change(d as T)),
        );
    },
  };
}
