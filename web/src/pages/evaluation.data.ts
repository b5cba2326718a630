/** An evaluation as its page sees it while it runs: the socket's snapshot, then its status and progress events. */
import type { EvaluationEvent } from "../../../worker/shared/events";
import type { EvaluationDetail } from "../../../worker/shared/evaluation";
import { api, call, evaluationLiveUrl } from "../lib/api";
import { createLiveDoc } from "../lib/live-doc";

export const EVALUATION_FINAL = new Set(["completed", "cancelled", "failed"]);

export function createLiveEvaluation(id: string) {
  const doc = createLiveDoc<EvaluationDetail, EvaluationEvent>({
    cacheKey: `quorum.evaluation.${id}`,
    url: (since) => evaluationLiveUrl(id, since),
    load: () => call(api.evaluations[":id"].$get({ param: { id } })),
    apply: (draft, event) => {
      if (event.type === "evaluation.status") {
        draft.status = event.status;
        draft.error = event.error;
      } else if (event.type === "evaluation.progress") draft.progress = event.progress;
    },
    keepLive: (live, fetched) => !EVALUATION_FINAL.has(fetched.status) && EVALUATION_FINAL.has(live.status),
    notFound: "This evaluation doesn't exist.",
  });
  return {
    get detail() {
      return doc.state;
    },
    connection: doc.connection,
    loadError: doc.loadError,
  };
}
