import { For, Show } from "solid-js";
import type { GoalVoteChoice } from "../../lib/goal-battle-types";

const CHOICES: readonly { choice: GoalVoteChoice; label: string }[] = [
  { choice: "left", label: "A is better" },
  { choice: "tie", label: "Tie" },
  { choice: "both-bad", label: "Both are bad" },
  { choice: "right", label: "B is better" },
];

const CHOSEN: Record<GoalVoteChoice, string> = {
  left: "A is better",
  right: "B is better",
  tie: "a tie",
  "both-bad": "both are bad",
};

interface Props {
  vote: { choice: GoalVoteChoice } | null;
  busy: boolean;
  onVote: (choice: GoalVoteChoice) => void;
}

/** The person decides a battle judged by a human: the arena's four choices, once it is over. */
export function GoalHumanVote(props: Props) {
  return (
    <section class="card vote-bar goal-vote" aria-labelledby="goal-vote-title">
      <h2 id="goal-vote-title">Your verdict</h2>
      <Show
        when={props.vote}
        fallback={
          <div class="vote-buttons" role="group" aria-labelledby="goal-vote-title">
            <For each={CHOICES}>
              {(c) => (
                <button type="button" disabled={props.busy} onClick={() => props.onVote(c.choice)}>
                  {c.label}
                </button>
              )}
            </For>
          </div>
        }
      >
        {(v) => <p data-testid="goal-vote">You voted: {CHOSEN[v().choice]}.</p>}
      </Show>
    </section>
  );
}
