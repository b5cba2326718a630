import { createEffect, createResource, onCleanup, Show } from "solid-js";
import { api } from "../lib/api";
import { formatTotalCost } from "../lib/format";
import { Link, path } from "../lib/router";
import { spendVersion } from "../lib/spend-signal";

const RESERVED_RECHECK_MS = 2_000;

/**
 * "Spent today $0.42 (+$0.10 set aside) of $5.00", a link to the spend page: read again on every page change after live events
 * (lib/spend-signal.ts) and, while something is set aside, every few seconds; shown only once there is a cap or a spend to tell. Set aside: work under way, and blind work until its reveal.
 */
export function SpendLine() {
  const [spend, { refetch }] = createResource(
    () => `${path()}#${spendVersion()}`,
    async () => {
      try {
        const res = await api.spend.$get();
        return res.ok ? await res.json() : null;
      } catch {
        return null;
      }
    },
  );
  // While work is set aside its cost is still to settle, and may settle after the last event a page hears.
  createEffect(() => {
    if (!(spend.latest && spend.latest.reservedUsd > 0)) return;
    const timer = setTimeout(() => void refetch(), RESERVED_RECHECK_MS);
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
