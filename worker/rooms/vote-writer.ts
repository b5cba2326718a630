/**
 * VoteWriter: group commit for votes. A comparison room sends each vote's rows to the writer of its shard and
 * waits until D1 holds them. A vote that finds the writer idle goes to D1 at once, alone, so a quiet arena
 * waits no longer than before; votes that arrive while a transaction is under way queue, and the next
 * transaction takes them all (up to MAX_VOTES). A busy arena so pays D1's cost per transaction (the round
 * trip, the commit) once per batch rather than once per vote, several times the votes a second of one
 * transaction each (`npm run bench` d1-rate prints both). It keeps nothing of its own: a
 * vote is answered only once its transaction commits, so an evicted writer loses nothing.
 *
 * A transaction fails as a whole, and one vote can fail it (its Idempotency-Key taken by another request
 * meanwhile): a batch that fails is written again one vote at a time, so only that vote fails, and its
 * room answers it as it would have alone. That failure comes back as a value, not a rejection: the runtime
 * logs a rejected RPC call as an uncaught error of the writer, though its caller handles it.
 */
import { DurableObject } from "cloudflare:workers";
import { type VoteRows, voteStatements } from "../db/arena-queries";
import { shardName } from "./shard";

/** Votes per transaction at most: 5 statements each at most, under D1's per-call limits. */
const MAX_VOTES = 20;

/**
 * Writers votes are spread over, by comparison id. One local D1 writes one transaction at a time, so fewer
 * writers make bigger batches; deployed, a few keep any one writer far from busy at the rates of docs/scaling.md.
 */
export const WRITER_SHARDS = 4;

/** The writer for votes on comparison `id`. */
export function voteWriterFor(env: Env, id: string): DurableObjectStub<VoteWriter> {
  return env.VOTE_WRITER.get(env.VOTE_WRITER.idFromName(shardName(id, WRITER_SHARDS)));
}

/** Whether D1 holds the vote; when not, D1's error message. */
export type WriteOutcome = { ok: true } | { ok: false; error: string };

interface Pending {
  rows: VoteRows;
  settle(outcome: WriteOutcome): void;
}

export class VoteWriter extends DurableObject<Env> {
  private queued: Pending[] = [];
  private writing = false;

  /** Answers once D1 holds the vote, or with D1's error when the vote's own transaction failed. */
  async write(rows: VoteRows): Promise<WriteOutcome> {
    const written = new Promise<WriteOutcome>((settle) => this.queued.push({ rows, settle }));
    if (!this.writing) void this.drain();
    return written;
  }

  private async drain(): Promise<void> {
    this.writing = true;
    try {
      while (this.queued.length) await this.commit(this.queued.splice(0, MAX_VOTES));
    } finally {
      this.writing = false;
    }
  }

  private async commit(batch: Pending[]): Promise<void> {
    try {
      await this.env.DB.batch(batch.flatMap((p) => voteStatements(this.env.DB, p.rows)));
    } catch (err) {
      if (batch.length === 1)
        return batch[0].settle({ ok: false, error: err instanceof Error ? err.message : String(err) });
      for (const p of batch) await this.commit([p]);
      return;
    }
    for (const p of batch) p.settle({ ok: true });
  }
}
