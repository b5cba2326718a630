/**
 * The archive (docs/scaling.md): with QUORUM_ARCHIVE_AFTER_HOURS set, what D1 would otherwise keep forever
 * moves to the ARCHIVE R2 bucket once it is older than that and an hour, as gzipped JSON Lines of the D1 rows:
 *
 * - battles, oldest rowid first, SEGMENT_BATTLES to a segment, one row in `battle_archive` each; with them the
 *   model_votes rows of their human votes, to a sibling object, except on comparisons a judge has a verdict on
 *   (judge calibration reads their first vote). The counters, epochs and Elo snapshots stay as they were
 *   (migration 0008), so the leaderboard doesn't change; what replays battles (online Elo from scratch, style
 *   control, the export) reads the segments first and D1 after them;
 * - comparisons' messages, CONVERSATION_CHUNK comparisons to an object. D1's are copies (a comparison's page
 *   reads its room), and each answer's cost stays counted (migration 0006's trigger keeps it in spend_entries);
 * - comparison rows, COMPARISON_CHUNK to an object, once nothing in D1 refers to them any more: their messages
 *   and votes moved, no judge's verdict and no share link. The rooms answer for them from then on (their pages
 *   open as before); the history list reads the objects too (arena/history.ts). Counters stay (migration 0009).
 *
 * Idempotency keys that old are dropped, not archived: a request retried hours later is a new request.
 *
 * What may still change and what is final, and the pass the cron runs with the configured window, are
 * arena/archive-policy.ts.
 */
import { isDemoModel, type Slice } from "./leaderboard-queries";
import type { Winner } from "../rating/battle-outcome";
import type { BattleSource } from "../shared/arena";

/** A battle as D1 holds it: its columns by name, and its rowid. */
export interface ArchivedBattle {
  rowid: number;
  id: string;
  source: BattleSource;
  model_a: string;
  model_b: string;
  winner: Winner;
  category: string | null;
  tstamp: number;
  flagged: number;
  vote_id: string | null;
  run_id: string | null;
  reviewer_model_id: string | null;
  import_id: string | null;
  question_id: string | null;
  judge: string | null;
  turn: number | null;
  anony: number | null;
  language: string | null;
  comparison_id: string | null;
  conv_metadata: string | null;
  /** absent from segments archived before battles kept conversations */
  conversation_a?: string | null;
  conversation_b?: string | null;
}

export const SEGMENT_BATTLES = 10_000;
/** Objects one pass writes at most of each kind: with a pass a minute, 3,333 battles and 333 comparisons a second. */
const SEGMENTS_PER_PASS = 20;
export const HOUR_MS = 3_600_000;

/** Runs of line numbers, `[first, last]`, per import id: what a resent chunk must not insert again. */
type ImportLines = Record<string, [number, number][]>;

/** What a pass may take: made before this (ms), older than the window by an hour. */
export const archiveCutoff = (afterHours: number, now: number) => now - (afterHours + 1) * HOUR_MS;

const KEYS_PER_STATEMENT = 10_000;

/** Deletes idempotency keys made before `cutoff`, oldest first (rowids follow time), up to SEGMENTS_PER_PASS statements. */
export async function dropIdempotencyKeys(d1: D1Database, cutoff: number): Promise<number> {
  const drop = d1
    .prepare(
      "DELETE FROM idempotency_keys WHERE rowid IN (SELECT rowid FROM idempotency_keys ORDER BY rowid LIMIT ?1) AND created_at < ?2",
    )
    .bind(KEYS_PER_STATEMENT, cutoff);
  let dropped = 0;
  for (let n = 0; n < SEGMENTS_PER_PASS; n++) {
    const { meta } = await drop.run();
    dropped += meta.changes;
    if (meta.changes < KEYS_PER_STATEMENT) break;
  }
  return dropped;
}

const pad = (n: number) => String(n).padStart(12, "0");

async function gzip(text: string): Promise<ArrayBuffer> {
  return new Response(new Blob([text]).stream().pipeThrough(new CompressionStream("gzip"))).arrayBuffer();
}

/** The rows of one of the archive's objects (gzipped JSON Lines). */
export async function readJsonLines<T>(object: R2ObjectBody): Promise<T[]> {
  const text = await new Response(object.body.pipeThrough(new DecompressionStream("gzip"))).text();
  return text
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line) as T);
}

