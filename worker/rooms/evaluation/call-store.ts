/**
 * An evaluation's calls in the room's own SQLite storage: one row per call, keyed by its deterministic id
 * (evaluation/plan.ts), holding its state and, once it is done, its result. A result is stored before it is
 * announced or written to D1, so a room that restarts makes again only calls that never completed; `written`
 * says whether D1 is known to hold a call's rows yet. The items (prompt, reference, the most they may cost) sit
 * beside the calls, so nothing the size of the evaluation stays in memory. A call under way is marked so in
 * memory only: a new instance makes again every call not stored as finished, whatever was under way before it.
 * The counts progress is made of are kept in memory too (tally.ts), moved as each call starts and ends.
 */
import type { FivePointVerdict } from "../../shared/constants";
import type { PromptSetItem } from "../../shared/prompt-set";
import { CallTally } from "./tally";

export type CallStatus = "pending" | "running" | "done" | "failed" | "blocked" | "cancelled";

/**
 * An answer, a pairwise judge's verdict on one order, a council reviewer's ranking of an item's answers, or a goal
 * evaluation's battle (its `first` on side A, played in its own GoalBattleRoom: goal-call.ts).
 */
export type CallKind = "answer" | "judge" | "review" | "goal";

export type CallRow = {
  id: string;
  kind: CallKind;
  item: number;
  sample: number;
  /** the contestant that answers, or the judge */
  model: string;
  provider: string;
  first: string | null;
  second: string | null;
  dep_a: string | null;
  dep_b: string | null;
  status: CallStatus;
  text: string | null;
  verdict: FivePointVerdict | null;
  reasons: string | null;
  /** a council review as stored (council-round.ts's StoredReview, JSON) */
  review: string | null;
  /** a goal battle's outcome as stored (goal-call.ts's GoalOutcome, JSON) */
  outcome: string | null;
  /** a goal call's battles started so far before this one (a pause or a retry starts a fresh battle) */
  attempt: number;
  error: string | null;
  latency_ms: number | null;
  first_token_ms: number | null;
  tokens_in: number | null;
  tokens_out: number | null;
  cost_usd: number | null;
  truncated: number;
  completed_at: number | null;
  written: number;
  seq: number | null;
};

export type ItemRow = {
  idx: number;
  item_id: string;
  prompt: string;
  category: string | null;
  reference: string | null;
  turns: string | null;
  max_usd: number;
  /** a goal evaluation's item: its goal, persona and marker (ItemGoal, JSON) */
  goal: string | null;
};

/** What a goal evaluation's item asks of its battles. */
export interface ItemGoal {
  goal: string;
  persona: string | null;
  marker: string | null;
}

export interface NewCall {
  id: string;
  kind: CallKind;
  item: number;
  sample: number;
  model: string;
  provider: string;
  first?: string;
  second?: string;
  /** the answers a judge call reads; a review's one: its reviewer's own answer */
  deps?: [string, string] | [string];
}

/** A finished call's result, as it is stored. */
export interface CallResult {
  status: "done" | "failed";
  text?: string | null;
  verdict?: FivePointVerdict | null;
  reasons?: string | null;
  review?: string | null;
  outcome?: string | null;
  error: string | null;
  latencyMs: number | null;
  firstTokenMs?: number | null;
  tokensIn: number | null;
  tokensOut: number | null;
  costUsd: number | null;
  truncated?: boolean;
}

const SCHEMA = [
  `CREATE TABLE IF NOT EXISTS eval_items (idx INTEGER PRIMARY KEY, item_id TEXT NOT NULL, prompt TEXT NOT NULL,
    category TEXT, reference TEXT, turns TEXT, max_usd REAL NOT NULL)`,
  `CREATE TABLE IF NOT EXISTS eval_calls (id TEXT PRIMARY KEY, kind TEXT NOT NULL, item INTEGER NOT NULL,
    sample INTEGER NOT NULL, model TEXT NOT NULL, provider TEXT NOT NULL, first TEXT, second TEXT, dep_a TEXT, dep_b TEXT,
    status TEXT NOT NULL, text TEXT, verdict TEXT, reasons TEXT, error TEXT, latency_ms INTEGER, first_token_ms INTEGER,
    tokens_in INTEGER, tokens_out INTEGER, cost_usd REAL, truncated INTEGER NOT NULL DEFAULT 0, completed_at INTEGER,
    written INTEGER NOT NULL DEFAULT 0, seq INTEGER, earlier_usd REAL NOT NULL DEFAULT 0)`,
  "CREATE INDEX IF NOT EXISTS eval_calls_next ON eval_calls (status, provider, kind, item)",
  "CREATE INDEX IF NOT EXISTS eval_calls_item ON eval_calls (item, status)",
  "CREATE INDEX IF NOT EXISTS eval_calls_dep_a ON eval_calls (dep_a)",
  "CREATE INDEX IF NOT EXISTS eval_calls_dep_b ON eval_calls (dep_b)",
  "CREATE INDEX IF NOT EXISTS eval_calls_unwritten ON eval_calls (written, seq)",
];

