import { createEffect, createResource, For, Match, Show, Switch } from "solid-js";
import type { ComparisonDetail } from "../../../worker/shared/arena";
import type { RunDetail } from "../../../worker/shared/run";
import { AnswerCard } from "../components/answer-card";
import { ArenaOutcome } from "../components/arena-outcome";
import { ArenaPanes } from "../components/arena-panes";
import { ComparisonStatus } from "../components/comparison-status";
import { JudgePanel } from "../components/judge-panel";
import { ReviewSection } from "../components/review-section";
import { RunHeader } from "../components/run-header";
import { OutcomeFirst, rankedAnswers } from "../components/run-outcome";
import { ApiError, messageOf } from "../lib/api";
import { SIDES } from "../../../worker/shared/constants";
import { shortModelName } from "../lib/format";
import { isTerminal } from "../lib/run-state";
import { createSharedComparison, createSharedRun, DEAD_LINK, openShared } from "./shared.data";
import { CHOICES, rowsSummary } from "../lib/arena-state";

const CHOICE_LABEL = Object.fromEntries(CHOICES.map((c) => [c.choice, c.label]));

/** What a share link opens: one run or one comparison, live and read-only, with nothing that changes it. */
export default function SharedPage(props: { params: Record<string, string> }) {
  return (
    <Show when={props.params.token} keyed>
      {(token) => <SharedView token={token} />}
    </Show>
  );
}

function SharedView(props: { token: string }) {
  const [opened] = createResource(() => props.token, openShared);
  // Read through `state`, so neither a failure throws nor the wait suspends the page around this one.
  const shared = () => (opened.state === "ready" ? opened() : undefined);
  const run = () => {
    const s = shared();
    return s?.kind === "run" ? s.item : undefined;
  };
  const comparison = () => {
    const s = shared();
    return s?.kind === "comparison" ? s.item : undefined;
  };
  const problem = () => {
    if (opened.state !== "errored") return null;
    const err: unknown = opened.error;
    return err instanceof ApiError && err.status === 404 ? DEAD_LINK : messageOf(err);
  };
  return (
    <Switch
      fallback={
        <p class="muted" role="status">
          Opening the link…
        </p>
      }
    >
      <Match when={problem()}>{(message) => <Unavailable message={message()} />}</Match>
      <Match when={run()} keyed>
        {(item) => <SharedRun token={props.token} initial={item} />}
      </Match>
      <Match when={comparison()} keyed>
        {(item) => <SharedComparison token={props.token} initial={item} />}
      </Match>
    </Switch>
  );
}

function Unavailable(props: { message: string | null }) {
  createEffect(() => (document.title = "Shared link · Quorum"));
  return (
    <section class="page" aria-labelledby="shared-title">
      <h1 id="shared-title">Link not available</h1>
      <p class="callout error" role="alert">
        {props.message ?? DEAD_LINK}
      </p>
    </section>
  );
}

const ReadOnlyNote = (props: { what: string }) => (
  <p class="callout info small" data-testid="read-only-note">
    A read-only view of one {props.what}, shared from someone's Quorum. It updates live; nothing here can change it.
  </p>
);

function SharedRun(props: { token: string; initial: RunDetail }) {
  const doc = createSharedRun(props.token, props.initial);
  createEffect(() => {
    const q = doc.state?.run.question;
    document.title = q ? `${q.slice(0, 60)} · Shared · Quorum` : "Shared run · Quorum";
  });
  return (
    <Show when={!doc.loadError() && doc.state} fallback={<Unavailable message={doc.loadError()} />}>
      {(detail) => (
        <section class="page run-page shared-page" aria-labelledby="run-title">
          <ReadOnlyNote what="council run" />
          <RunHeader detail={detail()} connection={doc.connection()} />
          <OutcomeFirst detail={detail()} />
          <section aria-labelledby="answers-title">
            <h2 id="answers-title">Answers</h2>
            <Show when={detail().run.settings.blind && !isTerminal(detail())}>
              <p class="muted small">Blind run: model names stay hidden until the run is done.</p>
            </Show>
            <div class="answers layout-side">
              <For each={rankedAnswers(detail())}>
                {(answer) => (
                  <AnswerCard
                    answer={answer}
                    params={detail().run.models.find((m) => m.id === answer.modelId)?.params}
                    presetModel={answer.modelId ? detail().run.names?.[answer.modelId]?.modelId : null}
                    ranking={detail().aggregation?.finalRanking}
                    runEnded={isTerminal(detail())}
                  />
                )}
              </For>
            </div>
          </section>
          <ReviewSection detail={detail()} />
        </section>
      )}
    </Show>
  );
}

function SharedComparison(props: { token: string; initial: ComparisonDetail }) {
  const doc = createSharedComparison(props.token, props.initial);
  createEffect(() => {
    const prompt = doc.state?.turns[0]?.prompt;
    document.title = prompt ? `${prompt.slice(0, 50)} · Shared · Quorum` : "Shared comparison · Quorum";
  });
  const nameOf = (d: ComparisonDetail, modelId: string) =>
    SIDES.map((s) => d.reveal?.[s]).find((r) => r?.modelId === modelId)?.displayName ?? shortModelName(modelId);
  return (
    <Show when={!doc.loadError() && doc.state} fallback={<Unavailable message={doc.loadError()} />}>
      {(detail) => {
        const vote = () => detail().votes[detail().votes.length - 1] ?? null;
        return (
          <section class="page arena-page shared-page" aria-labelledby="arena-title">
            <div class="section-head">
              <h1 id="arena-title">Arena comparison</h1>
              <ComparisonStatus detail={detail()} connection={doc.connection()} readOnly />
            </div>
            <ReadOnlyNote what="arena comparison" />
            <ArenaOutcome detail={detail()} mine={false} />
            <ArenaPanes detail={detail()} />
            <Show when={detail().judges}>
              {(judges) => <JudgePanel judges={judges()} panel={detail().panel ?? null} />}
            </Show>
            <div class="card vote-summary" data-testid="shared-vote">
              <Show
                when={vote()}
                fallback={<p class="muted">No vote yet: the models' names stay hidden until the first vote.</p>}
              >
                {(v) => (
                  <>
                    <p>
                      <strong>Voted: {CHOICE_LABEL[v().choice]}</strong>
                    </p>
                    <p class="small">Recorded {rowsSummary(v(), (id) => nameOf(detail(), id))}.</p>
                  </>
                )}
              </Show>
            </div>
          </section>
        );
      }}
    </Show>
  );
}
