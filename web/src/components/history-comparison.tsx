import { Show } from "solid-js";
import type { ComparisonListItem } from "../lib/api";
import { Link } from "../lib/router";
import { formatTime } from "../lib/format";
import { PickBox } from "./pick-box";
import type { VoteChoice } from "../../../worker/shared/constants";

const STATUS_TEXT: Record<ComparisonListItem["status"], string> = {
  pending: "Starting",
  answering: "Answering",
  ready: "Waiting for your vote",
  voted: "Voted",
  failed: "Failed",
};

const MODE_TEXT: Record<ComparisonListItem["mode"], string> = {
  manual: "chosen pair",
  sampled: "sampled pair",
  topper: "leader vs challenger",
};

/** The vote in words, naming the winner once the names are out. */
function voteText(choice: VoteChoice, reveal: ComparisonListItem["reveal"]): string {
  if (choice === "tie") return "You voted: tie";
  if (choice === "both-bad") return "You voted: both bad";
  const side = reveal?.[choice];
  return `You voted: ${choice}${side ? ` (${side.displayName})` : ""}`;
}

/** One arena comparison in History: its prompt, the vote cast, the names it revealed and its judges. */
export function HistoryComparison(props: {
  comparison: ComparisonListItem;
  picked: boolean;
  onPick: (picked: boolean) => void;
}) {
  const c = props.comparison;
  return (
    <li class="card history-item" data-comparison-id={c.id}>
      <div class="history-main">
        <PickBox picked={props.picked} onPick={props.onPick} text={c.prompt} />
        <p class="history-kind muted small">Arena · {MODE_TEXT[c.mode]}</p>
        <Link href={`/arena/${c.id}`} class="history-question">
          {c.prompt}
        </Link>
        <p class="muted small">
          <time datetime={new Date(c.createdAt).toISOString()}>{formatTime(c.createdAt)}</time> ·{" "}
          <span class={`badge status-${c.status}`}>{STATUS_TEXT[c.status]}</span> ·{" "}
          <span data-testid="history-vote">{c.vote ? voteText(c.vote.choice, c.reveal) : "No vote yet"}</span> ·{" "}
          <Show when={c.reveal} fallback={<span>names hidden until you vote</span>}>
            {(r) => (
              <span data-testid="history-reveal">
                {r().left.displayName} (left) vs {r().right.displayName} (right)
              </span>
            )}
          </Show>
          <Show when={c.judges > 0}>
            {" "}
            · {c.judges} judge verdict{c.judges === 1 ? "" : "s"}
          </Show>
          <Show when={c.category}> · {c.category}</Show>
        </p>
      </div>
      <div class="history-actions">
        <Link
          class="button small"
          href={`/arena/${c.id}`}
          aria-label={`Open the comparison "${c.prompt.slice(0, 60)}"`}
        >
          Open
        </Link>
      </div>
    </li>
  );
}