/** Columns added since the tables were first made: a room made before them gets them when it next loads. */
const ADDED_ITEM_COLUMNS = { goal: "TEXT" } as const;
const ADDED_COLUMNS = { review: "TEXT", outcome: "TEXT", attempt: "INTEGER NOT NULL DEFAULT 0" } as const;

/** Calls still to make or under way. */
const LIVE = "status IN ('pending', 'running')";

export class CallStore {
  private readonly sql: SqlStorage;
  /** the number the next finished call gets: results are written to D1 in this order */
  private nextSeq: number;
  /** the calls this instance has under way (stored as pending until they finish) */
  private readonly running = new Set<string>();
  private tally: CallTally;

  constructor(private readonly storage: DurableObjectStorage) {
    this.sql = storage.sql;
    for (const statement of SCHEMA) this.sql.exec(statement);
    this.addColumns("eval_calls", ADDED_COLUMNS);
    this.addColumns("eval_items", ADDED_ITEM_COLUMNS);
    this.nextSeq = (this.sql.exec<{ s: number | null }>("SELECT max(seq) AS s FROM eval_calls").one().s ?? 0) + 1;
    this.tally = this.reload();
  }

  private addColumns(table: string, columns: Record<string, string>): void {
    const have = new Set(
      this.sql
        .exec<{ name: string }>(`SELECT name FROM pragma_table_info('${table}')`)
        .toArray()
        .map((c) => c.name),
    );
    for (const [name, type] of Object.entries(columns))
      if (!have.has(name)) this.sql.exec(`ALTER TABLE ${table} ADD COLUMN ${name} ${type}`);
  }

  /** Stores the items and every call of the evaluation in one transaction. */
  plan(items: (PromptSetItem & { maxUsd: number })[], calls: Iterable<NewCall>): void {
    this.storage.transactionSync(() => {
      for (const [idx, it] of items.entries())
        this.sql.exec(
          "INSERT INTO eval_items (idx, item_id, prompt, category, reference, turns, max_usd, goal) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
          idx,
          it.id,
          it.prompt,
          it.category,
          it.reference,
          it.turns ? JSON.stringify(it.turns) : null,
          it.maxUsd,
          it.goal
            ? JSON.stringify({
                goal: it.goal,
                persona: it.persona ?? null,
                marker: it.marker ?? null,
              } satisfies ItemGoal)
            : null,
        );
      for (const c of calls)
        this.sql.exec(
          "INSERT INTO eval_calls (id, kind, item, sample, model, provider, first, second, dep_a, dep_b, status) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'pending')",
          c.id,
          c.kind,
          c.item,
          c.sample,
          c.model,
          c.provider,
          c.first ?? null,
          c.second ?? null,
          c.deps?.[0] ?? null,
          c.deps?.[1] ?? null,
        );
    });
    this.tally = this.reload();
  }

  item(idx: number): ItemRow {
    return this.sql.exec<ItemRow>("SELECT * FROM eval_items WHERE idx = ?", idx).one();
  }

  /** The items at these places in the prompt set (a shard's, evaluation/concurrency.ts), as they were planned. */
  itemsAt(indices: number[]): (PromptSetItem & { maxUsd: number })[] {
    return this.sql
      .exec<ItemRow>(
        "SELECT * FROM eval_items WHERE idx IN (SELECT value FROM json_each(?)) ORDER BY idx",
        JSON.stringify(indices),
      )
      .toArray()
      .map((it) => {
        const goal = it.goal === null ? null : (JSON.parse(it.goal) as ItemGoal);
        return {
          id: it.item_id,
          prompt: it.prompt,
          category: it.category,
          reference: it.reference,
          turns: it.turns === null ? null : (JSON.parse(it.turns) as PromptSetItem["turns"]),
          goal: goal?.goal ?? null,
          persona: goal?.persona ?? null,
          marker: goal?.marker ?? null,
          maxUsd: it.max_usd,
        };
      });
  }

