import { createSignal, onMount, Show } from "solid-js";
import { ThreadList } from "../components/thread-list";
import { messageOf } from "../lib/api";
import { createMediaQuery, PHONE_QUERY } from "../lib/media-query";
import { createModelOptions } from "../lib/model-options";
import { navigate } from "../lib/router";
import type { ThreadSummary } from "../lib/thread-types";
import { listThreads } from "./chat.data";
import { ChatNew } from "./chat-new";
import { ChatThread } from "./chat-thread";

/** /chat and /chat/:id: the threads beside the open one (above it, folded, on a phone). */
export default function ChatPage(props: { params: Record<string, string> }) {
  const [threads, setThreads] = createSignal<ThreadSummary[]>([]);
  const [loading, setLoading] = createSignal(true);
  const [listError, setListError] = createSignal<string | null>(null);
  const phone = createMediaQuery(PHONE_QUERY);
  const options = createModelOptions(() => true);

  const refresh = async () => {
    try {
      setThreads((await listThreads()).threads);
      setListError(null);
    } catch (err) {
      setListError(messageOf(err));
    } finally {
      setLoading(false);
    }
  };
  onMount(() => void refresh());
  const newThread = () => {
    navigate("/chat");
    queueMicrotask(() => document.getElementById("chat-message")?.focus());
  };

  const list = () => <ThreadList threads={threads()} loading={loading()} error={listError()} onNew={newThread} />;

  return (
    <section class="page chat-page" aria-labelledby="chat-title">
      <h1 id="chat-title">Chat</h1>
      <div class="chat-layout">
        <Show when={phone()} fallback={<aside class="chat-aside">{list()}</aside>}>
          <details class="chat-aside thread-drawer">
            <summary>Threads ({threads().length})</summary>
            {list()}
          </details>
        </Show>
        <div class="chat-main">
          <Show
            when={props.params.id}
            keyed
            fallback={<ChatNew options={options()} onCreated={() => void refresh()} />}
          >
            {(id) => <ChatThread id={id} options={options()} onChanged={() => void refresh()} />}
          </Show>
        </div>
      </div>
    </section>
  );
}
