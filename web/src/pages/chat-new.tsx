import { createSignal, onMount } from "solid-js";
import { Alert } from "../components/alert";
import { ChatComposer } from "../components/chat-composer";
import { type ThreadFields, ThreadSettingsForm, settingsOf } from "../components/thread-settings";
import { createActions } from "../lib/actions";
import { createMediaQuery, PHONE_QUERY } from "../lib/media-query";
import type { ModelOption } from "../lib/model-match";
import { navigate } from "../lib/router";
import { modelMissing } from "../lib/thread-state";
import type { MessageMode } from "../lib/thread-types";
import { createThread, lastModel, rememberModel, sendMessage } from "./chat.data";

/** A thread not started yet: its settings and its first message, which creates it. */
export function ChatNew(props: { options: ModelOption[]; onCreated: () => void }) {
  const { busy, error, act } = createActions();
  const [edits, setEdits] = createSignal<Partial<ThreadFields>>({});
  // Until one is typed, the model is the last thread's, or else the first the catalog offers.
  const fields = (): ThreadFields => ({
    modelId: edits().modelId ?? lastModel() ?? props.options[0]?.id ?? "",
    systemPrompt: edits().systemPrompt ?? "",
    category: edits().category ?? "",
  });
  const [mode, setMode] = createSignal<MessageMode>("single");
  const phone = createMediaQuery(PHONE_QUERY);

  const start = async (content: string) => {
    const f = settingsOf(fields());
    // A new thread leaves out what it doesn't set (null is how a change clears a setting).
    const settings = {
      ...(f.modelId ? { modelId: f.modelId } : {}),
      ...(f.systemPrompt ? { systemPrompt: f.systemPrompt } : {}),
      ...(f.category ? { category: f.category } : {}),
    };
    let created = false;
    const started = await act("send", async () => {
      const { thread } = await createThread({ mode: mode(), ...settings });
      created = true;
      await sendMessage(thread.id, { content, mode: mode() });
      return thread;
    });
    // The list shows the new thread even when its first message was refused (the thread exists; it can be retried).
    if (created) props.onCreated();
    if (!started) return false;
    rememberModel(fields().modelId);
    navigate(`/chat/${started.id}`);
    return true;
  };

  onMount(() => {
    document.title = "New thread · Chat · Quorum";
  });

  return (
    <>
      <h2 id="thread-title">New thread</h2>
      <p class="muted">
        A conversation with one model, two anonymous ones side by side for your vote, or the leaderboard's leader: pick
        the mode per message.
      </p>
      {/* On a phone the settings fold away, so the message box is in view; the model is already filled in. */}
      <details class="thread-settings-box" open={!phone()}>
        <summary>Settings: model, system prompt, topper category</summary>
        <ThreadSettingsForm
          fields={fields()}
          onField={(name, value) => setEdits((e) => ({ ...e, [name]: value }))}
          options={props.options}
        />
      </details>
      <Alert message={error()} />
      <ChatComposer
        mode={mode()}
        onMode={setMode}
        blocked={modelMissing(mode(), fields().modelId)}
        sending={busy() === "send"}
        onSend={start}
      />
    </>
  );
}
