import { Show } from "solid-js";
import type { GoalBattleSummary } from "../../lib/goal-battle-types";
import { endedText, formatElapsed, winnerText } from "../../lib/goal-battle-view";

const RATIONALE_TITLE: Record<NonNullable<GoalBattleSummary["endedReason"]>, string> = {
  goal: "The goal rule",
  limit: "The judge's reason",
  error: "What failed",
  timeout: "What timed out",
  manual: "Stopped",
};

/** How a finished battle ended: who won, why it ended, and the reason given (the goal rule's or the judge's). */
export function GoalOutcome(props: { battle: GoalBattleSummary; revealed: boolean }) {
  const b = () => props.battle;
  const title = () => (b().judgeMode === "llm" ? "The judge's reason" : RATIONALE_TITLE[b().endedReason ?? "manual"]);
  return (
    <section class="card outcome-strip" aria-labelledby="goal-outcome-title" data-testid="goal-battle-outcome">
      <h2 id="goal-outcome-title" class="outcome-title">
        Outcome
      </h2>
      <p class="winner">
        <strong data-testid="goal-winner">{winnerText(b(), props.revealed)}</strong>.{" "}
        <span data-testid="goal-ended">{endedText(b().endedReason)}</span> After {b().currentTurn} turn
        {b().currentTurn === 1 ? "" : "s"}, {formatElapsed(b().elapsedMs)}.
      </p>
      <Show when={b().rationale}>
        <p class="small" data-testid="goal-rationale">
          <strong>{title()}:</strong> {b().rationale}
        </p>
      </Show>
    </section>
  );
}
