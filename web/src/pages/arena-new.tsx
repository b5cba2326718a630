import { createEffect, createMemo, createSignal, onMount } from "solid-js";
import { createStore } from "solid-js/store";
import { ArenaComposer } from "../components/arena-composer";
import { ArenaFrame } from "../components/arena-frame";
import { ArenaOptionsPanel } from "../components/arena-options";
import { ArenaPanes } from "../components/arena-panes";
import { VoteBar } from "../components/vote-bar";
import { api, call, messageOf } from "../lib/api";
import { shortModelName } from "../lib/format";
import { navigate } from "../lib/router";
import { arenaFieldErrors, buildComparisonBody, loadOptions, saveOptions } from "./arena.data";

/** An empty arena: one prompt starts a round. */
export function NewRound() {
  const [options, setOptions] = createStore(loadOptions());
  const [sending, setSending] = createSignal(false);
  const [error, setError] = createSignal<string | null>(null);
  // Checked from the first send on, so a field's error shows beside it and goes once the field is right.
  const [checked, setChecked] = createSignal(false);
  const fieldErrors = createMemo(() => (checked() ? arenaFieldErrors(options) : {}));
  createEffect(() => saveOptions({ ...options }));
  onMount(() => (document.title = "Arena · Quorum"));

  const start = async (prompt: string) => {
    setError(null);
    setChecked(true);
    const wrong = (["first", "second", "judges"] as const).find((f) => fieldErrors()[f]);
    if (wrong) {
      const field = document.getElementById(`arena-${wrong}`);
      field?.closest("details")?.setAttribute("open", "");
      field?.focus();
      return false;
    }
    let body: ReturnType<typeof buildComparisonBody>;
    try {
      body = buildComparisonBody(options, prompt);
    } catch (err) {
      setError(messageOf(err));
      return false;
    }
    setSending(true);
    try {
      const created = await call(api.comparisons.$post({ json: body }));
      navigate(`/arena/${created.id}`);
      return true;
    } catch (err) {
      setError(messageOf(err));
      return false;
    } finally {
      setSending(false);
    }
  };

  return (
    <ArenaFrame>
      <ArenaPanes detail={null} />
      <ArenaComposer
        help="Enter sends it to both models; Shift+Enter starts a new line."
        examples
        blocked={null}
        sending={sending()}
        onSend={start}
        onBlocked={setError}
      >
        <ArenaOptionsPanel options={options} set={setOptions} errors={fieldErrors()} />
      </ArenaComposer>
      <VoteBar
        vote={null}
        idle
        open={false}
        revealed={false}
        closedReason="Ask something first: voting opens once both answers are in."
        busy={false}
        error={error()}
        mine={false}
        nameOf={shortModelName}
        sideName={() => null}
        onVote={() => {}}
        onChange={() => {}}
        onNewRound={() => {}}
      />
    </ArenaFrame>
  );
}