  call(id: string): CallRow | null {
    return this.sql.exec<CallRow>("SELECT * FROM eval_calls WHERE id = ?", id).toArray()[0] ?? null;
  }

  /** The text of a done answer. */
  answerText(id: string): string {
    return this.sql.exec<{ text: string | null }>("SELECT text FROM eval_calls WHERE id = ?", id).one().text ?? "";
  }

  /** Providers with calls still to make (not under way). */
  pendingProviders(): string[] {
    return this.tally.pendingProviders();
  }

  /**
   * Up to `limit` calls of `provider` that may start now, earliest items first: answers before judge calls, and a
   * judge call only once both its answers are done. Calls under way are left out.
   */
  ready(provider: string, limit: number): CallRow[] {
    const asked = limit + this.running.size;
    const answers = this.sql
      .exec<CallRow>(
        "SELECT * FROM eval_calls WHERE status = 'pending' AND provider = ? AND kind = 'answer' ORDER BY item, sample LIMIT ?",
        provider,
        asked,
      )
      .toArray()
      .filter((c) => !this.running.has(c.id));
    if (answers.length >= limit) return answers.slice(0, limit);
    const goals = this.sql
      .exec<CallRow>(
        "SELECT * FROM eval_calls WHERE status = 'pending' AND provider = ? AND kind = 'goal' ORDER BY item, sample LIMIT ?",
        provider,
        asked - answers.length,
      )
      .toArray()
      .filter((c) => !this.running.has(c.id));
    if (goals.length) return [...answers, ...goals].slice(0, limit);
    const judges = this.sql
      .exec<CallRow>(
        `SELECT j.* FROM eval_calls j JOIN eval_calls a ON a.id = j.dep_a JOIN eval_calls b ON b.id = j.dep_b
         WHERE j.status = 'pending' AND j.provider = ? AND j.kind = 'judge' AND a.status = 'done' AND b.status = 'done'
         ORDER BY j.item, j.sample LIMIT ?`,
        provider,
        asked - answers.length,
      )
      .toArray()
      .filter((c) => !this.running.has(c.id));
    const left = limit - answers.length - judges.length;
    if (left <= 0) return [...answers, ...judges].slice(0, limit);
    const reviews = this.readyReviews(provider, left + this.running.size).filter((c) => !this.running.has(c.id));
    return [...answers, ...judges, ...reviews.slice(0, left)];
  }

  /**
   * Council reviews that may start: every answer of their round has ended (a review ranks the answers that came
   * back, as a council run's does), and a reviewing contestant's own answer is done. An answer under way in this
   * instance is still stored as pending, so its round's reviews wait for it.
   */
  private readyReviews(provider: string, limit: number): CallRow[] {
    return this.sql
      .exec<CallRow>(
        `SELECT v.* FROM eval_calls v LEFT JOIN eval_calls own ON own.id = v.dep_a
         WHERE v.status = 'pending' AND v.provider = ? AND v.kind = 'review' AND (v.dep_a IS NULL OR own.status = 'done')
           AND NOT EXISTS (SELECT 1 FROM eval_calls a WHERE a.item = v.item AND a.sample = v.sample AND a.kind = 'answer'
             AND a.status IN ('pending', 'running'))
         ORDER BY v.item, v.sample LIMIT ?`,
        provider,
        limit,
      )
      .toArray();
  }

  /** A council round's answers: each contestant's, by status, with the text of those done. */
  roundAnswers(item: number, sample: number): { contestant: string; status: CallStatus; text: string | null }[] {
    return this.sql
      .exec<{ contestant: string; status: CallStatus; text: string | null }>(
        "SELECT model AS contestant, status, text FROM eval_calls WHERE kind = 'answer' AND item = ? AND sample = ?",
        item,
        sample,
      )
      .toArray();
  }

  /** The call is under way in this instance. */
  markRunning(call: CallRow): void {
    if (this.running.has(call.id)) return;
    this.running.add(call.id);
    this.tally.move(call, "pending", "running");
  }

