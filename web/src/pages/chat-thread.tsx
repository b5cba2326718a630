import { createEffect, createSignal, For, Show } from "solid-js";
import { ChatComposer } from "../components/chat-composer";
import { ChatMessage } from "../components/chat-message";
import { ConfirmDelete } from "../components/confirm-delete";
import { ConnectionStatus } from "../components/connection-status";
import { DownloadLink } from "../components/download-link";
import { DualReply } from "../components/dual-reply";
import { type ThreadFields, ThreadSettingsForm, settingsOf } from "../components/thread-settings";
import { Alert } from "../components/alert";
import { createActions } from "../lib/actions";
import type { ModelOption } from "../lib/model-match";
import { navigate } from "../lib/router";
import { openDual, promptOf, sendBlocked } from "../lib/thread-state";
import type { MessageMode, ThreadMessage } from "../lib/thread-types";
import { createLiveThread, deleteThread, rememberModel, threadExportUrl } from "./chat.data";
import { LoadingOrError } from "../components/loading-or-error";

/** An open thread: its title and downloads, its settings, the conversation, and the box for the next message. */
export function ChatThread(props: { id: string; options: ModelOption[]; onChanged: () => void }) {
  const live = createLiveThread(props.id);
  const { busy, error, act } = createActions();
  const d = () => live.detail;
  const thread = () => d()?.thread;

  /** Settings typed but not saved yet; the thread's own values show through the rest. */
  const [edits, setEdits] = createSignal<Partial<ThreadFields>>({});
  const fields = (): ThreadFields => ({
    modelId: edits().modelId ?? thread()?.modelId ?? "",
    systemPrompt: edits().systemPrompt ?? thread()?.systemPrompt ?? "",
    category: edits().category ?? thread()?.category ?? "",
  });
  const [saved, setSaved] = createSignal<string | null>(null);
  const save = async () => {
    setSaved(null);
    if (await act("settings", () => live.edit(settingsOf(fields())))) {
      setEdits({});
      setSaved("Saved.");
      rememberModel(fields().modelId);
    }
  };

  const [mode, setMode] = createSignal<MessageMode | null>(null);
  const currentMode = () => mode() ?? thread()?.mode ?? "single";
  const chooseMode = (next: MessageMode) => {
    setMode(next);
    // The thread keeps the choice for its next visit; a failure to keep it doesn't stop the message.
    void live.edit({ mode: next }).catch(() => {});
  };

  const send = async (content: string, sendMode = currentMode()) => {
    const modelId = fields().modelId.trim();
    const body = { content, mode: sendMode, ...(sendMode === "single" && modelId ? { modelId } : {}) };
    const ok = (await act("send", () => live.send(body))) !== undefined;
    if (ok) props.onChanged();
    return ok;
  };
  const askAgain = (reply: ThreadMessage) => {
    const prompt = d() && promptOf(d()!, reply);
    if (!prompt) return Promise.reject(new Error("The message this answers is gone."));
    return live.send({ content: prompt.content, mode: "dual" });
  };

  const [renaming, setRenaming] = createSignal(false);
  const [title, setTitle] = createSignal("");
  const rename = async () => {
    if (!title().trim()) return;
    if (await act("rename", () => live.edit({ title: title().trim() }))) {
      setRenaming(false);
      props.onChanged();
    }
  };
  const remove = async () => {
    if (await act("delete", () => deleteThread(props.id).then(() => true))) {
      props.onChanged();
      navigate("/chat");
    }
  };

  createEffect(() => {
    const t = thread()?.title;
    document.title = t ? `${t.slice(0, 50)} · Chat · Quorum` : "Chat · Quorum";
  });

  return (
    <Show when={d()} fallback={<LoadingOrError error={live.loadError()} loading="Loading the thread…" />}>
      {(detail) => (
        <>
          <div class="thread-head">
            <Show
              when={renaming()}
              fallback={
                <h2 id="thread-title" data-testid="thread-title">
                  {detail().thread.title || "Untitled thread"}
                </h2>
              }
            >
              <form
                class="row rename"
                onSubmit={(e) => {
                  e.preventDefault();
                  void rename();
                }}
              >
                <label class="sr-only" for="thread-rename">
                  Thread title
                </label>
                <input
                  id="thread-rename"
                  type="text"
                  value={title()}
                  ref={(el) => queueMicrotask(() => el.focus())}
                  onInput={(e) => setTitle(e.currentTarget.value)}
                />
                <button type="submit" class="small primary" disabled={busy() === "rename"}>
                  Save title
                </button>
                <button type="button" class="small" onClick={() => setRenaming(false)}>
                  Cancel
                </button>
              </form>
            </Show>
            <p class="muted small">
              <Show when={detail().thread.source === "v1"}>Called through /v1 · </Show>
              <ConnectionStatus connection={live.connection()} />
            </p>
            <div class="toolbar" role="group" aria-label="This thread">
              <Show when={!renaming()}>
                <button
                  type="button"
                  class="small"
                  onClick={() => {
                    setTitle(detail().thread.title);
                    setRenaming(true);
                  }}
                >
                  Rename
                </button>
              </Show>
              <DownloadLink class="button small" href={threadExportUrl(props.id, "md")}>
                Export Markdown
              </DownloadLink>
              <DownloadLink class="button small" href={threadExportUrl(props.id, "json")}>
                Export JSON
              </DownloadLink>
              <ConfirmDelete onDelete={remove} />
            </div>
          </div>
          <details class="thread-settings-box">
            <summary>Settings: model, system prompt, topper category</summary>
            <ThreadSettingsForm
              fields={fields()}
              onField={(name, value) => setEdits((e) => ({ ...e, [name]: value }))}
              options={props.options}
              onSave={() => void save()}
              saving={busy() === "settings"}
              note={saved()}
            />
          </details>
          <Show
            when={detail().messages.length}
            fallback={<p class="muted">No messages yet: write the first one below.</p>}
          >
            <ol class="chat-messages" aria-label="Conversation">
              <For each={detail().messages}>
                {(m) => (
                  <Show when={m.comparisonId && openDual(detail())?.id === m.id} fallback={<ChatMessage message={m} />}>
                    <DualReply
                      message={m}
                      onContinue={(side) => live.continueWith(m.id, side)}
                      onAskAgain={() => askAgain(m)}
                    />
                  </Show>
                )}
              </For>
            </ol>
          </Show>
          <Alert message={error()} />
          <ChatComposer
            mode={currentMode()}
            onMode={chooseMode}
            blocked={sendBlocked(detail(), currentMode(), fields().modelId)}
            sending={busy() === "send"}
            onSend={(text) => send(text)}
          />
        </>
      )}
    </Show>
  );
}
