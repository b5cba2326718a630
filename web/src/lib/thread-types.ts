/** A chat thread's shapes as the page reads them: the Worker's own (types only, so no zod reaches the bundle). */
export type {
  Thread,
  ThreadDetail,
  ThreadMessage,
  ThreadMode as MessageMode,
  ThreadSummary,
} from "../../../worker/shared/thread";
export type { ThreadEvent } from "../../../worker/shared/events";
export { THREAD_MODES as MESSAGE_MODES } from "../../../worker/shared/constants";
