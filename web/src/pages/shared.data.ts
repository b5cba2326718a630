/** A shared run or comparison as its read-only page sees it: opened through the link, kept live over the link's socket. */
import type { ComparisonDetail } from "../../../worker/shared/arena";
import type { ComparisonEvent, RunEvent } from "../../../worker/shared/events";
import type { RunDetail } from "../../../worker/shared/run";
import { api, ApiError, call, sharedLiveUrl } from "../lib/api";
import { applyComparisonEvent } from "../lib/arena-state";
import { createLiveDoc } from "../lib/live-doc";
import { applyEvent, isTerminal } from "../lib/run-state";

export const DEAD_LINK =
  "This link opens nothing: it was revoked, or what it showed was deleted. Ask whoever sent it for a new one.";

export const openShared = (token: string) => call(api.shared[":token"].$get({ param: { token } }));

/** A link never changes kind: another kind means the page is stale, as good as a dead link. */
const deadLink = () => new ApiError(404, "not_found", DEAD_LINK);

const cacheKey = (token: string) => `quorum.shared.${token}`;

export function createSharedRun(token: string, initial: RunDetail) {
  return createLiveDoc<RunDetail, RunEvent>({
    cacheKey: cacheKey(token),
    url: (since) => sharedLiveUrl(token, since),
    load: async () => {
      const shared = await openShared(token);
      if (shared.kind !== "run") throw deadLink();
      return shared.item;
    },
    apply: applyEvent,
    keepLive: (live, fetched) => !isTerminal(fetched) && isTerminal(live),
    notFound: DEAD_LINK,
    initial,
  });
}

export function createSharedComparison(token: string, initial: ComparisonDetail) {
  return createLiveDoc<ComparisonDetail, ComparisonEvent>({
    cacheKey: cacheKey(token),
    url: (since) => sharedLiveUrl(token, since),
    load: async () => {
      const shared = await openShared(token);
      if (shared.kind !== "comparison") throw deadLink();
      return shared.item;
    },
    apply: applyComparisonEvent,
    notFound: DEAD_LINK,
    initial,
  });
}
