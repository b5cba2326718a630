import { For, Show } from "solid-js";
import { scoringOf } from "../../../worker/shared/rubric";
import type { RunDetail } from "../../../worker/shared/run";
import { formatScore } from "../lib/format";
import { ContestantList } from "./contestant-name";
import { TableFrame } from "./table-frame";

/**
 * Who reviews this run and by what, when it isn't the usual (its answerers, the six default scores): the models
 * that review without answering, and a custom rubric with each dimension's weight in the overall.
 */
export function ReviewPlan(props: { detail: RunDetail }) {
  const settings = () => props.detail.run.settings;
  const judgesOnly = () =>
    (settings().reviewers ?? []).filter((id) => !props.detail.run.models.some((m) => m.id === id));
  const scoring = () => scoringOf(settings());
  const names = () => props.detail.run.names ?? {};
  return (
    <>
      <Show when={settings().reviewers}>
        <p class="small" data-testid="review-plan-reviewers">
          Reviewers: <ContestantList ids={settings().reviewers!} names={names()} />.
          <Show when={judgesOnly().length}>
            {" "}
            Judge only (they review and rank every answer but wrote none):{" "}
            <ContestantList ids={judgesOnly()} names={names()} />.
          </Show>
        </p>
      </Show>
      <Show when={scoring().descriptions}>
        {(descriptions) => (
          <TableFrame label="Rubric">
            <table data-testid="rubric">
              <caption>
                Rubric: each answer scored 0–10 per dimension; its overall is Σ weight·score ÷ Σ weight
                {settings().category === undefined ? "" : ` (weights of category “${settings().category}”)`}
              </caption>
              <thead>
                <tr>
                  <th scope="col">Dimension</th>
                  <th scope="col">What it judges</th>
                  <th scope="col">Weight</th>
                </tr>
              </thead>
              <tbody>
                <For each={scoring().keys}>
                  {(key) => (
                    <tr>
                      <th scope="row">{key}</th>
                      <td>{descriptions()[key]}</td>
                      <td>{formatScore(scoring().weights[key], 2)}</td>
                    </tr>
                  )}
                </For>
              </tbody>
            </table>
          </TableFrame>
        )}
      </Show>
    </>
  );
}
