import { closedReason } from "../../arena/archive-policy";
import type { ComparisonRecord } from "../comparison-record";
import { type Refusal, refuse } from "../room-result";

/** A comparison past the archive's window takes nothing that writes to its D1 row, which may be gone. */
export function closedRefusal(env: Env, record: ComparisonRecord): Refusal | null {
  const reason = closedReason(env, record.createdAt);
  return reason ? refuse("closed", reason) : null;
}
