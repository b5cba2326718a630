import { createEffect, createResource, createSignal, onCleanup, Show } from "solid-js";
import { api } from "../lib/api";
import { formatTotalCost } from "../lib/format";
import { nextRecheck, type Recheck } from "../lib/spend-recheck";
import { Link, path } from "../lib/router";
import { spendVersion } from "../lib/spend-signal";

/** `refetch`'s value for a read the page asked for (the tab shown again), as against a timed re-read. */
const PROMPTED = "prompted";

/** Whether the tab is in view, kept up to date for as long as the calling component lives. */
function createPageVisible() {
  const [visible, setVisible] = createSignal(document.visibilityState === "visible");
  const onChange = () => setVisible(document.visibilityState === "visible");
  document.addEventListener("visibilitychange", onChange);
  onCleanup(() => document.removeEventListener("visibilitychange", onChange));
  return visible;
}

/**
 * "Spent today $0.42 (+$0.10 set aside) of $5.00", a link to the spend page: read again on every page change, after
 * live events (lib/spend-signal.ts) and, while something is set aside and the tab is in view, on the schedule of
 * lib/spend-recheck.ts; shown only once there is a cap or a spend to tell. Set aside: work under way, and blind work
 * until its reveal.
 */
export function SpendLine() {
  let recheck: Recheck | null = null;
  const [spend, { refetch }] = createResource(
    () => `${path()}#${spendVersion()}`,
    async (_, { refetching }: { refetching: typeof PROMPTED | boolean }) => {
      try {
        const res = await api.spend.$get();
        if (!res.ok) return null;
        const s = await res.json();
        const figures = `${s.spentUsd}|${s.reservedUsd}|${s.capUsd}|${s.unknownCostCalls}`;
        recheck = nextRecheck(recheck, figures, refetching !== true);
        return { ...s, recheckMs: recheck.delayMs };
      } catch {
        return null;
      }
    },
  );
  const visible = createPageVisible();
  // Back in view after a while: whatever was set aside may have settled meanwhile.
  createEffect((wasVisible: boolean) => {
    if (visible() && !wasVisible) void refetch(PROMPTED);
    return visible();
  }, visible());
  // While work is set aside its cost is still to settle, and may settle after the last event a page hears.
  createEffect(() => {
    const s = spend.latest;
    if (!(s && s.reservedUsd > 0 && visible())) return;
    const timer = setTimeout(() => void refetch(), s.recheckMs);
    onCleanup(() => clearTimeout(timer));
  });
  const shown = () => {
    const s = spend.latest;
    return s && (s.capUsd !== null || s.spentUsd > 0 || s.reservedUsd > 0 || s.unknownCostCalls > 0) ? s : null;
  };
  return (
    <Show when={shown()}>
      {(s) => (
        <Link
          href="/spend"
          class="spend-line spend-line-link muted small"
          classList={{ over: s().capUsd !== null && s().spentUsd + s().reservedUsd >= s().capUsd! }}
          data-testid="spend-line"
          title="Since 00:00 UTC, runs and arena together (QUORUM_MAX_DAY_USD). Open the spend page."
        >
          Spent today {formatTotalCost(s().spentUsd)}
          <Show when={s().reservedUsd > 0}> (+{formatTotalCost(s().reservedUsd)} set aside)</Show>
          <Show when={s().capUsd !== null}> of {formatTotalCost(s().capUsd!)}</Show>
          <Show when={s().unknownCostCalls > 0}> (+{s().unknownCostCalls} calls with no price)</Show>
        </Link>
      )}
    </Show>
  );
}
