/** How a comparison's record is kept in its room's storage: the record, and each vote under a key of its own. */
import type { ComparisonRecord, VoteRecord } from "../comparison-record";

type Kv = DurableObjectStorage["kv"];

const RECORD_KEY = "record";
const VOTE_PREFIX = "vote:";
/** Keys sort as the votes were cast. */
const voteKey = (v: VoteRecord) => `${VOTE_PREFIX}${String(v.createdAt).padStart(15, "0")}:${v.voteId}`;

/** The record without its votes: each vote has a key of its own (saveVote), so a vote writes only itself. */
export function saveRecord(kv: Kv, record: ComparisonRecord): void {
  kv.put(RECORD_KEY, { ...record, votes: [] });
}

export function saveVote(kv: Kv, vote: VoteRecord): void {
  kv.put(voteKey(vote), vote);
}

export function deleteVote(kv: Kv, vote: VoteRecord): void {
  kv.delete(voteKey(vote));
}

/** The stored record with its votes, oldest first; a record saved with its votes inline moves them to their keys. */
export function loadRecord(kv: Kv): ComparisonRecord | null {
  const stored = kv.get<ComparisonRecord>(RECORD_KEY);
  if (!stored) return null;
  for (const vote of stored.votes ?? []) saveVote(kv, vote);
  const votes = [...kv.list<VoteRecord>({ prefix: VOTE_PREFIX })].map(([, vote]) => vote);
  return { ...stored, votes };
}
