import type { Db } from "../db/queries";
import type { Write } from "../db/statements";
import type { RunEventBody } from "../shared/events";
import type { RetryPolicy } from "./limits";
import type { RunRecord } from "./record";

/** What a phase of a council run may touch: the room hands it over and keeps the rest to itself. */
export interface PhaseContext {
  env: Env;
  db: Db;
  /** the live record; mutate it, then `save()` */
  record: RunRecord;
  /** aborts when the run is cancelled or superseded */
  cancel: AbortSignal;
  policy: RetryPolicy;
  /** false once the work this phase belongs to was cancelled or superseded: stop writing */
  current(): boolean;
  emit(event: RunEventBody): void;
  save(): void;
  /** queues D1 writes behind every earlier one, off the provider calls' path; the run's end waits for them */
  write(...writes: Write[]): void;
  /** true while model ids must stay hidden */
  blind(): boolean;
}