/** The rows of the object at `key`, which `what` (a table of the archive) lists; an error that says what to do when it is gone. */
/** The comparison-archive objects that may hold a comparison made at or before `before`, newest last item first. */
export function comparisonArchiveObjects(d1: D1Database, before: number) {
  return d1
    .prepare(
      "SELECT key, last_created_at AS last FROM comparison_archive WHERE first_created_at <= ?1 ORDER BY last_created_at DESC",
    )
    .bind(before)
    .all<{ key: string; last: number }>();
}

export async function readListedObject<T>(bucket: R2Bucket | undefined, key: string, what: string): Promise<T[]> {
  const object = bucket ? await bucket.get(key) : null;
  if (!object)
    throw new Error(
      `The ${what} lists ${key}, but ${bucket ? "R2 has no such object" : "no ARCHIVE bucket is bound"}: restore the bucket, or its binding in wrangler.toml.`,
    );
  return readJsonLines<T>(object);
}

export interface ArchivePass {
  segments: number;
  battles: number;
  /** why the pass stopped early, when it did */
  stopped: string | null;
}

/**
 * Moves battles older than `afterHours` + 1 hour to R2, oldest rowid first, a whole segment at a time, up to
 * SEGMENTS_PER_PASS. A segment waits while any of its battles is still inside the window (an import of old
 * battles behind newer votes waits for those) or is the newest battle, whose rowid keeps new rowids rising.
 */
export async function archiveBattles(
  d1: D1Database,
  bucket: R2Bucket,
  afterHours: number,
  now = Date.now(),
): Promise<ArchivePass> {
  const cutoff = archiveCutoff(afterHours, now) / 1000;
  const pass: ArchivePass = { segments: 0, battles: 0, stopped: null };
  const page = d1.prepare("SELECT rowid AS rowid, * FROM battles ORDER BY rowid LIMIT ?").bind(SEGMENT_BATTLES);
  const newest = d1.prepare("SELECT max(rowid) AS n FROM battles");
  while (pass.segments < SEGMENTS_PER_PASS) {
    const [rows, top] = await d1.batch<ArchivedBattle | { n: number | null }>([page, newest]);
    const last = (top.results[0] as { n: number | null }).n ?? 0;
    const all = rows.results as ArchivedBattle[];
    // Only whole segments: a quiet arena's few old battles stay in D1 rather than scatter over tiny objects.
    if (all.length < SEGMENT_BATTLES || !all.every((b) => b.tstamp < cutoff && b.rowid < last)) break;
    if (!(await writeSegment(d1, bucket, all, now))) {
      pass.stopped = "battles were deleted while the segment was written; the next pass takes them";
      break;
    }
    pass.segments++;
    pass.battles += all.length;
  }
  return pass;
}

/** The model_votes rows of the human battles up to rowid ?1, but for comparisons with a judge's verdict. */
const SEGMENT_VOTES = `model_votes WHERE vote_id IN (SELECT vote_id FROM battles WHERE rowid <= ?1 AND source = 'human')
  AND comparison_id NOT IN (SELECT comparison_id FROM judge_verdicts)`;

const jsonLines = (rows: object[]) => gzip(`${rows.map((r) => JSON.stringify(r)).join("\n")}\n`);

