import { createSignal, For, Match, onMount, Show, Switch } from "solid-js";
import { createStore } from "solid-js/store";
import { Alert } from "../components/alert";
import { HistoryComparison } from "../components/history-comparison";
import { HistoryRun } from "../components/history-run";
import { HistoryThread } from "../components/history-thread";
import { HistorySave } from "../components/history-save";
import { api, call, type ComparisonListItem, type RunListItem } from "../lib/api";
import { type Feed, feedsToExtend, mergedNewestFirst } from "../lib/history-feed";
import { Link } from "../lib/router";
import type { ThreadSummary } from "../lib/thread-types";
import type { ContestantNames } from "../../../worker/shared/contestant-name";
import { deleteThread, listThreads } from "./chat.data";

const PAGE_SIZE = 20;
const KINDS = { all: "Everything", runs: "Council runs", arena: "Arena comparisons", chat: "Chat threads" } as const;
type Kind = keyof typeof KINDS;

type Entry =
  | { kind: "run"; createdAt: number; run: RunListItem }
  | { kind: "comparison"; createdAt: number; comparison: ComparisonListItem }
  // A thread is dated by its last change (updatedAt): the order its list comes in.
  | { kind: "thread"; createdAt: number; thread: ThreadSummary; names: ContestantNames };

const initialKind = (): Kind => {
  const asked = new URLSearchParams(location.search).get("kind");
  return asked === "runs" || asked === "arena" || asked === "chat" ? asked : "all";
};

