import { Show } from "solid-js";
import type { VoteChoice } from "../../../worker/shared/arena";
import type { Side } from "../../../worker/shared/constants";
import { createActions } from "../lib/actions";
import { canVote, SIDE_LETTER } from "../lib/arena-state";
import { shortModelName } from "../lib/format";
import type { ThreadMessage } from "../lib/thread-types";
import { voteByKeys } from "../lib/vote-keys";
import { createLiveComparison, isMyVote } from "../pages/arena.data";
import { Alert } from "./alert";
import { ArenaOutcome } from "./arena-outcome";
import { ArenaPanes } from "./arena-panes";
import { VoteBar } from "./vote-bar";

interface Props {
  /** the thread's reply: awaiting its vote, or a side to continue with after a tie or both-bad */
  message: ThreadMessage;
  onContinue: (side: Side) => Promise<unknown>;
  /** sends the same prompt again as a new dual message */
  onAskAgain: () => Promise<unknown>;
}

/**
 * A dual message inside a thread: the arena comparison it made, its two answers side by side (tabs on a phone)
 * from the comparison's own socket, and the arena's vote. The thread hears of the vote from its room: a win
 * continues the thread with the winner's answer; after a tie or both-bad the person picks a side or asks again.
 * Blind until the vote, as every comparison is.
 */
export function DualReply(props: Props) {
  const comparison = createLiveComparison(props.message.comparisonId ?? "");
  const { busy, error, act } = createActions();
  const d = () => comparison.detail;
  const votable = () => props.message.status === "awaiting_vote" && !!d() && canVote(d()!) && !d()!.votes.length;
  const lastVote = () => d()?.votes.at(-1) ?? null;
  const nameOf = (modelId: string) =>
    [d()?.reveal?.left, d()?.reveal?.right].find((r) => r?.modelId === modelId)?.displayName ?? shortModelName(modelId);
  const sideName = (side: Side) => d()?.reveal?.[side].displayName ?? `Model ${SIDE_LETTER[side]}`;

  const vote = (choice: VoteChoice) => {
    if (votable() && !busy()) void act("vote", () => comparison.vote(choice));
  };
  voteByKeys(votable, vote);

  const closedReason = () => {
    if (d()?.votes.length) return "Vote recorded: the thread continues with the answer you chose…";
    if (d()?.comparison.status === "failed") return "A side failed: ask again to get two new answers.";
    return "Voting opens once both answers are in.";
  };

  return (
    <li class="chat-message dual-reply" data-message-id={props.message.id} data-status={props.message.status}>
      <p class="reply-head small">
        <span class="badge">Dual (vote)</span>{" "}
        <span class="muted">Two anonymous models answer; your vote picks the one that continues the thread.</span>
      </p>
      <Show when={d()} fallback={<p class="muted">{comparison.loadError() ?? "Loading the two answers…"}</p>}>
        {(detail) => (
          <>
            <ArenaOutcome detail={detail()} mine={!!lastVote() && isMyVote(lastVote()!.voteId)} />
            <ArenaPanes detail={detail()} />
          </>
        )}
      </Show>
      <Show
        when={props.message.status === "awaiting_choice"}
        fallback={
          <VoteBar
            vote={null}
            open={votable()}
            revealed={!!d()?.reveal && !d()?.votes.length}
            closedReason={closedReason()}
            busy={busy() !== null}
            error={error()}
            mine={false}
            nameOf={nameOf}
            sideName={(choice) => (choice === "left" || choice === "right" ? sideName(choice) : null)}
            onVote={vote}
            onChange={() => {}}
            onNewRound={() => void act("again", props.onAskAgain)}
            offerNewRound={d()?.comparison.status === "failed"}
          />
        }
      >
        <div class="continue-bar" role="group" aria-label="Which answer continues the thread?">
          <p class="small">No winner: pick the answer that continues the thread, or ask both again.</p>
          <div class="row">
            <button
              type="button"
              disabled={busy() !== null}
              onClick={() => void act("left", () => props.onContinue("left"))}
            >
              Continue with A ({sideName("left")})
            </button>
            <button
              type="button"
              disabled={busy() !== null}
              onClick={() => void act("right", () => props.onContinue("right"))}
            >
              Continue with B ({sideName("right")})
            </button>
            <button type="button" disabled={busy() !== null} onClick={() => void act("again", props.onAskAgain)}>
              Ask again
            </button>
          </div>
          <Alert message={error()} />
        </div>
      </Show>
    </li>
  );
}
