import { createSignal, Show } from "solid-js";
import { createActions } from "../../lib/actions";
import { stopGoalBattle } from "../../lib/goal-battle-api";
import type { GoalBattleSummary } from "../../lib/goal-battle-types";
import {
  awaitsVote,
  canReveal,
  elapsedAt,
  endedText,
  formatElapsed,
  GOAL_STATE_TEXT,
  isOver,
  sideName,
  sideTokens,
  turnText,
  winnerText,
} from "../../lib/goal-battle-view";
import { Link } from "../../lib/router";
import { createLiveGoalBattle } from "../../pages/goal-battle.data";
import { Alert } from "../alert";

interface Props {
  jobId: string;
  /** what the list knows of it; a battle just launched has nothing yet */
  initial?: GoalBattleSummary;
  /** the page's clock, ticking each second */
  now: () => number;
}

function settled(battle: GoalBattleSummary) {
  return { battle, receivedAt: () => 0, loadError: () => null, replace: (_: GoalBattleSummary) => {} };
}

/**
 * One battle on the Battles page: turn x/y, tokens per side, elapsed time, status, kept current by its socket;
 * Stop while it runs, Reveal once it is over. Sides are A and B only until then.
 */
export function GoalBattleCard(props: Props) {
  // A battle already over changes no more: its card needs no socket.
  const live =
    props.initial && isOver(props.initial.state)
      ? settled(props.initial)
      : createLiveGoalBattle(props.jobId, { initial: props.initial });
  const [revealed, setRevealed] = createSignal(false);
  const { busy, error, act } = createActions();
  const titleId = () => `battle-${props.jobId}-title`;
  const stop = () =>
    void act("stop", async () => {
      live.replace(await stopGoalBattle(props.jobId));
    });

  return (
    <li>
      <article
        class="card goal-card"
        aria-labelledby={titleId()}
        data-testid="goal-battle-card"
        data-job={props.jobId}
        data-state={live.battle?.state ?? "starting"}
      >
        <Show
          when={live.battle}
          fallback={
            <p class="muted" id={titleId()} role="status">
              {live.loadError() ?? "Starting…"}
            </p>
          }
        >
          {(b) => (
            <>
              <header class="card-head">
                <h3 id={titleId()}>
                  <Link href={`/goal-battles/${encodeURIComponent(props.jobId)}`}>{b().goal}</Link>
                </h3>
                <p class={`status goal-state-${b().state}`} data-testid="goal-state">
                  <Show when={!isOver(b().state)}>
                    <span class="spinner" aria-hidden="true" />
                  </Show>
                  {GOAL_STATE_TEXT[b().state]}
                </p>
              </header>
              <dl class="metrics">
                <div>
                  <dt>Turn</dt>
                  <dd data-testid="goal-turn">{turnText(b())}</dd>
                </div>
                <div>
                  <dt>Tokens A/B</dt>
                  <dd data-testid="goal-tokens">
                    {sideTokens(b(), "A")} / {sideTokens(b(), "B")}
                  </dd>
                </div>
                <div>
                  <dt>Elapsed</dt>
                  <dd data-testid="goal-elapsed">{formatElapsed(elapsedAt(b(), live.receivedAt(), props.now()))}</dd>
                </div>
              </dl>
              <Show when={isOver(b().state)}>
                <p class="goal-card-outcome" data-testid="goal-outcome">
                  <strong>{winnerText(b(), revealed())}</strong>. {endedText(b().endedReason)}
                </p>
              </Show>
              <Show when={revealed()}>
                <p class="small" data-testid="goal-names">
                  A: {sideName(b(), "A", true)} · B: {sideName(b(), "B", true)}
                </p>
              </Show>
              <p class="actions">
                <Show when={!isOver(b().state)}>
                  <button
                    type="button"
                    class="small"
                    disabled={busy() !== null}
                    aria-label={`Stop the battle: ${b().goal}`}
                    onClick={stop}
                  >
                    {busy() === "stop" ? "Stopping…" : "Stop"}
                  </button>
                </Show>
                <Show when={isOver(b().state) && !revealed()}>
                  <Show
                    when={canReveal(b())}
                    fallback={
                      <span class="muted small">
                        <Show when={awaitsVote(b()) && !b().vote} fallback="Names not known.">
                          Names stay hidden until your vote: open the battle to vote.
                        </Show>
                      </span>
                    }
                  >
                    <button
                      type="button"
                      class="small"
                      aria-label={`Reveal the contestants of: ${b().goal}`}
                      onClick={() => setRevealed(true)}
                    >
                      Reveal
                    </button>
                  </Show>
                </Show>
              </p>
              <Alert message={error()} />
            </>
          )}
        </Show>
      </article>
    </li>
  );
}