export default function HistoryPage() {
  const [feeds, setFeeds] = createStore<{
    runs: Feed<Entry> & { loaded: boolean };
    arena: Feed<Entry> & { loaded: boolean };
    chat: Feed<Entry> & { loaded: boolean };
  }>({
    runs: { items: [], cursor: null, loaded: false },
    arena: { items: [], cursor: null, loaded: false },
    chat: { items: [], cursor: null, loaded: false },
  });
  const [kind, setKind] = createSignal<Kind>(initialKind());
  const [loading, setLoading] = createSignal(false);
  const [error, setError] = createSignal<string | null>(null);
  const [status, setStatus] = createSignal("");
  /** picked items, `run:<id>` or `comparison:<id>`, for "save these prompts" */
  const [picked, setPicked] = createSignal<ReadonlySet<string>>(new Set());
  let heading!: HTMLHeadingElement;

  const keyOf = (entry: Entry) =>
    entry.kind === "run"
      ? `run:${entry.run.id}`
      : entry.kind === "comparison"
        ? `comparison:${entry.comparison.id}`
        : `thread:${entry.thread.id}`;
  const pick = (entry: Entry, on: boolean) =>
    setPicked((now) => {
      const next = new Set(now);
      if (on) next.add(keyOf(entry));
      else next.delete(keyOf(entry));
      return next;
    });
  /** The picked items that are shown now, newest first, split by kind as the server takes them. */
  const pickedShown = () => {
    const shown = entries().filter((e) => picked().has(keyOf(e)));
    return {
      runs: shown.flatMap((e) => (e.kind === "run" ? [e.run.id] : [])),
      comparisons: shown.flatMap((e) => (e.kind === "comparison" ? [e.comparison.id] : [])),
    };
  };

  const shownFeeds = () =>
    kind() === "all" ? [feeds.runs, feeds.arena, feeds.chat] : [feeds[kind() as Exclude<Kind, "all">]];
  const entries = () => mergedNewestFirst(shownFeeds());
  const loaded = () => shownFeeds().every((f) => f.loaded);
  const more = () => shownFeeds().some((f) => f.cursor !== null);

  const loadRuns = async (cursor?: string) => {
    const page = await call(api.runs.$get({ query: { limit: String(PAGE_SIZE), ...(cursor ? { cursor } : {}) } }));
    const items: Entry[] = page.items.map((run) => ({ kind: "run", createdAt: run.createdAt, run }));
    setFeeds("runs", (f) => ({
      items: cursor ? [...f.items, ...items] : items,
      cursor: page.nextCursor,
      loaded: true,
    }));
  };
  const loadArena = async (cursor?: string) => {
    const page = await call(
      api.comparisons.$get({ query: { limit: String(PAGE_SIZE), ...(cursor ? { cursor } : {}) } }),
    );
    const items: Entry[] = page.items.map((comparison) => ({
      kind: "comparison",
      createdAt: comparison.createdAt,
      comparison,
    }));
    setFeeds("arena", (f) => ({
      items: cursor ? [...f.items, ...items] : items,
      cursor: page.nextCursor,
      loaded: true,
    }));
  };

  const loadChat = async (cursor?: string) => {
    const page = await listThreads(cursor, PAGE_SIZE);
    const items: Entry[] = page.threads.map((thread) => ({
      kind: "thread",
      createdAt: thread.updatedAt,
      thread,
      names: page.names,
    }));
    setFeeds("chat", (f) => ({
      items: cursor ? [...f.items, ...items] : items,
      cursor: page.nextCursor,
      loaded: true,
    }));
  };

  const load = async (jobs: Promise<void>[]) => {
    setLoading(true);
    setError(null);
    try {
      await Promise.all(jobs);
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
    } finally {
      setLoading(false);
    }
  };

  const older = () => {
    const shown = shownFeeds();
    const next = feedsToExtend(shown).map((i) =>
      shown[i] === feeds.runs
        ? loadRuns(feeds.runs.cursor!)
        : shown[i] === feeds.arena
          ? loadArena(feeds.arena.cursor!)
          : loadChat(feeds.chat.cursor!),
    );
    void load(next);
  };

  const choose = (next: Kind) => {
    setKind(next);
    const url = new URL(location.href);
    if (next === "all") url.searchParams.delete("kind");
    else url.searchParams.set("kind", next);
    history.replaceState(history.state, "", url);
  };

  const remove = async (run: RunListItem) => {
    setError(null);
    try {
      await call(api.runs[":id"].$delete({ param: { id: run.id } }));
      sessionStorage.removeItem(`quorum.run.${run.id}`);
      setFeeds("runs", "items", (items) => items.filter((e) => e.kind !== "run" || e.run.id !== run.id));
      setStatus(`Deleted the run "${run.question.slice(0, 60)}".`);
      heading.focus();
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
    }
  };

  const removeThread = async (thread: ThreadSummary) => {
    setError(null);
    try {
      await deleteThread(thread.id);
      setFeeds("chat", "items", (items) => items.filter((e) => e.kind !== "thread" || e.thread.id !== thread.id));
      setStatus(`Deleted the thread "${thread.title.slice(0, 60)}".`);
      heading.focus();
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
    }
  };

  onMount(() => {
    document.title = "History · Quorum";
    void load([loadRuns(), loadArena(), loadChat()]);
  });

  return (
    <section class="page" aria-labelledby="history-title">
      <h1 id="history-title" ref={heading} tabindex="-1">
        History
      </h1>
      <p class="sr-only" role="status">
        {status()}
      </p>
      <fieldset class="history-filter">
        <legend class="sr-only">Show</legend>
        <For each={Object.entries(KINDS) as [Kind, string][]}>
          {([value, label]) => (
            <label>
              <input
                type="radio"
                name="history-kind"
                value={value}
                checked={kind() === value}
                onChange={() => choose(value)}
              />{" "}
              {label}
            </label>
          )}
        </For>
      </fieldset>
      <Alert message={error()} />
      <Switch>
        <Match when={!loaded() && loading()}>
          <p class="muted" role="status">
            Loading history…
          </p>
        </Match>
        <Match when={!entries().length && loaded() && !error()}>
          <p>
            <Switch>
              <Match when={kind() === "runs"}>
                No council runs yet. <Link href="/">Ask your first question.</Link>
              </Match>
              <Match when={kind() === "arena"}>
                No arena comparisons yet. <Link href="/arena">Start one in the arena.</Link>
              </Match>
              <Match when={kind() === "chat"}>
                No chat threads yet. <Link href="/chat">Start one in Chat.</Link>
              </Match>
              <Match when={kind() === "all"}>
                Nothing here yet. <Link href="/">Ask your first question</Link> or{" "}
                <Link href="/arena">try the arena</Link>.
              </Match>
            </Switch>
          </p>
        </Match>
        <Match when={entries().length}>
          <HistorySave
            picked={pickedShown()}
            shown={entries().length}
            onPickAll={() => setPicked(new Set(entries().map(keyOf)))}
            onClear={() => setPicked(new Set<string>())}
          />
          <ol class="history" aria-label={`${KINDS[kind()]}, newest first`}>
            <For each={entries()}>
              {(entry) =>
                entry.kind === "thread" ? (
                  <HistoryThread thread={entry.thread} names={entry.names} onDelete={removeThread} />
                ) : entry.kind === "run" ? (
                  <HistoryRun
                    run={entry.run}
                    onDelete={remove}
                    picked={picked().has(keyOf(entry))}
                    onPick={(on) => pick(entry, on)}
                  />
                ) : (
                  <HistoryComparison
                    comparison={entry.comparison}
                    picked={picked().has(keyOf(entry))}
                    onPick={(on) => pick(entry, on)}
                  />
                )
              }
            </For>
          </ol>
        </Match>
      </Switch>
      <Show when={loaded() && more()}>
        <button type="button" onClick={older} disabled={loading()}>
          {loading() ? "Loading…" : "Show older"}
        </button>
      </Show>
    </section>
  );
}