/** Puts the segment in R2, then in one D1 transaction records it and removes its rows, if they are still exactly those. */
async function writeSegment(d1: D1Database, bucket: R2Bucket, rows: ArchivedBattle[], now: number): Promise<boolean> {
  const from = rows[0].rowid;
  const to = rows[rows.length - 1].rowid;
  const range = `${pad(from)}-${pad(to)}.${attemptId()}`;
  const key = `battles/${range}.jsonl.gz`;
  const votesKey = `model_votes/${range}.jsonl.gz`;
  let minT = Infinity;
  let maxT = -Infinity;
  let rowids = 0;
  const imports: ImportLines = {};
  for (const r of rows) {
    minT = Math.min(minT, r.tstamp);
    maxT = Math.max(maxT, r.tstamp);
    rowids += r.rowid;
    if (r.import_id !== null) addLine(imports, r.import_id, Number(r.id.slice(r.id.lastIndexOf(":") + 1)));
  }
  const { results: votes } = await d1.prepare(`SELECT * FROM ${SEGMENT_VOTES}`).bind(to).all();
  const httpMetadata = { contentType: "application/gzip" };
  await bucket.put(key, await jsonLines(rows), {
    httpMetadata,
    customMetadata: { fromRowid: String(from), toRowid: String(to), battles: String(rows.length) },
  });
  if (votes.length)
    await bucket.put(votesKey, await jsonLines(votes), {
      httpMetadata,
      customMetadata: { battles: key, rows: String(votes.length) },
    });
  try {
    await d1.batch([
      d1.prepare("INSERT INTO archiving (`on`) VALUES (1)"),
      // The count is NULL, which the column refuses, unless D1 still holds exactly these rows up to `to`: a
      // withdrawal since the read fails the whole transaction instead of archiving a battle that is gone.
      d1
        .prepare(
          `INSERT INTO battle_archive (key, from_rowid, to_rowid, battles, model_votes, min_tstamp, max_tstamp, import_lines, archived_at)
           SELECT ?1, ?2, ?3, CASE WHEN count(*) = ?4 AND sum(rowid) = ?5 THEN count(*) END, ?6, ?7, ?8, ?9, ?10 FROM battles WHERE rowid <= ?3`,
        )
        .bind(key, from, to, rows.length, rowids, votes.length, minT, maxT, JSON.stringify(imports), now),
      // A judge's verdict that came since the read keeps its comparison's votes in D1 (and a copy in R2).
      d1.prepare(`DELETE FROM ${SEGMENT_VOTES}`).bind(to),
      d1.prepare("DELETE FROM battles WHERE rowid <= ?").bind(to),
      d1.prepare("DELETE FROM archiving"),
    ]);
    return true;
  } catch (error) {
    if (!isConflict(error)) throw error;
    await bucket.delete([key, votesKey]);
    return false;
  }
}

/**
 * Each attempt writes objects of its own: two passes at once (a slow pass and the next minute's, or the cron
 * and a POST) may read the same rows, and the one whose transaction fails deletes only what it wrote.
 */
const attemptId = () => crypto.randomUUID().slice(0, 8);

/** A constraint the archive's own transaction relies on refused it: the rows changed, or another pass took them. */
const isConflict = (error: unknown) => /NOT NULL|UNIQUE/.test(String(error));

function addLine(imports: ImportLines, importId: string, line: number): void {
  imports[importId] ??= [];
  const runs = imports[importId];
  const tail = runs.at(-1);
  if (tail && line === tail[1] + 1) tail[1] = line;
  else runs.push([line, line]);
}

export const CONVERSATION_CHUNK = 1_000;

export interface ConversationPass {
  comparisons: number;
  messages: number;
}

/**
 * Moves the messages of comparisons created before the window (and an hour) to R2, oldest first, `chunk`
 * comparisons to an object, whole chunks only, up to SEGMENTS_PER_PASS.
 */
export async function archiveConversations(
  d1: D1Database,
  bucket: R2Bucket,
  afterHours: number,
  now = Date.now(),
  chunk = CONVERSATION_CHUNK,
): Promise<ConversationPass> {
  const cutoff = archiveCutoff(afterHours, now);
  const pass: ConversationPass = { comparisons: 0, messages: 0 };
  for (let n = 0; n < SEGMENTS_PER_PASS; n++) {
    const done = await d1
      .prepare(
        "SELECT through_created_at AS at, through_id AS id FROM conversation_archive ORDER BY through_created_at DESC, through_id DESC LIMIT 1",
      )
      .first<{ at: number; id: string }>();
    const { results: ids } = await d1
      .prepare(
        "SELECT id, created_at AS at FROM comparisons WHERE created_at < ?1 AND (created_at > ?2 OR (created_at = ?2 AND id > ?3)) ORDER BY created_at, id LIMIT ?4",
      )
      .bind(cutoff, done?.at ?? -1, done?.id ?? "", chunk)
      .all<{ id: string; at: number }>();
    if (ids.length < chunk) break;
    const list = JSON.stringify(ids.map((c) => c.id));
    const { results: messages } = await d1
      .prepare(
        "SELECT rowid AS rowid, * FROM messages WHERE comparison_id IN (SELECT value FROM json_each(?1)) AND (completed_at IS NULL OR completed_at < ?2)",
      )
      .bind(list, cutoff)
      .all<{ rowid: number }>();
    const last = ids[ids.length - 1];
    const key = `messages/${last.at}-${last.id}.${attemptId()}.jsonl.gz`;
    await bucket.put(key, await jsonLines(messages), {
      httpMetadata: { contentType: "application/gzip" },
      customMetadata: { comparisons: String(ids.length) },
    });
    try {
      await d1.batch([
        // Unique on where the chunk ends: a pass at the same time that took this chunk first fails this one.
        d1
          .prepare(
            "INSERT INTO conversation_archive (key, through_created_at, through_id, comparisons, messages, archived_at) VALUES (?, ?, ?, ?, ?, ?)",
          )
          .bind(key, last.at, last.id, ids.length, messages.length, now),
        // Only the rows read (and put in R2): a turn sent since stays in D1.
        d1
          .prepare("DELETE FROM messages WHERE rowid IN (SELECT value FROM json_each(?))")
          .bind(JSON.stringify(messages.map((m) => m.rowid))),
      ]);
    } catch (error) {
      if (!isConflict(error)) throw error;
      await bucket.delete(key);
      break;
    }
    pass.comparisons += ids.length;
    pass.messages += messages.length;
  }
  return pass;
}

