/** What style control reads: the slice's battles that carry style features, and a version of the data. */
import { sql } from "drizzle-orm";
import { archivedBattles } from "./archive";
import type { Winner } from "../rating/battle-outcome";
import type { Slice } from "./leaderboard-queries";
import type { Db } from "./queries";

const PAGE = 20_000;

/** Changes whenever a battle of these sources is added or deleted (and, in a label's view, a label added). */
export async function battlesVersion(db: Db, slice: Slice): Promise<string> {
  const list = sql.join(
    slice.sources.map((s) => sql`${s}`),
    sql`, `,
  );
  const [row] = await db.all<{ last: number | null; epochs: number | null; labels: number | null }>(
    sql`SELECT (SELECT max(rowid) FROM battles) AS last, (SELECT sum(epoch) FROM battle_epochs WHERE source IN (${list})) AS epochs, (SELECT max(rowid) FROM prompt_labels) AS labels`,
  );
  return `${row?.last ?? 0}:${row?.epochs ?? 0}${slice.label ? `:${row?.labels ?? 0}` : ""}`;
}

export interface FeaturedBattle {
  modelA: string;
  modelB: string;
  winner: Winner;
  convMetadata: string | null;
}

/** Every battle of the slice with its conv_metadata (null when it has none), a page at a time: the archived ones first. */
export async function* sliceBattles(
  db: Db,
  archive: R2Bucket | undefined,
  slice: Slice,
): AsyncGenerator<FeaturedBattle[]> {
  for await (const page of archivedBattles(db.$client, archive, slice, 0))
    yield page.map((b) => ({
      modelA: b.model_a,
      modelB: b.model_b,
      winner: b.winner,
      convMetadata: b.conv_metadata,
    }));
  const list = sql.join(
    slice.sources.map((s) => sql`${s}`),
    sql`, `,
  );
  const category = slice.category === "" ? sql`` : sql` AND +category = ${slice.category}`;
  const flagged = slice.includeFlagged ? sql`` : sql` AND +flagged = 0`;
  const demo = slice.withoutDemo
    ? sql` AND substr(model_a, 1, 5) <> 'demo:' AND substr(model_b, 1, 5) <> 'demo:'`
    : sql``;
  const labelled = slice.label
    ? sql` AND EXISTS (SELECT 1 FROM prompt_labels l WHERE l.label = ${slice.label} AND l.ref = coalesce(battles.comparison_id, battles.id))`
    : sql``;
  for (let after = 0; ; ) {
    const page = await db.all<FeaturedBattle & { rowid: number }>(
      sql`SELECT rowid, model_a AS modelA, model_b AS modelB, winner, conv_metadata AS convMetadata FROM battles
          WHERE rowid > ${after} AND +source IN (${list})${category}${flagged}${demo}${labelled} ORDER BY rowid LIMIT ${PAGE}`,
    );
    yield page;
    if (page.length < PAGE) return;
    after = page[page.length - 1].rowid;
  }
}
