/** What an evaluation's pieces (its calls, its scheduler) may touch of the room. */
import type { ReplyRules } from "../reply";
import type { CallRow, CallStore } from "./call-store";
import type { EvaluationRecord } from "./record";

export interface EvaluationContext {
  env: Env;
  record: EvaluationRecord;
  store: CallStore;
  rules(): ReplyRules;
  /** false once the work was retired (cancelled, superseded): from then on nothing is stored or announced */
  current(): boolean;
  /** a finished call, already stored (and its slot filled again): write its D1 rows and announce it */
  settled(row: CallRow): void;
  /** a provider answered 429: no new call to it starts for `ms` */
  backOff(provider: string, ms: number): void;
}
