import { For, Show } from "solid-js";
import type { VoteChoice, VoteView } from "../../../worker/shared/arena";
import { CHOICES, FLAG_TEXT, rowsSummary } from "../lib/arena-state";
import { Alert } from "./alert";

interface Props {
  /** the latest vote on the comparison, once there is one */
  vote: VoteView | null;
  /** both sides of the latest turn answered */
  open: boolean;
  /** the names are on the page already (not blind, or an earlier vote was withdrawn) */
  revealed: boolean;
  /** why voting is closed, when it is */
  closedReason: string;
  busy: boolean;
  /** the last action's error: shown here, where the person's eyes are whatever the scroll position */
  error: string | null;
  /** nothing to vote on yet (a new round's first screen): the bar sits in the flow, never over the prompt box */
  idle?: boolean;
  /** offer a fresh round before any vote (the round can't be voted on) */
  offerNewRound?: boolean;
  mine: boolean;
  nameOf: (modelId: string) => string;
  sideName: (choice: VoteChoice) => string | null;
  onVote: (choice: VoteChoice) => void;
  onChange: () => void;
  onNewRound: () => void;
  resultRef?: (el: HTMLElement) => void;
  firstButtonRef?: (el: HTMLButtonElement) => void;
}

const CHOICE_LABEL = Object.fromEntries(CHOICES.map((c) => [c.choice, c.label])) as Record<VoteChoice, string>;

/** The vote, always within reach at the bottom of the screen; after it, what was recorded and what next. */
export function VoteBar(props: Props) {
  return (
    <div class="vote-bar" classList={{ idle: props.idle }} role="region" aria-label="Vote">
      <Alert message={props.error} />
      <Show
        when={props.vote}
        fallback={
          <>
            <div class="vote-buttons" role="group" aria-label="Which answer is better?" aria-describedby="vote-hint">
              <For each={CHOICES}>
                {(c, i) => (
                  <button
                    type="button"
                    class="vote"
                    disabled={!props.open || props.busy}
                    aria-keyshortcuts={c.key}
                    data-choice={c.choice}
                    ref={(el) => i() === 0 && props.firstButtonRef?.(el)}
                    onClick={() => props.onVote(c.choice)}
                  >
                    {/* biome-ignore lint/a11y/noAriaHiddenOnFocusable: the kbd is not focusable; its key is announced once, through the button's aria-keyshortcuts */}
                    <kbd aria-hidden="true">{c.key}</kbd> {c.label}
                  </button>
                )}
              </For>
            </div>
            <div class="vote-hint-row">
              <p id="vote-hint" class="muted small">
                <Show when={props.open} fallback={props.closedReason}>
                  <span class="keys-hint">Keys 1–4 vote too (outside the prompt box). </span>
                  {props.revealed
                    ? "The names are already shown, so this vote is flagged revealed and left out of the ratings by default."
                    : "Names are revealed after your vote."}
                </Show>
              </p>
              <Show when={props.offerNewRound}>
                <button type="button" class="small" onClick={() => props.onNewRound()}>
                  New round
                </button>
              </Show>
            </div>
          </>
        }
      >
        {(vote) => (
          <div class="vote-result">
            <div class="vote-summary" tabindex="-1" ref={(el) => props.resultRef?.(el)}>
              <p>
                <strong>
                  {props.mine ? "You voted" : "Voted"}: {CHOICE_LABEL[vote().choice]}
                </strong>
                <Show when={props.sideName(vote().choice)}>{(name) => <> ({name()})</>}</Show>
              </p>
              <p class="small" data-testid="vote-rows">
                Recorded {rowsSummary(vote(), props.nameOf)}.
              </p>
              <Show when={vote().flags.length} fallback={<p class="small muted">It counts in the leaderboard.</p>}>
                <p class="small flag-note" data-testid="vote-flags">
                  Kept, but left out of the ratings:{" "}
                  <For each={vote().flags}>
                    {(f, i) => (
                      <>
                        {i() ? "; " : ""}
                        {FLAG_TEXT[f]}
                      </>
                    )}
                  </For>
                  .
                </p>
              </Show>
            </div>
            <div class="row">
              <Show when={props.mine}>
                <button type="button" onClick={() => props.onChange()} disabled={props.busy}>
                  Change vote
                </button>
              </Show>
              <button type="button" class="primary" onClick={() => props.onNewRound()}>
                New round
              </button>
            </div>
          </div>
        )}
      </Show>
    </div>
  );
}
