/**
 * Writes human votes straight into a local D1 database (its SQLite file, while no server has it open):
 * the rows the vote route writes, per seed 000 — a comparison, its model_votes rows (left/right one row,
 * tie two, both bad one with no winner) and one battle — so the migrations' triggers fill the counters
 * exactly as they do for live votes. Going through the API would take hours at this size.
 */
import { DatabaseSync } from "node:sqlite";
import { type Battles, BOTH_BAD, CHOICE_NAMES, MODELS, seqId, TIE, WINNER_NAMES } from "./synthetic";

const COMPARISON = 1;
const VOTE = 2;
const BATCH = 50_000;

export function seedVotes(
  file: string,
  battles: Battles,
  unvoted: { a: Int32Array; b: Int32Array },
): { comparisons: number; voteRows: number; battles: number } {
  const db = new DatabaseSync(file);
  try {
    db.exec("PRAGMA synchronous = OFF; PRAGMA cache_size = -1048576; PRAGMA wal_autocheckpoint = 100000");
    // Seed 000's own model table, which the baseline query (bench/leaderboard-baseline/) reads; Quorum has none.
    db.exec("CREATE TABLE ai_models (model_id TEXT PRIMARY KEY, model_name TEXT NOT NULL)");
    const model = db.prepare("INSERT INTO ai_models (model_id, model_name) VALUES (?, ?)");
    const comparison =
      db.prepare(`INSERT INTO comparisons (id, created_at, model1_id, model2_id, prompt, category, blind, mode, status, both_answered_at, revealed_at)
      VALUES (?, ?, ?, ?, ?, NULL, 1, 'sampled', ?, ?, ?)`);
    const vote = db.prepare(
      "INSERT INTO model_votes (id, comparison_id, vote_id, choice, winner_model_id, client_id, created_at, flags) VALUES (?, ?, ?, ?, ?, ?, ?, '[]')",
    );
    const battle =
      db.prepare(`INSERT INTO battles (id, source, model_a, model_b, winner, category, tstamp, flagged, vote_id, comparison_id, turn, anony)
      VALUES (?, 'human', ?, ?, ?, NULL, ?, 0, ?, ?, 1, 1)`);

    db.exec("BEGIN");
    for (const id of MODELS) model.run(id, id.slice(id.indexOf(":") + 1));
    db.exec("COMMIT");

    let voteRows = 0;
    const t0 = 1_700_000_000_000;
    for (let start = 0; start < battles.count; start += BATCH) {
      db.exec("BEGIN");
      for (let k = start; k < Math.min(start + BATCH, battles.count); k++) {
        const left = MODELS[battles.a[k]];
        const right = MODELS[battles.b[k]];
        const o = battles.outcome[k];
        const cid = seqId(COMPARISON, k);
        const vid = seqId(VOTE, k);
        const created = t0 + k * 1000;
        comparison.run(
          cid,
          created - 20_000,
          left,
          right,
          `Prompt ${k}: explain something in a paragraph.`,
          "voted",
          created - 5_000,
          created,
        );
        const winners = o === TIE ? [left, right] : o === BOTH_BAD ? [null] : [o === 0 ? left : right];
        for (const [n, w] of winners.entries())
          vote.run(`${vid}:${n + 1}`, cid, vid, CHOICE_NAMES[o], w, `client:bench-${k % 5000}`, created);
        voteRows += winners.length;
        battle.run(`vote:${vid}`, left, right, WINNER_NAMES[o], created / 1000, vid, cid);
      }
      db.exec("COMMIT");
    }
    db.exec("BEGIN");
    for (let k = 0; k < unvoted.a.length; k++) {
      const created = t0 + (battles.count + k) * 1000;
      comparison.run(
        seqId(COMPARISON, battles.count + k),
        created,
        MODELS[unvoted.a[k]],
        MODELS[unvoted.b[k]],
        `Prompt ${battles.count + k}: never voted on.`,
        "ready",
        created,
        null,
      );
    }
    db.exec("COMMIT");
    return { comparisons: battles.count + unvoted.a.length, voteRows, battles: battles.count };
  } finally {
    db.close();
  }
}
