/**
 * A room's numbered event log, kept in its own SQLite storage so a client that reconnects can catch up.
 * Its table is made with the first stored event: a room asked about an id it doesn't hold (a vote on a
 * made-up comparison: that route asks the room, not D1) stores nothing.
 *
 * Deltas (a chunk of text streaming in) are numbered like every other event but kept in memory only.
 * Storing each one would cost a storage write, and the commit every write brings holds the room's outgoing
 * messages and calls until it is done: with several answers streaming, the chunks' commits would queue up
 * behind each other and delay every reader (bench/HISTORY.md has the figures). Nothing is lost by it: a stream's text is saved with its
 * `completed` or `failed` event, and a room that restarts asks again whatever was still streaming.
 *
 * A replay must be gapless (clients close a socket that skips a number and ask again from where they
 * are), so one that would miss a delta this instance no longer holds is refused and the client gets a
 * snapshot. A new instance must never hand out a number a client may already have seen from the last
 * one, so while deltas may come a mark above them is stored, a block at a time. The room reserves a block
 * when a step begins and settles the mark when it ends, each with a write that step makes anyway; a stored
 * event leaves the mark alone. Deleted at every stored event, it was put back by the next chunk of a
 * stream still running, one commit more each time (six answers ending one after another: five).
 */

const TABLE = "CREATE TABLE IF NOT EXISTS events (seq INTEGER PRIMARY KEY, body TEXT NOT NULL)";
/** Storage key of the highest number deltas may have reached since the last stored event. */
export const DELTA_MARK_KEY = "events.delta-mark";
/** Numbers reserved for deltas with one write. */
const MARK_BLOCK = 256;
/** Deltas kept for replays; past this the older half goes, and a client that far behind gets a snapshot. */
export const KEPT_DELTAS = 10_000;

type Kept = {
  seq: number;
  json: string;
};

export class EventLog<Body extends { type: string }> {
  private seq = 0;
  private made: boolean;
  /** this instance's deltas, in order */
  private deltas: Kept[] = [];
  /** the stored mark, or 0 when none is stored */
  private mark: number;
  /** whether the last number handed out is a stored event's (a new instance can go on from it exactly) */
  private lastStored: boolean;

  constructor(
    private readonly storage: DurableObjectStorage,
    private readonly isDelta: (body: Body) => boolean,
  ) {
    const sql = storage.sql;
    this.made = sql.exec("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'events'").toArray().length > 0;
    if (this.made) this.seq = sql.exec<{ last: number | null }>("SELECT max(seq) AS last FROM events").one().last ?? 0;
    this.mark = storage.kv.get<number>(DELTA_MARK_KEY) ?? 0;
    this.lastStored = this.seq >= this.mark;
    this.seq = Math.max(this.seq, this.mark);
  }

  get lastSeq(): number {
    return this.seq;
  }

  /** Stamps the next sequence number on an event, keeps it (a delta in memory, anything else in storage) and returns it serialized. */
  append(body: Body): string {
    const json = JSON.stringify({ ...body, seq: ++this.seq });
    if (this.isDelta(body)) {
      this.lastStored = false;
      if (this.seq > this.mark) this.reserveFrom(this.seq);
      this.deltas.push({ seq: this.seq, json });
      if (this.deltas.length > KEPT_DELTAS) this.deltas = this.deltas.slice(KEPT_DELTAS / 2);
      return json;
    }
    if (!this.made) {
      this.storage.sql.exec(TABLE);
      this.made = true;
    }
    this.storage.sql.exec("INSERT INTO events (seq, body) VALUES (?, ?)", this.seq, json);
    this.lastStored = true;
    // A mark this event reached has nothing left to cover.
    if (this.mark && this.seq >= this.mark) this.dropMark();
    return json;
  }

  /** Deltas may come now (a step begins): a block above the last number is reserved, unless one already is. */
  reserve(): void {
    if (this.mark <= this.seq) this.reserveFrom(this.seq + 1);
  }

  /** No deltas come for now (a step ended): once the last number handed out is a stored event's, the mark goes. */
  settle(): void {
    if (this.mark && this.lastStored) this.dropMark();
  }

  /** Numbers from `first` on, a block of them, may go to deltas without another write. */
  private reserveFrom(first: number): void {
    this.mark = first + MARK_BLOCK - 1;
    this.storage.kv.put(DELTA_MARK_KEY, this.mark);
  }

  private dropMark(): void {
    this.storage.kv.delete(DELTA_MARK_KEY);
    this.mark = 0;
  }

  /** Serialized events after `seq`, every one of them, or null when the log can't fill that gap (the client needs a snapshot). */
  after(seq: number): string[] | null {
    if (seq > this.seq) return null;
    if (seq === this.seq) return [];
    const stored = this.made
      ? this.storage.sql.exec<Kept>("SELECT seq, body AS json FROM events WHERE seq > ? ORDER BY seq", seq).toArray()
      : [];
    let d = lowerBound(this.deltas, seq + 1);
    let s = 0;
    const out: string[] = [];
    for (let next = seq + 1; next <= this.seq; next++) {
      if (s < stored.length && stored[s].seq === next) out.push(stored[s++].json);
      else if (d < this.deltas.length && this.deltas[d].seq === next) out.push(this.deltas[d++].json);
      else return null;
    }
    return out;
  }

  /** The room's storage was wiped (`deleteAll`): the table and mark went with it, and numbering starts again. */
  forget(): void {
    this.made = false;
    this.seq = 0;
    this.mark = 0;
    this.lastStored = true;
    this.deltas = [];
  }
}

/** The index of the first kept delta numbered `seq` or above. */
function lowerBound(kept: Kept[], seq: number): number {
  let lo = 0;
  let hi = kept.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (kept[mid].seq < seq) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
