/** From a contestant id to the provider call it makes: a preset's model and parameters, or the model id itself. */
import type { CallTarget, CallTargets } from "../db/records";
import { displayName } from "../providers/registry";
import type { ContestantNames } from "../shared/contestant-name";

export function targetOf(targets: CallTargets | undefined, contestantId: string): CallTarget {
  return targets?.[contestantId] ?? { modelId: contestantId, params: {} };
}

/**
 * A task's own instructions (a review, a verdict, a synthesis) with a preset's system prompt before them: the preset
 * stays itself, and the task's format still comes last, where it binds.
 */
export function withPresetSystem(target: CallTarget, system: string): string {
  const own = target.params.systemPrompt?.trim();
  return own ? `${own}\n\n${system}` : system;
}

/** How a contestant is shown: a preset by its own name and version, a model by its catalog name. */
export function shownName(targets: CallTargets | undefined, contestantId: string): string {
  return targets?.[contestantId]?.displayName ?? displayName(contestantId);
}

/** How each of `ids` is shown, with a preset's model beside it (contestant-name.ts). */
export function shownNames(targets: CallTargets | undefined, ids: readonly string[]): ContestantNames {
  return Object.fromEntries(
    ids.map((id) => [id, { displayName: shownName(targets, id), modelId: targets?.[id]?.modelId ?? null }]),
  );
}
