import type { ComparisonEventBody } from "../../shared/events";
import type { ComparisonRecord } from "../comparison-record";
import type { ReplyRules } from "../reply";

/** What a piece of a comparison (its sides, its vote desk, its judge panel) may touch: the room keeps the rest. */
export interface ComparisonContext {
  readonly env: Env;
  /** the live record; mutate it, then `save()` */
  readonly record: ComparisonRecord;
  /** the record to the room's storage, without its votes (each has a key of its own: storage.ts) */
  save(): void;
  /** the room's storage, where each vote is kept under its own key */
  readonly kv: DurableObjectStorage["kv"];
  emit(event: ComparisonEventBody): void;
  /** the rules a provider call runs under: aborted once the work in flight is retired */
  rules(): ReplyRules;
  /** false once the work of `generation` was retired (cancelled, superseded, the watchdog): stop writing */
  current(generation: number): boolean;
  /** asks the room's alarm to run the next step now */
  wake(): Promise<void>;
}
