/** A run as the run page sees it: loaded from the live socket, kept current event by event. */
import type { RunEvent } from "../../../worker/shared/events";
import type { RunDetail } from "../../../worker/shared/run";
import { api, call, liveUrl } from "../lib/api";
import { createLiveDoc } from "../lib/live-doc";
import { applyEvent, isTerminal } from "../lib/run-state";

const runCacheKey = (id: string) => `quorum.run.${id}`;

export function createLiveRun(id: string) {
  const doc = createLiveDoc<RunDetail, RunEvent>({
    cacheKey: runCacheKey(id),
    url: (since) => liveUrl(id, since),
    load: () => call(api.runs[":id"].$get({ param: { id } })),
    apply: applyEvent,
    // An ended run fetched now is final; otherwise a live copy that already ended is newer than the fetch.
    keepLive: (live, fetched) => !isTerminal(fetched) && isTerminal(live),
    notFound: "This run doesn't exist (it may have been deleted).",
  });
  return {
    get detail() {
      return doc.state;
    },
    connection: doc.connection,
    loadError: doc.loadError,
  };
}
