/**
 * A room's numbered event log, kept in its own SQLite storage so a client that reconnects can catch up.
 * Its table is made with the first event: a room asked about an id it doesn't hold (a vote on a made-up
 * comparison: that route asks the room, not D1) stores nothing.
 */

const TABLE = "CREATE TABLE IF NOT EXISTS events (seq INTEGER PRIMARY KEY, body TEXT NOT NULL)";

export class EventLog<Body extends { type: string }> {
  private seq = 0;
  private made: boolean;

  constructor(private readonly sql: SqlStorage) {
    this.made = sql.exec("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'events'").toArray().length > 0;
    if (this.made) this.seq = sql.exec<{ last: number | null }>("SELECT max(seq) AS last FROM events").one().last ?? 0;
  }

  get lastSeq(): number {
    return this.seq;
  }

  /** Stamps the next sequence number on an event, stores it and returns it serialized. */
  append(body: Body): string {
    if (!this.made) {
      this.sql.exec(TABLE);
      this.made = true;
    }
    const json = JSON.stringify({ ...body, seq: ++this.seq });
    this.sql.exec("INSERT INTO events (seq, body) VALUES (?, ?)", this.seq, json);
    return json;
  }

  /** Serialized events after `seq`, or null when the log can't fill that gap (the client needs a snapshot). */
  after(seq: number): string[] | null {
    if (seq > this.seq) return null;
    if (!this.made) return [];
    return this.sql.exec<{ body: string }>("SELECT body FROM events WHERE seq > ? ORDER BY seq", seq).toArray().map((r) => r.body);
  }

  /** The room's storage was wiped (`deleteAll`): the table went with it, and numbering starts again. */
  forget(): void {
    this.made = false;
    this.seq = 0;
  }
}
