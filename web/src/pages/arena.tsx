import { createEffect, createMemo, createSignal, Show } from "solid-js";
import type { VoteChoice } from "../../../worker/shared/arena";
import { ArenaComposer } from "../components/arena-composer";
import { ArenaFrame } from "../components/arena-frame";
import { ArenaOutcome } from "../components/arena-outcome";
import { ArenaPanes } from "../components/arena-panes";
import { AskJudges } from "../components/ask-judges";
import { ComparisonStatus } from "../components/comparison-status";
import { JudgePanel } from "../components/judge-panel";
import { createShareToggle } from "../components/share-panel";
import { VoteBar } from "../components/vote-bar";
import { createActions } from "../lib/actions";
import { SIDES, type Side } from "../../../worker/shared/constants";
import { shortModelName } from "../lib/format";
import { createModelOptions } from "../lib/model-options";
import { navigate } from "../lib/router";
import { RedactionNote } from "../components/redaction-note";
import { NewRound } from "./arena-new";
import { createLiveComparison, isMyVote, loadOptions } from "./arena.data";
import { canVote, latestTurn, SIDE_LETTER } from "../lib/arena-state";
import { voteByKeys } from "../lib/vote-keys";
import { wordDiff } from "../lib/word-diff";
import { LoadingOrError } from "../components/loading-or-error";

export default function ArenaPage(props: { params: Record<string, string> }) {
  return (
    <Show when={props.params.id} keyed fallback={<NewRound />}>
      {(id) => <Round id={id} />}
    </Show>
  );
}

