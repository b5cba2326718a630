/**
 * Prompts and their labels (migration 0015): what the import and a comparison's first vote queue, what the label
 * pass reads and writes, and the label counts the leaderboard's filters show. The leaderboard's label-filtered
 * and deduplicated reads are in slice-battles.ts.
 */
import type { Db } from "./queries";

export interface PromptRow {
  /** the comparison's id, or the imported battle's */
  ref: string;
  hash: string | null;
  /** kept only while the prompt waits for the label pass */
  text: string | null;
  turns: number | null;
  pendingSince: number | null;
}

export interface LabelRow {
  ref: string;
  label: string;
  /** the classifier model's id, `rule` or `import` */
  source: string;
}

/** Keeps each statement's one JSON parameter well under D1's 2 MB value limit. */
const MAX_JSON_CHARS = 900_000;

/** `rows` as JSON arrays, grouped so that no group's JSON passes MAX_JSON_CHARS. */
function jsonGroups(rows: unknown[][]): string[] {
  const groups: string[] = [];
  let group: string[] = [];
  let size = 0;
  for (const row of rows) {
    const json = JSON.stringify(row);
    if (size + json.length > MAX_JSON_CHARS && group.length) {
      groups.push(`[${group.join(",")}]`);
      group = [];
      size = 0;
    }
    group.push(json);
    size += json.length + 1;
  }
  if (group.length) groups.push(`[${group.join(",")}]`);
  return groups;
}

/**
 * Statements that add prompts and labels, each written once: a prompt or label already there stays as it is
 * (a resent import chunk, a vote after a withdrawal), so the first source recorded for a label is the one kept.
 */
export function promptWrites(d1: D1Database, prompts: PromptRow[], labels: LabelRow[]): D1PreparedStatement[] {
  const addPrompts = d1.prepare(
    `INSERT OR IGNORE INTO prompts (ref, hash, text, turns, pending_since)
     SELECT value ->> 0, value ->> 1, value ->> 2, value ->> 3, value ->> 4 FROM json_each(?)`,
  );
  const addLabels = d1.prepare(
    "INSERT OR IGNORE INTO prompt_labels (label, ref, source) SELECT value ->> 0, value ->> 1, value ->> 2 FROM json_each(?)",
  );
  return [
    ...jsonGroups(prompts.map((p) => [p.ref, p.hash, p.text, p.turns, p.pendingSince])).map((g) => addPrompts.bind(g)),
    ...jsonGroups(labels.map((l) => [l.label, l.ref, l.source])).map((g) => addLabels.bind(g)),
  ];
}

export async function writePrompts(db: Db, prompts: PromptRow[], labels: LabelRow[]): Promise<void> {
  const writes = promptWrites(db.$client, prompts, labels);
  if (writes.length) await db.$client.batch(writes);
}

export interface PendingPrompt {
  ref: string;
  text: string | null;
  turns: number | null;
}

/** The prompts waiting longest for the label pass, at most `limit`. */
export async function pendingPrompts(db: Db, limit: number): Promise<PendingPrompt[]> {
  const { results } = await db.$client
    .prepare("SELECT ref, text, turns FROM prompts WHERE pending_since IS NOT NULL ORDER BY pending_since, ref LIMIT ?")
    .bind(limit)
    .all<PendingPrompt>();
  return results;
}

/** Statements that record a pending prompt's labels and take it off the queue, dropping its text. */
export function finishPromptWrites(d1: D1Database, ref: string, labels: LabelRow[]): D1PreparedStatement[] {
  return [
    ...promptWrites(d1, [], labels),
    d1.prepare("UPDATE prompts SET text = NULL, pending_since = NULL WHERE ref = ?").bind(ref),
  ];
}

/**
 * Statements that record a pending prompt's labels so far and send it to the back of the queue, so a prompt
 * waiting for the classifier doesn't hold up those queued after it.
 */
export function requeuePromptWrites(
  d1: D1Database,
  ref: string,
  labels: LabelRow[],
  now: number,
): D1PreparedStatement[] {
  return [
    ...promptWrites(d1, [], labels),
    d1.prepare("UPDATE prompts SET pending_since = ? WHERE ref = ? AND pending_since IS NOT NULL").bind(now, ref),
  ];
}

/** A prompt's labels and where each came from, by label. */
export async function labelsOf(db: Db, ref: string): Promise<LabelRow[]> {
  const { results } = await db.$client
    .prepare("SELECT label, ref, source FROM prompt_labels WHERE ref = ? ORDER BY label")
    .bind(ref)
    .all<LabelRow>();
  return results;
}

export interface LabelCount {
  label: string;
  /** prompts (comparisons and imported battles) with the label */
  prompts: number;
}

/** Prompts per label, for the leaderboard's filters: migration 0015's trigger keeps the counts. */
export async function labelCounts(db: Db): Promise<LabelCount[]> {
  const { results } = await db.$client
    .prepare("SELECT label, prompts FROM label_counts WHERE prompts > 0 ORDER BY label")
    .all<LabelCount>();
  return results;
}