  /** Keeps a finished call's result (before anything announces it); a failed answer blocks the judge calls reading it. */
  finish(id: string, r: CallResult, now = Date.now()): CallRow {
    const seq = this.nextSeq++;
    const from: CallStatus = this.running.delete(id) ? "running" : "pending";
    let blocked: CallRow[] = [];
    this.storage.transactionSync(() => {
      this.sql.exec(
        `UPDATE eval_calls SET status = ?, text = ?, verdict = ?, reasons = ?, review = ?, outcome = ?, error = ?, latency_ms = ?,
          first_token_ms = ?, tokens_in = ?, tokens_out = ?, cost_usd = ?, truncated = ?, completed_at = ?, written = 0, seq = ?
          WHERE id = ?`,
        r.status,
        r.text ?? null,
        r.verdict ?? null,
        r.reasons ?? null,
        r.review ?? null,
        r.outcome ?? null,
        r.error,
        r.latencyMs,
        r.firstTokenMs ?? null,
        r.tokensIn,
        r.tokensOut,
        r.costUsd,
        r.truncated ? 1 : 0,
        now,
        seq,
        id,
      );
      if (r.status === "failed")
        blocked = this.sql
          .exec<CallRow>(
            "UPDATE eval_calls SET status = 'blocked' WHERE status = 'pending' AND kind IN ('judge', 'review') AND (dep_a = ?1 OR dep_b = ?1) RETURNING *",
            id,
          )
          .toArray();
    });
    const row = this.call(id)!;
    this.tally.move(row, from, r.status);
    this.tally.paid(r.costUsd, r.tokensIn, r.tokensOut);
    for (const waiting of blocked) this.tally.move(waiting, "pending", "blocked");
    if (!this.itemOpen(row.item)) this.tally.openItemsUsd -= this.item(row.item).max_usd;
    return row;
  }

  /**
   * A goal call under way gave its battle up (stopped by a pause): it is to make again, as a fresh battle. Its row is
   * still pending in storage; only this instance's count had it under way.
   */
  requeueAsNew(id: string): void {
    this.sql.exec("UPDATE eval_calls SET attempt = attempt + 1 WHERE id = ?", id);
    const row = this.call(id);
    if (row && this.running.delete(id)) this.tally.move(row, "running", "pending");
  }

  /**
   * Calls an instance that is gone had under way (stored as running by an earlier version of the room) or that a
   * retired step of this one had: they never completed, so they are to make again.
   */
  requeueRunning(): void {
    const stored = this.sql.exec("UPDATE eval_calls SET status = 'pending' WHERE status = 'running'");
    stored.toArray();
    // Nothing was under way (every step but a retired one's successor): the counts stand as they are.
    if (!stored.rowsWritten && !this.running.size) return;
    this.running.clear();
    this.tally = this.reload();
  }

  /** Fails every call not made yet with `reason` (the watchdog stopped the work); a retry makes them again. */
  failOpen(reason: string): void {
    this.running.clear();
    this.sql.exec("UPDATE eval_calls SET status = 'failed', error = ? WHERE status IN ('pending', 'running')", reason);
    this.tally = this.reload();
  }

  /** Cancels every call not made yet; what finished stays. */
  cancelOpen(): void {
    this.running.clear();
    this.sql.exec("UPDATE eval_calls SET status = 'cancelled' WHERE status IN ('pending', 'running', 'blocked')");
    this.tally = this.reload();
  }

  /**
   * The failed calls, to retry: they and the judge calls they blocked are to make again (what a failed call cost
   * stays in `earlier_usd`; a goal call plays a fresh battle). Returns the failed ones as they were.
   */
  reopenFailed(): CallRow[] {
    const failed = this.sql.exec<CallRow>("SELECT * FROM eval_calls WHERE status = 'failed'").toArray();
    this.sql.exec(
      `UPDATE eval_calls SET status = 'pending', error = NULL, completed_at = NULL, earlier_usd = earlier_usd + coalesce(cost_usd, 0),
        cost_usd = NULL, tokens_in = NULL, tokens_out = NULL, attempt = attempt + (kind = 'goal') WHERE status IN ('failed', 'blocked')`,
    );
    this.tally = this.reload();
    return failed;
  }

