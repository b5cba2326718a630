import { createResource, For, Show, Suspense } from "solid-js";
import { api, call, messageOf, type JudgeStats } from "../lib/api";
import { Link } from "../lib/router";
import { MIN_AGREEMENT_COMPARISONS } from "../../../worker/shared/constants";
import { TableFrame } from "./table-frame";

type Preference = JudgeStats["selfPreference"];

const pct = (n: number | null) => (n === null ? "—" : `${Number.isInteger(n) ? n : n.toFixed(1)}%`);
const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** The measures in the table's order, each with what it means in plain words. */
const MEASURES: { name: string; text: string }[] = [
  { name: "Judged", text: "Voted comparisons the judge gave a verdict on." },
  {
    name: "With a person's vote",
    text: "Of those, comparisons whose vote counts (not flagged), so the judge can be checked against a person.",
  },
  {
    name: "Agrees with people",
    text: "How often its verdict matched that person's vote, a tie counting as an answer of its own (“both are bad” counts as a tie).",
  },
  {
    name: "Agrees when both pick a side",
    text: "The same, over only the comparisons where neither the judge nor the person called a tie.",
  },
  {
    name: "Agreement beyond chance (κ)",
    text: "Cohen's kappa: 1 is perfect agreement, 0 is no better than chance given how often each says A, B or tie, below 0 is worse than chance.",
  },
  {
    name: "Flips when A and B swap",
    text: "How often its answer changed when the two answers swapped places: then it preferred a position rather than an answer, and the verdict counts as a tie.",
  },
  {
    name: "Picks its own maker",
    text: "Where exactly one side comes from the judge's own maker (OpenAI, Anthropic or Google): how often its decisive verdicts picked that side, beside how often people did.",
  },
  {
    name: "Picks the longer answer",
    text: "How often its decisive verdicts picked the longer answer, beside how often people did. Far above people's share means it rewards length.",
  },
];

/**
 * An agreement figure with the count it rests on; under MIN_AGREEMENT_COMPARISONS comparisons, "too few to say"
 * instead of a percentage that one lucky match would make 100%.
 */
function AgreementCell(props: { value: string; count: number; col?: string }) {
  return (
    <td class="num" data-col={props.col}>
      <Show when={props.count >= MIN_AGREEMENT_COMPARISONS} fallback={<span class="muted">too few to say</span>}>
        {props.value}
      </Show>
      <span class="muted small ci">
        of {props.count}
        <Show when={props.count < MIN_AGREEMENT_COMPARISONS}> ({MIN_AGREEMENT_COMPARISONS} needed)</Show>
      </span>
    </td>
  );
}

function PreferenceCell(props: { p: Preference }) {
  return (
    <td class="num">
      <Show when={props.p.count} fallback="—">
        {pct(props.p.judge)}
        <span class="muted small ci">people {pct(props.p.humans)}</span>
        <span class="muted small ci">{plural(props.p.count, "comparison")}</span>
      </Show>
    </td>
  );
}

/** How far each judge can be trusted: its agreement with people who voted on the same comparisons, and its biases. */
export function JudgesTable() {
  const [data] = createResource(async () => {
    try {
      return { judges: (await call(api.judges.$get())).judges, error: null };
    } catch (err) {
      return { judges: null, error: messageOf(err) };
    }
  });
  return (
    <>
      <p class="muted">
        A judge is a model asked to compare the two answers of an arena round, twice, with A and B swapped the second
        time. Here each judge is checked against the people who voted on the same comparisons.
      </p>
      {/* Its own boundary: loading must not suspend the whole page (the tabs, and the focus on them). */}
      <Suspense
        fallback={
          <p class="muted" role="status">
            Loading the judges…
          </p>
        }
      >
        <Show when={data()}>
          {(d) => (
            <>
              <Show when={d().error}>
                <p class="callout error" role="alert">
                  {d().error}
                </p>
              </Show>
              <Show when={d().judges}>
                {(judges) => (
                  <Show
                    when={judges().length}
                    fallback={
                      <p class="callout empty-state" data-testid="judges-empty">
                        No judge has compared a voted comparison yet: <Link href="/arena">ask judges in the Arena</Link>
                        .
                      </p>
                    }
                  >
                    <p id="judges-caption" class="table-title">
                      Judges against human votes
                    </p>
                    <p class="scroll-hint muted small" aria-hidden="true">
                      Swipe the table sideways for every column →
                    </p>
                    <TableFrame labelledBy="judges-caption" pinned>
                      <table class="leaderboard judges-table" aria-labelledby="judges-caption">
                        <thead>
                          <tr>
                            <th scope="col">Judge</th>
                            <For each={MEASURES}>{(m) => <th scope="col">{m.name}</th>}</For>
                          </tr>
                        </thead>
                        <tbody>
                          <For each={judges()}>
                            {(j) => (
                              <tr data-judge={j.judgeModelId}>
                                <th scope="row">
                                  {j.displayName}
                                  <Show when={j.displayName !== j.judgeModelId}>
                                    <br />
                                    <code class="muted small">{j.judgeModelId}</code>
                                  </Show>
                                </th>
                                <td class="num">{j.judged}</td>
                                <td class="num">{j.withHumans}</td>
                                <AgreementCell value={pct(j.agreement)} count={j.withHumans} col="agreement" />
                                <AgreementCell value={pct(j.agreementDecisive)} count={j.decisive} />
                                <AgreementCell
                                  value={j.kappa === null ? "—" : j.kappa.toFixed(2)}
                                  count={j.withHumans}
                                  col="kappa"
                                />
                                <td class="num" data-col="flip-rate">
                                  {pct(j.flipRate)}
                                </td>
                                <PreferenceCell p={j.selfPreference} />
                                <PreferenceCell p={j.lengthPreference} />
                              </tr>
                            )}
                          </For>
                        </tbody>
                      </table>
                    </TableFrame>
                  </Show>
                )}
              </Show>
            </>
          )}
        </Show>
      </Suspense>
      <h2>What each measure means</h2>
      <dl class="measures">
        <For each={MEASURES}>
          {(m) => (
            <>
              <dt>{m.name}</dt>
              <dd>{m.text}</dd>
            </>
          )}
        </For>
      </dl>
    </>
  );
}
