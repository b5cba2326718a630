/**
 * Leaderboard rows of presets: each named as its preset and version ("Terse v2") with the model it runs on beside
 * it. A preset with battles was used, so its name and model never change again: the named rows can be kept as long
 * as the standings they were made from.
 */
import { presetsByRef } from "../db/preset-queries";
import type { Db } from "../db/queries";
import type { LeaderboardRow } from "../shared/arena";
import { type PresetRef, parsePresetId, presetId } from "../shared/contestant";
import { presetDisplayName } from "../shared/preset-names";

const named = new WeakMap<object, unknown>();

/** `standings` with its preset rows named; the same object when none of its rows is a preset. */
export async function withPresetRows<S extends { rows: LeaderboardRow[] }>(db: Db, standings: S): Promise<S> {
  const refs = standings.rows.map((r) => parsePresetId(r.modelId)).filter((r): r is PresetRef => r !== null);
  if (!refs.length) return standings;
  const kept = named.get(standings);
  if (kept) return kept as S;
  const presets = new Map((await presetsByRef(db, refs)).map((p) => [presetId(p), p]));
  const rows = standings.rows.map((row) => {
    const preset = presets.get(row.modelId);
    return preset ? { ...row, displayName: presetDisplayName(preset), baseModel: preset.modelId } : row;
  });
  const result = { ...standings, rows };
  named.set(standings, result);
  return result;
}