  /** Whether the item still has calls to make. */
  itemOpen(idx: number): boolean {
    return this.sql.exec(`SELECT 1 FROM eval_calls WHERE item = ? AND ${LIVE} LIMIT 1`, idx).toArray().length > 0;
  }

  /** The most the items with calls still to make may cost. */
  openItemsUsd(): number {
    return this.tally.openItemsUsd;
  }

  /** Calls still to make or under way. */
  liveCalls(): number {
    return this.counts()
      .filter((c) => c.status === "pending" || c.status === "running")
      .reduce((s, c) => s + c.n, 0);
  }

  /** Finished calls whose D1 rows may not be written yet, oldest first. */
  unwritten(): CallRow[] {
    return this.sql
      .exec<CallRow>("SELECT * FROM eval_calls WHERE written = 0 AND seq IS NOT NULL ORDER BY seq")
      .toArray();
  }

  /** The number of the last finished call: D1 holds every call up to it once the queue flushed. */
  lastSeq(): number {
    return this.nextSeq - 1;
  }

  markWritten(upTo: number): void {
    this.sql.exec("UPDATE eval_calls SET written = 1 WHERE written = 0 AND seq <= ?", upTo);
  }

  /** Calls per kind and status. */
  counts(): { kind: string; status: CallStatus; n: number }[] {
    return this.tally.counts();
  }

  /**
   * Per contestant: its answers by status, the judge calls reading one of its answers by status, and the council
   * reviews of its rounds by the other reviewers by status.
   */
  perContestant(): { contestant: string; kind: string; status: CallStatus; n: number }[] {
    return this.tally.perContestant();
  }

  spend(): { usd: number; unknown: number } {
    return { ...this.tally.spend };
  }

  /** Counts every call's row once, for the tally to go on from (none is under way in this instance). */
  private reload(): CallTally {
    const counts = this.sql
      .exec<{ kind: string; status: CallStatus; n: number }>(
        "SELECT kind, status, count(*) AS n FROM eval_calls GROUP BY kind, status",
      )
      .toArray();
    const perContestant = this.sql
      .exec<{ contestant: string; kind: string; status: CallStatus; n: number }>(
        `SELECT model AS contestant, 'answer' AS kind, status, count(*) AS n FROM eval_calls WHERE kind = 'answer' GROUP BY model, status
         UNION ALL SELECT c, k, status, count(*) FROM (
           SELECT first AS c, kind AS k, status FROM eval_calls WHERE kind IN ('judge', 'goal')
           UNION ALL SELECT second, kind, status FROM eval_calls WHERE kind IN ('judge', 'goal')
         ) GROUP BY c, k, status
         UNION ALL SELECT a.model, 'review', r.status, count(*) FROM eval_calls r
           JOIN eval_calls a ON a.kind = 'answer' AND a.item = r.item AND a.sample = r.sample AND a.model != r.model
           WHERE r.kind = 'review' GROUP BY a.model, r.status`,
      )
      .toArray();
    const pendingPerProvider = this.sql
      .exec<{ provider: string; n: number }>(
        "SELECT provider, count(*) AS n FROM eval_calls WHERE status = 'pending' GROUP BY provider",
      )
      .toArray();
    const spend = this.sql
      .exec<{ usd: number | null; unknown: number | null }>(
        `SELECT sum(coalesce(cost_usd, 0) + earlier_usd) AS usd,
           sum(CASE WHEN cost_usd IS NULL AND coalesce(tokens_in, 0) + coalesce(tokens_out, 0) > 0 THEN 1 ELSE 0 END) AS unknown
         FROM eval_calls`,
      )
      .one();
    const openItemsUsd =
      this.sql
        .exec<{ usd: number | null }>(
          `SELECT sum(max_usd) AS usd FROM eval_items WHERE idx IN (SELECT DISTINCT item FROM eval_calls WHERE ${LIVE})`,
        )
        .one().usd ?? 0;
    const contestants = this.sql
      .exec<{ model: string }>("SELECT DISTINCT model FROM eval_calls WHERE kind = 'answer'")
      .toArray()
      .map((c) => c.model);
    return new CallTally({
      contestants,
      counts,
      perContestant,
      pendingPerProvider,
      spend: { usd: spend.usd ?? 0, unknown: spend.unknown ?? 0 },
      openItemsUsd,
    });
  }
}
