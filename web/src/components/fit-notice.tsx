import { Match, Show, Switch } from "solid-js";
import type { FitStatus, OnlineStatus } from "../../../worker/shared/arena";

/**
 * Says when the Bradley–Terry ratings are still being fitted, were updated for new votes ahead of an exact
 * refit, were cut down, or were not fitted at all; and when online Elo and TrueSkill are still being replayed.
 */
export function FitNotice(props: { fit: FitStatus; online: OnlineStatus }) {
  return (
    <>
      <Switch>
        <Match when={props.fit.status === "computing" ? props.fit : null}>
          {(fit) => (
            <p class="callout" role="status" data-testid="fit-computing">
              Bradley–Terry ratings over {fit().models} models are being fitted in the background;{" "}
              {fit().stale
                ? "the table shows the last finished fit until then."
                : "the table shows them when they are ready."}
              {fit().notice ? ` ${fit().notice}` : ""}
            </p>
          )}
        </Match>
        <Match when={props.fit.status === "refused" ? props.fit : null}>
          {(fit) => (
            <p class="callout" role="status" data-testid="fit-refused">
              {fit().notice}
            </p>
          )}
        </Match>
        <Match when={props.fit.status === "ready" && props.fit.mode === "incremental"}>
          <p class="muted small" data-testid="fit-incremental">
            Ratings include the newest votes, updated from the last exact fit; the intervals keep that fit's widths
            until the exact refit under way now.
          </p>
        </Match>
        <Match when={props.fit.status === "ready" ? props.fit.notice : null}>
          {(notice) => <p class="muted small">{notice()}</p>}
        </Match>
      </Switch>
      <Show when={props.online.status === "computing" ? props.online : null}>
        {(online) => (
          <p class="callout" role="status" data-testid="online-computing">
            Online Elo and TrueSkill are being replayed over this view's battles in the background;{" "}
            {online().stale
              ? "the table shows them as of an earlier point until then."
              : "the table shows them when they are ready."}
          </p>
        )}
      </Show>
    </>
  );
}
