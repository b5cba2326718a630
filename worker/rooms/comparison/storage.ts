/**
 * How a comparison's record is kept in its room's storage: the record, numbered with the version of its
 * shape, and each vote under a key of its own. A record kept by older code is brought up to date as it
 * is loaded, in `upgrade`, the one place that knows the older shapes.
 */
import type { ComparisonRecord, SideRecord, VoteRecord } from "../comparison-record";

type Kv = DurableObjectStorage["kv"];

/** The shape this code writes. 1: votes under their own keys; holds, judgeSpend and each side's costUsd always there. */
export const COMPARISON_RECORD_VERSION = 1;

/** A record as any version of the code kept it (before versions, it carried none). */
type StoredComparison = Omit<ComparisonRecord, "holds" | "judgeSpend" | "turns"> & {
  version?: number;
  holds?: string[];
  judgeSpend?: ComparisonRecord["judgeSpend"];
  turns: (Omit<ComparisonRecord["turns"][number], "left" | "right"> & { left: StoredSide; right: StoredSide })[];
};
type StoredSide = Omit<SideRecord, "costUsd"> & { costUsd?: number | null };

const RECORD_KEY = "record";
const VOTE_PREFIX = "vote:";
/** Keys sort as the votes were cast. */
const voteKey = (v: VoteRecord) => `${VOTE_PREFIX}${String(v.createdAt).padStart(15, "0")}:${v.voteId}`;

/** The record without its votes: each vote has a key of its own (saveVote), so a vote writes only itself. */
export function saveRecord(kv: Kv, record: ComparisonRecord): void {
  kv.put(RECORD_KEY, { ...record, votes: [], version: COMPARISON_RECORD_VERSION });
}

export function saveVote(kv: Kv, vote: VoteRecord): void {
  kv.put(voteKey(vote), vote);
}

export function deleteVote(kv: Kv, vote: VoteRecord): void {
  kv.delete(voteKey(vote));
}

/** The stored record, brought up to date, with its votes, oldest first. */
export function loadRecord(kv: Kv): ComparisonRecord | null {
  const stored = kv.get<StoredComparison>(RECORD_KEY);
  if (!stored) return null;
  const record = upgrade(kv, stored);
  const votes = [...kv.list<VoteRecord>({ prefix: VOTE_PREFIX })].map(([, vote]) => vote);
  return { ...record, votes };
}

/** Brings a record of any earlier shape to the current one (its storage is rewritten with the record's next save). */
function upgrade(kv: Kv, stored: StoredComparison): ComparisonRecord {
  const { version = 0, ...record } = stored;
  if (version >= COMPARISON_RECORD_VERSION) return record as ComparisonRecord;
  // Before version 1: votes were kept inline (they move to their own keys), holds and the judges' spend were
  // added later (none then), and sides from before costs were kept have no cost (unknown).
  for (const vote of record.votes ?? []) saveVote(kv, vote);
  return {
    ...record,
    holds: record.holds ?? [],
    judgeSpend: record.judgeSpend ?? { costUsd: 0, unknownCostCalls: 0 },
    turns: record.turns.map((t) => ({ ...t, left: withCost(t.left), right: withCost(t.right) })),
  };
}

const withCost = (s: StoredSide): SideRecord => ({ ...s, costUsd: s.costUsd ?? null });
