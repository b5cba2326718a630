/**
 * How a council run's record is kept in its room's storage, numbered with the version of its shape. A record
 * kept by older code is brought up to date as it is loaded, in `upgrade`, the one place that knows the older shapes.
 */
import type { RunRecord } from "./record";

type Kv = DurableObjectStorage["kv"];

/** The shape this code writes. 1: `holds` always there. */
export const RUN_RECORD_VERSION = 1;

/** A record as any version of the code kept it (before versions, it carried none). */
type StoredRun = Omit<RunRecord, "holds"> & { version?: number; holds?: string[] };

const RECORD_KEY = "record";

export function saveRun(kv: Kv, record: RunRecord): void {
  kv.put(RECORD_KEY, { ...record, version: RUN_RECORD_VERSION });
}

/** The stored record, brought up to date (its storage is rewritten with the record's next save). */
export function loadRun(kv: Kv): RunRecord | null {
  const stored = kv.get<StoredRun>(RECORD_KEY);
  return stored ? upgrade(stored) : null;
}

function upgrade(stored: StoredRun): RunRecord {
  const { version = 0, ...record } = stored;
  if (version >= RUN_RECORD_VERSION) return record as RunRecord;
  // Before version 1: money set aside was added later (none then).
  return { ...record, holds: record.holds ?? [] };
}