export const COMPARISON_CHUNK = 1_000;

export interface ComparisonRowsPass {
  comparisonRows: number;
}

/**
 * A closed comparison nothing in D1 refers to any more: its messages and votes moved, no judge's verdict (judge
 * calibration reads its vote) and no share link (the link's row goes with its item), and counted already (one
 * still waiting for its vote window would never count). Those kept are read again by
 * each pass; judged and shared comparisons stay for good.
 */
const MOVABLE = `c.status IN ('ready', 'voted', 'failed') AND c.counted_at IS NOT NULL
  AND NOT EXISTS (SELECT 1 FROM messages m WHERE m.comparison_id = c.id)
  AND NOT EXISTS (SELECT 1 FROM model_votes v WHERE v.comparison_id = c.id)
  AND NOT EXISTS (SELECT 1 FROM judge_verdicts j WHERE j.comparison_id = c.id)
  AND NOT EXISTS (SELECT 1 FROM shares s WHERE s.kind = 'comparison' AND s.item_id = c.id)`;

/**
 * Moves the rows of closed comparisons created before the window (and an hour) that nothing refers to any more,
 * oldest first, `chunk` to an object, whole chunks only, up to SEGMENTS_PER_PASS.
 */
export async function archiveComparisons(
  d1: D1Database,
  bucket: R2Bucket,
  afterHours: number,
  now = Date.now(),
  chunk = COMPARISON_CHUNK,
): Promise<ComparisonRowsPass> {
  const cutoff = archiveCutoff(afterHours, now);
  const pass: ComparisonRowsPass = { comparisonRows: 0 };
  const page = d1
    .prepare(
      `SELECT c.* FROM comparisons c WHERE c.created_at < ?1 AND ${MOVABLE} ORDER BY c.created_at, c.id LIMIT ?2`,
    )
    .bind(cutoff, chunk);
  for (let n = 0; n < SEGMENTS_PER_PASS; n++) {
    const { results: rows } = await page.all<{ id: string; created_at: number }>();
    if (rows.length < chunk) break;
    const [first, last] = [rows[0], rows[rows.length - 1]];
    const key = `comparisons/${first.created_at}-${last.created_at}.${attemptId()}.jsonl.gz`;
    await bucket.put(key, await jsonLines(rows), {
      httpMetadata: { contentType: "application/gzip" },
      customMetadata: { comparisons: String(rows.length) },
    });
    const ids = JSON.stringify(rows.map((r) => r.id));
    try {
      await d1.batch([
        d1.prepare("INSERT INTO archiving (`on`) VALUES (1)"),
        // NULL, which the column refuses, unless every row read is still there and still movable (a share link
        // made since, or the same chunk taken by another pass, fails the whole transaction).
        d1
          .prepare(
            `INSERT INTO comparison_archive (key, comparisons, first_created_at, last_created_at, archived_at)
             SELECT ?1, CASE WHEN count(*) = ?2 THEN count(*) END, ?3, ?4, ?5 FROM comparisons c WHERE c.id IN (SELECT value FROM json_each(?6)) AND ${MOVABLE}`,
          )
          .bind(key, rows.length, first.created_at, last.created_at, now, ids),
        d1.prepare("DELETE FROM comparisons WHERE id IN (SELECT value FROM json_each(?))").bind(ids),
        d1.prepare("DELETE FROM archiving"),
      ]);
    } catch (error) {
      if (!isConflict(error)) throw error;
      await bucket.delete(key);
      break;
    }
    pass.comparisonRows += rows.length;
  }
  return pass;
}

