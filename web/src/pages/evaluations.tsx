import { createResource, For, Show } from "solid-js";
import { Alert } from "../components/alert";
import { ContestantList, ContestantName } from "../components/contestant-name";
import { TableFrame } from "../components/table-frame";
import { api, call } from "../lib/api";
import { contestantText } from "../lib/names";
import type { ContestantNames } from "../../../worker/shared/contestant-name";

type Listed = {
  winner: string | null;
  winnerReason: string | null;
  tiedWithBest: string[];
  names: ContestantNames;
};

/** The winner cell's text and, when there is none, why (shown on hover and read by screen readers). */
function winnerOf(e: Listed): { text: string; why: string | null } {
  const name = (id: string) => contestantText(e.names, id);
  if (e.winner) return { text: name(e.winner), why: null };
  if (e.winnerReason === "not_separable")
    return {
      text: "not separable",
      why: `Not separable with these items: ${e.tiedWithBest.map(name).join(", ")} overlap at 95%.`,
    };
  return { text: "—", why: "No judged games yet." };
}

/** Every evaluation, newest first: its set, contestants, status, winner and cost. */
export default function EvaluationsPage() {
  const [list] = createResource(async () => {
    try {
      return { data: await call(api.evaluations.$get({ query: {} })), error: null };
    } catch (err) {
      return { data: null, error: err instanceof Error ? err.message : String(err) };
    }
  });
  return (
    <>
      <h1>Evaluations</h1>
      <p class="muted">
        Which model — or which prompt — is best for your own prompts: every contestant answers every prompt of a set,
        judges compare the answers in both orders, and the report gives win rates with 95% intervals and the cost.
      </p>
      <p>
        <a class="button" href="/evaluations/new">
          New evaluation
        </a>{" "}
        <a href="/prompt-sets">Prompt sets</a> · <a href="/presets">Presets</a>
      </p>
      <Alert message={list()?.error ?? null} />
      <Show when={list()?.data}>
        {(l) => (
          <Show
            when={l().items.length > 0}
            fallback={<p class="muted">No evaluation yet. Start one from a prompt set: New evaluation.</p>}
          >
            <p id="evaluations-title" class="table-title">
              Newest first
            </p>
            <TableFrame labelledBy="evaluations-title">
              <table data-testid="evaluations">
                <thead>
                  <tr>
                    <th scope="col">Name</th>
                    <th scope="col">Prompt set</th>
                    <th scope="col">Contestants</th>
                    <th scope="col">Status</th>
                    <th scope="col">Winner</th>
                    <th scope="col">Cost</th>
                    <th scope="col">Started</th>
                  </tr>
                </thead>
                <tbody>
                  <For each={l().items}>
                    {(e) => (
                      <tr>
                        <th scope="row">
                          <a href={`/evaluations/${encodeURIComponent(e.id)}`}>{e.name}</a>
                        </th>
                        <td>{e.promptSetName ?? e.promptSetId}</td>
                        <td>
                          <ContestantList ids={e.contestants} names={e.names} />
                          <Show when={e.baseline}>
                            {(b) => (
                              <div class="muted small">
                                baseline <ContestantName id={b()} names={e.names} />
                              </div>
                            )}
                          </Show>
                        </td>
                        <td>{e.status}</td>
                        <td data-testid="evaluation-winner" title={winnerOf(e).why ?? undefined}>
                          {winnerOf(e).text}
                          <Show when={winnerOf(e).why}>{(why) => <span class="sr-only"> ({why()})</span>}</Show>
                        </td>
                        <td>${e.spentUsd.toFixed(4)}</td>
                        <td>{new Date(e.createdAt).toLocaleString()}</td>
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
  );
}
