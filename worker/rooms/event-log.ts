/** A room's numbered event log, kept in its own SQLite storage so a client that reconnects can catch up. */

export class EventLog<Body extends { type: string }> {
  private seq: number;

  constructor(private readonly sql: SqlStorage) {
    sql.exec("CREATE TABLE IF NOT EXISTS events (seq INTEGER PRIMARY KEY, body TEXT NOT NULL)");
    const row = sql.exec<{ last: number | null }>("SELECT max(seq) AS last FROM events").one();
    this.seq = row.last ?? 0;
  }

  get lastSeq(): number {
    return this.seq;
  }

  /** Stamps the next sequence number on an event, stores it and returns it serialized. */
  append(body: Body): string {
    const json = JSON.stringify({ ...body, seq: ++this.seq });
    this.sql.exec("INSERT INTO events (seq, body) VALUES (?, ?)", this.seq, json);
    return json;
  }

  /** Serialized events after `seq`, or null when the log can't fill that gap (the client needs a snapshot). */
  after(seq: number): string[] | null {
    if (seq > this.seq) return null;
    return this.sql.exec<{ body: string }>("SELECT body FROM events WHERE seq > ? ORDER BY seq", seq).toArray().map((r) => r.body);
  }
}
