import type { ThreadEventBody } from "../../shared/events";
import type { Thread, ThreadMessage } from "../../shared/thread";
import type { ReplyRules } from "../reply";
import type { MessageRecord } from "./record";

/** What a piece of a thread (a reply's answering, a dual reply's vote) may touch: the room keeps the rest. */
export interface ThreadContext {
  readonly env: Env;
  readonly thread: Thread;
  /** the live messages, in order; mutate one, then `saveMessage` it */
  readonly messages: MessageRecord[];
  saveMessage(message: MessageRecord): void;
  view(message: MessageRecord): ThreadMessage;
  emit(event: ThreadEventBody): void;
  /** the rules a provider call runs under: aborted once the work in flight is retired */
  rules(): ReplyRules;
  /** false once the work of `generation` was retired: stop writing */
  current(generation: number): boolean;
}
