import { ExportLinks } from "./export-links";
import { PickBox } from "./pick-box";
import type { RunListItem } from "../lib/api";
import { Link } from "../lib/router";
import { describeCost } from "../../../worker/shared/run";
import { COST_HIDDEN, formatTime, formatTotalCost, RUN_STATUS_TEXT, shortModelName } from "../lib/format";
import { ConfirmDelete } from "./confirm-delete";
import { ContestantList } from "./contestant-name";

/** One council run in History: its question, status, winner, models and cost, and what can be done with it. */
export function HistoryRun(props: {
  run: RunListItem;
  onDelete: (run: RunListItem) => Promise<void>;
  picked: boolean;
  onPick: (picked: boolean) => void;
}) {
  const run = props.run;
  return (
    <li class="card history-item" data-run-id={run.id}>
      <div class="history-main">
        <PickBox picked={props.picked} onPick={props.onPick} text={run.question} />
        <p class="history-kind muted small">Council run</p>
        <Link href={`/runs/${run.id}`} class="history-question">
          {run.question}
        </Link>
        <p class="muted small">
          <time datetime={new Date(run.createdAt).toISOString()}>{formatTime(run.createdAt)}</time> ·{" "}
          <span class={`badge status-${run.status}`}>{RUN_STATUS_TEXT[run.status]}</span> ·{" "}
          {run.winner ? (
            <>
              Winner:{" "}
              <strong>
                {run.winner.displayName ??
                  (run.winner.modelId ? shortModelName(run.winner.modelId) : `Answer ${run.winner.label}`)}
              </strong>
            </>
          ) : (
            "No winner"
          )}{" "}
          · <ContestantList ids={run.models} names={run.names} /> ·{" "}
          <span data-testid="history-cost">
            estimated cost {run.costHidden ? COST_HIDDEN : describeCost(run, formatTotalCost)}
          </span>
        </p>
      </div>
      <div class="history-actions" role="group" aria-label={`Actions for "${run.question.slice(0, 60)}"`}>
        <Link class="button small" href={`/runs/${run.id}`}>
          Open
        </Link>
        <ExportLinks runId={run.id} small />
        <ConfirmDelete onDelete={() => props.onDelete(run)} />
      </div>
    </li>
  );
}
