import { Show } from "solid-js";
import type { ComparisonDetail, Reveal, VoteView } from "../../../worker/shared/arena";
import { SIDE_LETTER, VERDICT_TEXT } from "../lib/arena-state";

/** "GPT-4o (Model A) won", "Tie: …", "Both are bad: …" — the vote read with the names it revealed. */
function verdictText(vote: VoteView, reveal: Reveal): string {
  const named = (side: "left" | "right") => `${reveal[side].displayName} (Model ${SIDE_LETTER[side]})`;
  switch (vote.choice) {
    case "left":
    case "right":
      return `${named(vote.choice)} won`;
    case "tie":
      return `Tie between ${named("left")} and ${named("right")}`;
    case "both-bad":
      return `Both are bad: ${named("left")} and ${named("right")}`;
  }
}

/**
 * An arena round's outcome once it has a vote, above the answers: who won by the vote, who each side was, and
 * the judges' verdict when they have one. Nothing shows before the vote: the names are what it reveals.
 */
export function ArenaOutcome(props: { detail: ComparisonDetail; mine: boolean }) {
  const vote = () => props.detail.votes[props.detail.votes.length - 1] ?? null;
  const outcome = () => {
    const [v, reveal] = [vote(), props.detail.reveal];
    return v && reveal ? { v, reveal } : null;
  };
  return (
    <Show when={outcome()}>
      {(o) => (
        <section class="card outcome-strip" aria-labelledby="arena-outcome-title" data-testid="arena-outcome">
          <h2 id="arena-outcome-title" class="outcome-title">
            Outcome
          </h2>
          <p class="winner" data-testid="arena-winner">
            <strong>{verdictText(o().v, o().reveal)}</strong>{" "}
            <span class="muted small">({props.mine ? "your vote" : "by the vote"})</span>
          </p>
          <dl class="outcome-facts" aria-label="The reveal">
            <div>
              <dt>Model A</dt>
              <dd>
                {o().reveal.left.displayName} <code class="small">{o().reveal.left.modelId}</code>
              </dd>
            </div>
            <div>
              <dt>Model B</dt>
              <dd>
                {o().reveal.right.displayName} <code class="small">{o().reveal.right.modelId}</code>
              </dd>
            </div>
            <Show when={props.detail.panel}>
              {(panel) => (
                <div>
                  <dt>Judges</dt>
                  <dd>{VERDICT_TEXT[panel()]}</dd>
                </div>
              )}
            </Show>
          </dl>
        </section>
      )}
    </Show>
  );
}
