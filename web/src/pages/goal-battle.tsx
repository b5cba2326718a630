import { createEffect, createSignal, onCleanup, Show } from "solid-js";
import { Alert } from "../components/alert";
import { GoalHumanVote } from "../components/goal-battle/human-vote";
import { GoalOutcome } from "../components/goal-battle/outcome";
import { GoalTranscript } from "../components/goal-battle/transcript";
import { createActions } from "../lib/actions";
import { stopGoalBattle, voteGoalBattle } from "../lib/goal-battle-api";
import type { GoalSide } from "../lib/goal-battle-types";
import {
  awaitsVote,
  canReveal,
  elapsedAt,
  formatElapsed,
  GOAL_STATE_TEXT,
  isOver,
  sideName,
  turnText,
} from "../lib/goal-battle-view";
import { sideTurns } from "../lib/goal-transcript";
import { LIVE_STATUS_TEXT } from "../lib/live";
import { Link } from "../lib/router";
import { createGoalTranscript, createLiveGoalBattle } from "./goal-battle.data";
import { LoadingOrError } from "../components/loading-or-error";

export default function GoalBattlePage(props: { params: Record<string, string> }) {
  return (
    <Show when={props.params.id} keyed>
      {(id) => <GoalBattleView jobId={id} />}
    </Show>
  );
}

/** One goal battle: its state and figures, the outcome once over, both transcripts, Stop, Reveal and the vote. */
function GoalBattleView(props: { jobId: string }) {
  const transcript = createGoalTranscript(props.jobId);
  const live = createLiveGoalBattle(props.jobId, { onMessage: transcript.onMessage, onDelta: transcript.onDelta });
  const { busy, error, act } = createActions();
  const [revealed, setRevealed] = createSignal(false);
  const [now, setNow] = createSignal(Date.now());
  const timer = setInterval(() => setNow(Date.now()), 1000);
  onCleanup(() => clearInterval(timer));
  createEffect(() => {
    document.title = live.battle ? `${live.battle.goal.slice(0, 50)} · Battles · Quorum` : "Battle · Quorum";
  });

  const stop = () => void act("stop", async () => live.replace(await stopGoalBattle(props.jobId)));
  const vote = (choice: Parameters<typeof voteGoalBattle>[1]) =>
    void act("vote", async () => {
      live.replace(await voteGoalBattle(props.jobId, choice));
      setRevealed(true);
    });
  const systemPrompt = () => {
    const b = live.battle;
    return b && "systemPrompt" in b ? b.systemPrompt : "";
  };
  const titleOf = (side: GoalSide) => (live.battle ? sideName(live.battle, side, revealed()) : `Side ${side}`);

  return (
    <>
      <p class="small">
        <Link href="/goal-battles">← All battles</Link>
      </p>
      <Show
        when={live.battle}
        fallback={<LoadingOrError error={live.loadError()} loading="Loading the battle…" heading={<h1>Battle</h1>} />}
      >
        {(b) => (
          <>
            <h1 class="goal-title">{b().goal}</h1>
            <p class="muted goal-facts" role="status">
              <span data-testid="goal-state">{GOAL_STATE_TEXT[b().state]}</span> · Turn{" "}
              <span data-testid="goal-turn">{turnText(b())}</span> ·{" "}
              {formatElapsed(elapsedAt(b(), live.receivedAt(), now()))} · {LIVE_STATUS_TEXT[live.connection()]}
              <Show when={b().category}> · {b().category}</Show>
            </p>
            <Show when={systemPrompt()}>
              <details class="small goal-system">
                <summary>System prompt</summary>
                <p>{systemPrompt()}</p>
              </details>
            </Show>
            <p class="actions">
              <Show when={!isOver(b().state)}>
                <button type="button" disabled={busy() !== null} onClick={stop}>
                  {busy() === "stop" ? "Stopping…" : "Stop"}
                </button>
              </Show>
              <Show when={canReveal(b()) && !revealed()}>
                <button type="button" onClick={() => setRevealed(true)}>
                  Reveal
                </button>
              </Show>
            </p>
            <Show when={isOver(b().state)}>
              <GoalOutcome battle={b()} revealed={revealed()} />
            </Show>
            <Alert message={error()} />
            <Show when={awaitsVote(b())}>
              <GoalHumanVote vote={b().vote} busy={busy() !== null} onVote={vote} />
            </Show>
            <Alert message={transcript.error()} />
            <GoalTranscript
              battle={b()}
              titleOf={titleOf}
              turnsOf={(side) => sideTurns(transcript.messages, side)}
              streaming={transcript.streaming}
            />
          </>
        )}
      </Show>
    </>
  );
}
