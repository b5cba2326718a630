/**
 * A room's D1 writes, off the path of its provider calls. A step queues the statements of what it just
 * finished (already saved in the room's own storage) and goes on; the queue runs them in the order queued,
 * every statement queued while a batch is under way going into the next batch (one D1 round trip for all
 * of them). A batch starts COALESCE_MS after the first write queued for it, not at once: a phase queues its
 * status write in the same moment as it starts its provider calls, and under `wrangler dev` D1 runs on the
 * room's thread, so a batch sent at once would be processed before the calls' requests reached their
 * sockets and hold them up (bench/HISTORY.md has the figures). Whoever needs D1 to hold everything so far — the end of a run, an RPC before it
 * answers — awaits `flush()`, which starts the batch at once. A batch that fails is made good by writing
 * the room's whole state again (every write is an upsert or a delete keyed by the room's own ids, so this
 * repeats nothing), and so is a room whose previous instance may have died with writes still queued.
 */
import { runWrites, type Write } from "../db/statements";

/** How long the first queued write waits for company before its batch starts (unless someone flushes). */
const COALESCE_MS = 25;

export class WriteQueue {
  private queued: Write[] = [];
  private draining: Promise<void> | null = null;
  private failure: unknown = null;
  private waiting: ReturnType<typeof setTimeout> | null = null;

  /**
   * `everything` writes the room's whole state, for repairing D1 after a failed batch; `coalesceMs` is how long
   * the first write waits for company (longer for a room whose writes nobody waits on as they happen).
   */
  constructor(
    private readonly d1: D1Database,
    private readonly everything: () => Write[],
    private readonly coalesceMs = COALESCE_MS,
  ) {}

  /** Queues `writes` after every earlier one; they run in one batch with whatever else is queued by then. */
  push(...writes: Write[]): void {
    this.queued.push(...writes);
    // A batch under way takes these next; otherwise they wait (at most coalesceMs) for company.
    if (!this.draining) this.waiting ??= setTimeout(() => this.start(), this.coalesceMs);
  }

  /** Resolves once D1 holds everything queued so far; throws when that could not be made so. */
  async flush(): Promise<void> {
    this.start();
    while (this.draining) await this.draining;
    if (this.failure === null) return;
    this.failure = null;
    try {
      await runWrites(this.d1, this.everything());
    } catch (err) {
      this.failure = err;
      throw err;
    }
  }

  /** Queues the room's whole state (a new instance of a room with work left: the last one may have died mid-write). */
  resync(): void {
    this.push(...this.everything());
  }

  /** Drops what is queued and not yet sent: the room is being deleted, and D1 rows with it. */
  discard(): void {
    this.queued = [];
    this.start();
  }

  /** Ends the window's wait and sends what is queued, unless a batch under way will take it next. */
  private start(): void {
    if (this.waiting !== null) clearTimeout(this.waiting);
    this.waiting = null;
    if (this.queued.length) this.draining ??= this.drain();
  }

  private async drain(): Promise<void> {
    try {
      while (this.queued.length) {
        const batch = this.queued;
        this.queued = [];
        try {
          await runWrites(this.d1, batch);
        } catch (err) {
          // Later batches still run; the next flush writes the whole state again.
          this.failure ??= err;
        }
      }
    } finally {
      this.draining = null;
    }
  }
}
