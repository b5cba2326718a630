/** A goal battle as a card or its page sees it: the socket's snapshot and updates, and the transcript's messages. */
import { createSignal, createMemo } from "solid-js";
import { createStore, produce } from "solid-js/store";
import { getGoalBattle, goalBattleLiveUrl, sideMessages } from "../lib/goal-battle-api";
import type { GoalBattle, GoalBattleEvent, GoalBattleSummary, GoalMessage, GoalSide } from "../lib/goal-battle-types";
import { isOver } from "../lib/goal-battle-view";
import { mergeMessages } from "../lib/goal-transcript";
import { createLiveDoc } from "../lib/live-doc";

interface LiveOptions {
  /** what the list already knows of it, shown until the snapshot */
  initial?: GoalBattleSummary;
  onMessage?: (message: GoalMessage) => void;
  onDelta?: (side: GoalSide, turn: number, text: string) => void;
}

export function createLiveGoalBattle(jobId: string, opts: LiveOptions = {}) {
  const doc = createLiveDoc<GoalBattleSummary | GoalBattle, GoalBattleEvent>({
    cacheKey: `quorum.goalBattle.${jobId}`,
    url: (since) => goalBattleLiveUrl(jobId, since),
    load: () => getGoalBattle(jobId),
    apply: (draft, event) => {
      if (event.type === "battle.updated") Object.assign(draft, event.battle);
      else if (event.type === "message.added") opts.onMessage?.(event.message);
      else if (event.type === "side.delta") opts.onDelta?.(event.side, event.turn, event.text);
    },
    // An ended battle fetched while the socket still says it runs: the fetched copy is the newer.
    keepLive: (live, fetched) => isOver(live.state) && !isOver(fetched.state),
    notFound: "This battle doesn't exist.",
    initial: opts.initial,
  });
  // When the page last heard the battle's figures: its elapsed time ticks on from there while it runs.
  const receivedAt = createMemo(() => {
    void doc.state?.elapsedMs;
    void doc.state?.state;
    return Date.now();
  });
  return {
    get battle() {
      return doc.state;
    },
    receivedAt,
    connection: doc.connection,
    loadError: doc.loadError,
    /** a response the page has (a stop, a vote) before its event arrives */
    replace: (battle: GoalBattle) => doc.update((d) => Object.assign(d, battle)),
  };
}

/** The transcript: both sides' messages fetched once, then kept current by the socket's. */
export function createGoalTranscript(jobId: string) {
  const [store, setStore] = createStore<{
    messages: Record<string, GoalMessage>;
    streaming: Record<GoalSide, { turn: number; text: string } | null>;
  }>({ messages: {}, streaming: { A: null, B: null } });
  const [error, setError] = createSignal<string | null>(null);

  const add = (messages: GoalMessage[]) =>
    setStore(
      produce((s) => {
        mergeMessages(s.messages, messages);
        for (const m of messages)
          if (m.role === "assistant" && s.streaming[m.side]?.turn === m.turn) s.streaming[m.side] = null;
      }),
    );
  void Promise.all([sideMessages(jobId, "A"), sideMessages(jobId, "B")])
    .then(([a, b]) => add([...a, ...b]))
    .catch((err: unknown) => setError(err instanceof Error ? err.message : String(err)));

  return {
    get messages() {
      return store.messages;
    },
    get streaming() {
      return store.streaming;
    },
    error,
    onMessage: (message: GoalMessage) => add([message]),
    onDelta: (side: GoalSide, turn: number, text: string) =>
      setStore("streaming", side, (s) => ({ turn, text: s?.turn === turn ? s.text + text : text })),
  };
}
