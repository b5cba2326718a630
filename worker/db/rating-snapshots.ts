/**
 * The stored state of the online ratings (Elo, TrueSkill) per slice of battles, and the battles a replay
 * applies after it. The replay itself is arena/online-ratings.ts's.
 */
import { and, desc, eq, gt, lt, or } from "drizzle-orm";
import { archivedBattles } from "./archive";
import type { Winner } from "../rating/battle-outcome";
import type { Slice } from "./leaderboard-queries";
import type { Db } from "./queries";
import * as schema from "./schema";

export type RatingSnapshot = typeof schema.eloSnapshots.$inferSelect;
export type NewRatingSnapshot = typeof schema.eloSnapshots.$inferInsert;

export interface BattleRow {
  rowid: number;
  modelA: string;
  modelB: string;
  winner: Winner;
  tstamp: number;
}

const s = schema.eloSnapshots;

/**
 * The slice's stream key: `sources|flagged|category` (encoded, so it holds no "|") for the newest state, then
 * `|n` for a checkpoint, so no other stream's key starts with this one's followed by "|". Migration 0007's
 * trigger reads the sources before the first "|".
 */
export function streamOf(slice: Slice): string {
  // "/" sorts below "|" and the category is encoded, so "/nodemo" can't read as another stream's checkpoint.
  const demo = slice.withoutDemo ? "/nodemo" : "";
  // An evaluation's view is a stream of its own ("#" never appears encoded, as in a label's stream).
  const evaluation = slice.evaluation === undefined ? "" : `#evaluation#${encodeURIComponent(slice.evaluation)}`;
  return `${[...slice.sources].sort().join("+")}|${slice.includeFlagged ? 1 : 0}|${encodeURIComponent(slice.category)}${demo}${evaluation}`;
}

/**
 * A label's stream: the slice's key, then `#label#` (encoded, and "#" never appears encoded) and how many prompts
 * carry the label. A label given to a prompt reaches battles a snapshot may already have passed; it also changes
 * that count, so the stream is new and replayed whole. Between label passes the stream only grows, as any other.
 */
export async function labelStreamOf(db: Db, slice: Slice, label: string): Promise<{ stream: string; family: string }> {
  const row = await db.$client
    .prepare("SELECT prompts FROM label_counts WHERE label = ?")
    .bind(label)
    .first<{ prompts: number }>();
  const family = `${streamOf(slice)}#${encodeURIComponent(label)}#`;
  return { stream: `${family}${row?.prompts ?? 0}`, family };
}

/** Drops the snapshots of a label's earlier streams (`family`, any count but the current `stream`'s). */
export async function dropOtherStreams(db: Db, family: string, stream: string): Promise<void> {
  await db.$client
    .prepare(
      "DELETE FROM elo_snapshots WHERE stream > ?1 AND stream < ?1 || '~' AND stream <> ?2 AND substr(stream, 1, length(?2) + 1) <> ?2 || '|'",
    )
    .bind(family, stream)
    .run();
}

/** The newest snapshot of the stream, its newest state or a checkpoint, whichever covers more battles. */
export async function newestSnapshot(db: Db, stream: string): Promise<RatingSnapshot | null> {
  const [snap = null] = await db
    .select()
    .from(s)
    .where(or(eq(s.stream, stream), and(gt(s.stream, `${stream}|`), lt(s.stream, `${stream}}`))))
    .orderBy(desc(s.uptoRowid))
    .limit(1);
  return snap;
}

/** The newest battle's rowid, archived or not (0 with none): no battle a replay has yet to apply has a larger one. */
export async function lastBattleRowid(db: Db): Promise<number> {
  const row = await db.$client
    .prepare(
      "SELECT max(coalesce((SELECT max(rowid) FROM battles), 0), coalesce((SELECT max(to_rowid) FROM battle_archive), 0)) AS rowid",
    )
    .first<{ rowid: number }>();
  return row?.rowid ?? 0;
}

export async function saveSnapshots(db: Db, rows: NewRatingSnapshot[]): Promise<void> {
  const writes = rows.map((row) => db.insert(s).values(row).onConflictDoUpdate({ target: s.stream, set: row }));
  if (writes.length) await db.batch(writes as [(typeof writes)[number], ...typeof writes]);
}

const PAGE = 20_000;

/** Battles of the slice inserted after `rowid`, in insertion order: the archived ones, then D1's a page at a time. */
export async function battlesAfter(
  db: Db,
  archive: R2Bucket | undefined,
  slice: Slice,
  rowid: number,
): Promise<BattleRow[]> {
  const out: BattleRow[] = [];
  // A view's million battles name a few thousand models: one string per name, not two per battle, stays in memory.
  const names = new Map<string, string>();
  const named = (name: string) => {
    const known = names.get(name);
    if (known !== undefined) return known;
    names.set(name, name);
    return name;
  };
  // An evaluation's battles are read from D1 alone, as its counts are.
  if (slice.evaluation === undefined)
    for await (const page of archivedBattles(db.$client, archive, slice, rowid))
      for (const b of page)
        out.push({
          rowid: b.rowid,
          modelA: named(b.model_a),
          modelB: named(b.model_b),
          winner: b.winner,
          tstamp: b.tstamp,
        });
  // The unary + keeps SQLite on the rowid range scan instead of the source index plus a sort.
  const where = [`+source IN (${slice.sources.map(() => "?").join(", ")})`];
  const params: unknown[] = [...slice.sources];
  if (slice.category !== "") {
    where.push("+category = ?");
    params.push(slice.category);
  }
  if (!slice.includeFlagged) where.push("+flagged = 0");
  if (slice.withoutDemo) where.push("substr(model_a, 1, 5) <> 'demo:' AND substr(model_b, 1, 5) <> 'demo:'");
  // Without the unary +, so SQLite reads the evaluation's own index rather than every battle.
  if (slice.evaluation !== undefined) {
    where.push("evaluation_id = ?");
    params.push(slice.evaluation);
  }
  if (slice.label) {
    where.push(
      "EXISTS (SELECT 1 FROM prompt_labels l WHERE l.label = ? AND l.ref = coalesce(battles.comparison_id, battles.id))",
    );
    params.push(slice.label);
  }
  // Rows as arrays (raw), not objects: a cold replay reads every battle, and naming each column of each row costs.
  const page = db.$client.prepare(
    `SELECT rowid, model_a, model_b, winner, tstamp FROM battles WHERE rowid > ? AND ${where.join(" AND ")} ORDER BY rowid LIMIT ${PAGE}`,
  );
  for (let after = rowid; ; ) {
    const rows = await page.bind(after, ...params).raw<[number, string, string, Winner, number]>();
    for (const [id, modelA, modelB, winner, tstamp] of rows)
      out.push({ rowid: id, modelA: named(modelA), modelB: named(modelB), winner, tstamp });
    if (rows.length < PAGE) return out;
    after = rows[rows.length - 1][0];
  }
}
