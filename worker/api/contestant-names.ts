/**
 * How contestants are shown: a model by its catalog name, a preset version (`preset:<slug>@<n>`) by its own name
 * and version ("Terse v2") with its model beside it. One read of the presets for any number of ids.
 */
import { presetNames } from "../db/evaluation-report-queries";
import type { Db } from "../db/queries";
import { displayName } from "../providers/registry";
import { parsePresetId } from "../shared/contestant";
import type { ContestantName, ContestantNames } from "../shared/contestant-name";
import { presetDisplayName } from "../shared/preset-names";

export async function contestantNames(db: Db, ids: readonly string[]): Promise<Map<string, ContestantName>> {
  const unique = [...new Set(ids)];
  const found = await presetNames(
    db,
    unique.map(parsePresetId).filter((r) => r !== null),
  );
  return new Map(
    unique.map((id): [string, ContestantName] => {
      const ref = parsePresetId(id);
      if (!ref) return [id, { displayName: displayName(id), modelId: null }];
      const preset = found.get(id);
      return [
        id,
        preset
          ? { displayName: presetDisplayName({ name: preset.name, version: ref.version }), modelId: preset.modelId }
          : { displayName: id, modelId: null },
      ];
    }),
  );
}

/** The names of `ids` as a response carries them (`names`), keyed by id. */
export async function namesRecord(db: Db, ids: readonly string[]): Promise<ContestantNames> {
  return Object.fromEntries(await contestantNames(db, ids));
}
