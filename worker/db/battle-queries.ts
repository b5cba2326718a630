/** Battle logs in and out: few, large statements (D1 caps queries per invocation and parameters per statement). */
import { sql } from "drizzle-orm";
import { archivedBattles } from "./archive";
import type { Winner } from "../rating/battle-outcome";
import type { BattleSource, ConversationMessage } from "../shared/arena";
import type { Db } from "./queries";

/** One battle of a log, as the parser (battles/fastchat.ts) reads it and the import writes it. */
export interface ImportedBattle {
  modelA: string;
  modelB: string;
  winner: Winner;
  tstamp: number;
  questionId: string | null;
  turn: number | null;
  anony: boolean | null;
  language: string | null;
  judge: string | null;
  category: string | null;
  convMetadata: Record<string, unknown> | null;
  /** each side's turns as FastChat's conversation_a/_b hold them, when the log has them */
  conversationA: ConversationMessage[] | null;
  conversationB: ConversationMessage[] | null;
  /** the labels the log gives its prompt (lmarena's `category_tag`, `is_code`); absent when it gives none */
  tags?: string[];
}

/** Keeps each statement's one JSON parameter well under D1's 2 MB value limit. */
const MAX_JSON_BYTES = 1_500_000;
const utf8 = new TextEncoder();

/** The id of an imported battle: from its import and line, so a chunk sent again writes nothing twice. */
export const importedBattleId = (importId: string, line: number) => `import:${importId}:${line}`;

export interface NumberedBattle {
  line: number;
  battle: ImportedBattle;
}

/**
 * Inserts imported battles in one transaction; ids derive from (import id, line), so a chunk sent again
 * writes nothing twice. Battles Arena marks as not anonymous are kept but flagged, as votes on revealed
 * comparisons are. Returns how many rows were new.
 */
export async function insertImportedBattles(db: Db, importId: string, items: NumberedBattle[]): Promise<number> {
  const groups: string[] = [];
  let group: unknown[] = [];
  let size = 0;
  for (const { line, battle: b } of items) {
    const row = [
      importedBattleId(importId, line),
      b.modelA,
      b.modelB,
      b.winner,
      b.category,
      b.tstamp,
      b.anony === false ? 1 : 0,
      b.questionId,
      b.judge,
      b.turn,
      b.anony === null ? null : b.anony ? 1 : 0,
      b.language,
      b.convMetadata === null ? null : JSON.stringify(b.convMetadata),
      // As JSON values, not strings: `->>` gives them back as their JSON text, without a second escaping.
      b.conversationA,
      b.conversationB,
    ];
    const json = JSON.stringify(row);
    // In bytes, as D1 counts: conversations in any script make some rows large.
    const bytes = utf8.encode(json).length;
    if (size + bytes > MAX_JSON_BYTES && group.length) {
      groups.push(JSON.stringify(group));
      group = [];
      size = 0;
    }
    group.push(row);
    size += bytes + 1;
  }
  if (group.length) groups.push(JSON.stringify(group));
  if (!groups.length) return 0;
  const insert = db.$client.prepare(`INSERT OR IGNORE INTO battles
      (id, source, model_a, model_b, winner, category, tstamp, flagged, import_id, question_id, judge, turn, anony, language, conv_metadata,
       conversation_a, conversation_b)
      SELECT value ->> 0, 'import', value ->> 1, value ->> 2, value ->> 3, value ->> 4, value ->> 5, value ->> 6, ?1,
             value ->> 7, value ->> 8, value ->> 9, value ->> 10, value ->> 11, value ->> 12, value ->> 13, value ->> 14
      FROM json_each(?2)`);
  // D1's change counts include the counters' triggers: count this import's rows around the inserts instead.
  const count = db.$client.prepare("SELECT count(*) AS n FROM battles WHERE import_id = ?").bind(importId);
  const results = await db.$client.batch<{ n: number }>([
    count,
    ...groups.map((json) => insert.bind(importId, json)),
    count,
  ]);
  return results[results.length - 1].results[0].n - results[0].results[0].n;
}

export interface ExportedRow {
  rowid: number;
  source: BattleSource;
  modelA: string;
  modelB: string;
  winner: ImportedBattle["winner"];
  tstamp: number;
  questionId: string | null;
  comparisonId: string | null;
  runId: string | null;
  turn: number | null;
  anony: number | null;
  language: string | null;
  judge: string | null;
  category: string | null;
  convMetadata: string | null;
  conversationA: string | null;
  conversationB: string | null;
}

/** The battles of the given sources in insertion order, a page at a time: the archived ones, then D1's. */
export async function* exportedBattles(
  db: Db,
  archive: R2Bucket | undefined,
  sources: BattleSource[],
  includeFlagged: boolean,
): AsyncGenerator<ExportedRow[]> {
  for await (const page of archivedBattles(db.$client, archive, { sources, category: "", includeFlagged }, 0))
    yield page.map((b) => ({
      rowid: b.rowid,
      source: b.source,
      modelA: b.model_a,
      modelB: b.model_b,
      winner: b.winner,
      tstamp: b.tstamp,
      questionId: b.question_id,
      comparisonId: b.comparison_id,
      runId: b.run_id,
      turn: b.turn,
      anony: b.anony,
      language: b.language,
      judge: b.judge,
      category: b.category,
      convMetadata: b.conv_metadata,
      // Segments archived before battles kept conversations have none.
      conversationA: b.conversation_a ?? null,
      conversationB: b.conversation_b ?? null,
    }));
  for (let after = 0; ; ) {
    const page = await battlePage(db, sources, includeFlagged, after, EXPORT_PAGE);
    yield page;
    if (page.length < EXPORT_PAGE) return;
    after = page[page.length - 1].rowid;
  }
}

const EXPORT_PAGE = 5000;

/** One page of D1's battles of the given sources after `rowid`, in insertion order. */
async function battlePage(
  db: Db,
  sources: BattleSource[],
  includeFlagged: boolean,
  rowid: number,
  limit: number,
): Promise<ExportedRow[]> {
  const list = sql.join(
    sources.map((s) => sql`${s}`),
    sql`, `,
  );
  return db.all<ExportedRow>(sql`SELECT rowid, source, model_a AS modelA, model_b AS modelB, winner, tstamp, question_id AS questionId,
      comparison_id AS comparisonId, run_id AS runId, turn, anony, language, judge, category, conv_metadata AS convMetadata,
      conversation_a AS conversationA, conversation_b AS conversationB
    FROM battles WHERE rowid > ${rowid} AND +source IN (${list})${includeFlagged ? sql`` : sql` AND +flagged = 0`}
    ORDER BY rowid LIMIT ${limit}`);
}