/** A comparison: both sides streaming, follow-ups, the vote, the reveal. */
function Round(props: { id: string }) {
  const live = createLiveComparison(props.id);
  const { busy, error, setError, act } = createActions();
  const share = createShareToggle("comparison", props.id);
  let result: HTMLElement | undefined;
  let firstVote: HTMLButtonElement | undefined;

  const d = () => live.detail;
  const votable = () => !!d() && canVote(d()!) && !d()!.votes.length;
  const lastVote = () => d()?.votes[d()!.votes.length - 1] ?? null;
  const sideTitle = (side: Side) => d()?.reveal?.[side].displayName ?? `Model ${SIDE_LETTER[side]}`;
  const nameOf = (modelId: string) =>
    SIDES.map((s) => d()?.reveal?.[s]).find((r) => r?.modelId === modelId)?.displayName ?? shortModelName(modelId);

  const vote = async (choice: VoteChoice) => {
    if (!votable() || busy()) return;
    if (await act("vote", () => live.vote(choice))) queueMicrotask(() => result?.focus());
  };
  const changeVote = async () => {
    const v = lastVote();
    if (!v) return;
    await act("withdraw", () => live.withdraw(v.voteId).then(() => true));
    if (!lastVote()) queueMicrotask(() => firstVote?.focus());
  };
  const retry = () => void act("retry", live.retry);
  /** Judges compare finished answers: both sides of the latest turn are in, voted or not. */
  const judgeable = () => {
    const detail = d();
    return (
      !!detail &&
      (detail.comparison.status === "ready" || detail.comparison.status === "voted") &&
      SIDES.every((s) => latestTurn(detail)?.[s].status === "done")
    );
  };
  const models = createModelOptions(judgeable);
  /** A refusal is shown beside the judge field, not in the vote bar: it is about the ids typed there. */
  const askJudges = async (ids: string) => {
    if ((await act("judges", () => live.askJudges(ids))) !== undefined) return null;
    const why = error();
    setError(null);
    return why;
  };
  const askForm = (voted: boolean) => (
    <AskJudges
      initial={loadOptions().judges}
      voted={voted}
      asking={busy() === "judges"}
      models={models()}
      onAsk={askJudges}
    />
  );
  const newRound = () => {
    navigate("/arena");
    setTimeout(() => document.getElementById("arena-prompt")?.focus());
  };

  voteByKeys(votable, vote);

  createEffect(() => {
    const prompt = d()?.turns[0]?.prompt;
    document.title = prompt ? `${prompt.slice(0, 50)} · Arena · Quorum` : "Arena · Quorum";
  });

  /** Why voting (or a follow-up) waits, in the state the comparison is in. */
  const closedReason = () => {
    const status = d()?.comparison.status;
    if (status === "failed")
      return "A side failed: retry it, or start a new round. A round with a failed side can't be voted on.";
    return "Voting opens once both answers are in.";
  };
  const followUpBlocked = () => {
    const detail = d();
    if (!detail) return "Loading…";
    const status = detail.comparison.status;
    if (status === "failed") return "A side failed: retry it before sending a follow-up.";
    if (status !== "ready") return "Both models must finish this turn before the next one.";
    if (detail.turns.length >= detail.comparison.maxTurns)
      return `This comparison has reached its ${detail.comparison.maxTurns} turns: vote, or start a new round.`;
    return null;
  };

  /** Longer answers tend to win votes for their length alone: say so when one is more than twice the other. */
  /** "Highlight differences": the latest turn's two replies, word by word, once both are in. */
  const [diffOn, setDiffOn] = createSignal(false);
  const bothDone = () => {
    const t = d() && latestTurn(d()!);
    return t?.left.status === "done" && t.right.status === "done";
  };
  const diff = createMemo(() => {
    const t = d() && latestTurn(d()!);
    return diffOn() && bothDone() && t ? wordDiff(t.left.text, t.right.text) : null;
  });

  const lengthNote = () => {
    const t = d() && latestTurn(d()!);
    if (t?.left.status !== "done" || !t || t.right.status !== "done") return null;
    const [a, b] = [t.left.text.trim().length, t.right.text.trim().length];
    const [long, short] = a >= b ? (["left", "right"] as const) : (["right", "left"] as const);
    const ratio = Math.max(a, b) / Math.max(1, Math.min(a, b));
    if (ratio <= 2) return null;
    return `${sideTitle(long)}'s answer is ${ratio >= 10 ? Math.round(ratio) : ratio.toFixed(1)}× as long as ${sideTitle(short)}'s. Longer answers tend to win votes for their length alone: judge what each says, not how much.`;
  };

  const status = () => (
    <Show when={d()}>
      {(detail) => (
        <ComparisonStatus detail={detail()} connection={live.connection()} category={detail().comparison.category} />
      )}
    </Show>
  );

  return (
    <ArenaFrame status={status()}>
      <Show
        when={d()}
        fallback={
          <LoadingOrError error={live.loadError()} loading="Loading the comparison…">
            <button type="button" class="primary" onClick={newRound}>
              New round
            </button>
          </LoadingOrError>
        }
      >
        {(detail) => (
          <>
            <Show when={detail().comparison.modeNote}>
              <p class="callout warn small">{detail().comparison.modeNote}</p>
            </Show>
            <RedactionNote redactions={detail().comparison.params.redactions} />
            <ArenaOutcome detail={detail()} mine={!!lastVote() && isMyVote(lastVote()!.voteId)} />
            <ArenaPanes detail={detail()} retrying={busy() === "retry"} onRetry={retry} diff={diff()} />
            <Show when={bothDone()}>
              <p class="diff-toggle">
                <button type="button" class="small" aria-pressed={diffOn()} onClick={() => setDiffOn(!diffOn())}>
                  Highlight differences
                </button>{" "}
                <Show when={detail().comparison.votedAt === null && !followUpBlocked()}>
                  <button
                    type="button"
                    class="small"
                    disabled={busy() !== null}
                    title="Asks both models the same prompt again, as the next turn; these answers stay above"
                    onClick={() => void act("send", () => live.send(latestTurn(detail())!.prompt))}
                  >
                    Regenerate both
                  </button>{" "}
                </Show>
                <span class="muted small">
                  {diffOn() ? "Words only one answer has are marked; formatting is shown as plain text." : ""}
                </span>
              </p>
            </Show>
            <Show when={lengthNote()}>
              <p class="callout warn small length-note" data-testid="length-note">
                {lengthNote()}
              </p>
            </Show>
            <Show when={detail().judges}>
              {(judges) => (
                <JudgePanel judges={judges()} panel={detail().panel ?? null}>
                  <Show when={judgeable()}>{askForm(true)}</Show>
                </JudgePanel>
              )}
            </Show>
            <Show
              when={detail().comparison.votedAt === null}
              fallback={
                <p class="muted small">
                  This round has had a vote, so it takes no more turns. Start a new round to ask something else.
                </p>
              }
            >
              <ArenaComposer
                help={`Enter sends a follow-up to both models (turn ${detail().turns.length + 1} of ${detail().comparison.maxTurns}); Shift+Enter starts a new line; Esc leaves the box, so keys 1–4 vote.`}
                blocked={followUpBlocked()}
                sending={busy() === "send"}
                onSend={async (text) => {
                  if (!text.trim()) {
                    setError("Write a follow-up first.");
                    return false;
                  }
                  return (await act("send", () => live.send(text))) !== undefined;
                }}
                onBlocked={setError}
              />
            </Show>
            <Show when={!detail().judges && judgeable()}>
              <section class="card judges" aria-labelledby="judges-title">
                <h2 id="judges-title">Judges</h2>
                {askForm(false)}
                {/* The live region is there first, so the note is announced when it appears. */}
                <p class="judges-note" role="status">
                  <Show when={live.judgesAsked()}>
                    <span data-testid="judges-note">
                      Judges compare the answers after your vote; their verdicts appear then.
                    </span>
                  </Show>
                </p>
              </section>
            </Show>
            <div class="toolbar">
              <share.Button />
            </div>
            <share.Panel />
            <VoteBar
              vote={lastVote()}
              open={votable()}
              revealed={detail().reveal !== null}
              closedReason={closedReason()}
              offerNewRound={detail().comparison.status === "failed"}
              busy={busy() !== null}
              error={error()}
              mine={!!lastVote() && isMyVote(lastVote()!.voteId)}
              nameOf={nameOf}
              sideName={(choice) =>
                choice === "left" || choice === "right" ? (detail().reveal?.[choice].displayName ?? null) : null
              }
              onVote={(c) => void vote(c)}
              onChange={() => void changeVote()}
              onNewRound={newRound}
              resultRef={(el) => (result = el)}
              firstButtonRef={(el) => (firstVote = el)}
            />
          </>
        )}
      </Show>
    </ArenaFrame>
  );
}