/** The line numbers of an import already in the archive: lines a resent chunk must skip. */
export async function archivedImportLines(d1: D1Database, importId: string): Promise<(line: number) => boolean> {
  const path = `$.${JSON.stringify(importId)}`;
  const { results } = await d1
    .prepare(
      "SELECT json_extract(import_lines, ?1) AS runs FROM battle_archive WHERE json_extract(import_lines, ?1) IS NOT NULL",
    )
    .bind(path)
    .all<{ runs: string }>();
  const runs = results.flatMap((r) => JSON.parse(r.runs) as [number, number][]);
  return (line) => runs.some(([first, last]) => line >= first && line <= last);
}

export interface ArchiveSummary {
  segments: number;
  battles: number;
  modelVotes: number;
  /** comparisons whose messages are in R2, and those messages */
  conversations: number;
  messages: number;
  /** comparisons whose D1 row is in R2 */
  comparisonRows: number;
  /** the battles D1 no longer holds have rowids up to this */
  throughRowid: number;
  oldest: number | null;
  newest: number | null;
}

export async function archiveSummary(d1: D1Database): Promise<ArchiveSummary> {
  const [battles, conversations, comparisons] = await d1.batch<Record<string, number | null>>([
    d1.prepare(
      "SELECT count(*) AS segments, coalesce(sum(battles), 0) AS battles, coalesce(sum(model_votes), 0) AS modelVotes, coalesce(max(to_rowid), 0) AS throughRowid, min(min_tstamp) AS oldest, max(max_tstamp) AS newest FROM battle_archive",
    ),
    d1.prepare(
      "SELECT coalesce(sum(comparisons), 0) AS conversations, coalesce(sum(messages), 0) AS messages FROM conversation_archive",
    ),
    d1.prepare("SELECT coalesce(sum(comparisons), 0) AS comparisonRows FROM comparison_archive"),
  ]);
  return { ...battles.results[0], ...conversations.results[0], ...comparisons.results[0] } as unknown as ArchiveSummary;
}

const inSlice = (b: ArchivedBattle, slice: Slice) =>
  slice.sources.includes(b.source) &&
  (slice.includeFlagged || !b.flagged) &&
  (slice.category === "" || b.category === slice.category) &&
  !(slice.withoutDemo && (isDemoModel(b.model_a) || isDemoModel(b.model_b)));

/** Battles whose labels one query looks up (their refs go as one JSON array). */
const LABEL_LOOKUP = 2_000;

/**
 * Of `battles`, those whose prompt carries the label: labels stay in D1 (prompt_labels), keyed as the live
 * battles' are, by the comparison of a vote or judge battle, else by the battle itself.
 */
async function withLabel(d1: D1Database, label: string, battles: ArchivedBattle[]): Promise<ArchivedBattle[]> {
  const refOf = (b: ArchivedBattle) => b.comparison_id ?? b.id;
  const kept: ArchivedBattle[] = [];
  const lookup = d1.prepare(
    "SELECT ref FROM prompt_labels WHERE label = ? AND ref IN (SELECT value FROM json_each(?))",
  );
  for (let from = 0; from < battles.length; from += LABEL_LOOKUP) {
    const part = battles.slice(from, from + LABEL_LOOKUP);
    const { results } = await lookup.bind(label, JSON.stringify(part.map(refOf))).all<{ ref: string }>();
    const labelled = new Set(results.map((r) => r.ref));
    for (const b of part) if (labelled.has(refOf(b))) kept.push(b);
  }
  return kept;
}

/**
 * The slice's archived battles with rowids after `after`, a segment at a time in rowid order; D1 holds every
 * battle after the last segment. With nothing archived this is one small D1 query and no R2 read. A label's
 * slice keeps the battles whose prompt has the label, as its counters do.
 */
export async function* archivedBattles(
  d1: D1Database,
  bucket: R2Bucket | undefined,
  slice: Slice,
  after: number,
): AsyncGenerator<ArchivedBattle[]> {
  const { results } = await d1
    .prepare("SELECT key FROM battle_archive WHERE to_rowid > ? ORDER BY to_rowid")
    .bind(after)
    .all<{ key: string }>();
  for (const { key } of results) {
    const page = (await readListedObject<ArchivedBattle>(bucket, key, "battle archive")).filter(
      (b) => b.rowid > after && inSlice(b, slice),
    );
    yield slice.label ? await withLabel(d1, slice.label, page) : page;
  }
}
