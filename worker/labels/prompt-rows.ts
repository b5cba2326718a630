/**
 * The prompt and label rows of one conversation (migration 0015), for the import and for a comparison's first
 * vote: its hash for dedup, the rule labels and the log's own labels at once, and, when the classifier has yet
 * to see it, its text queued for the label pass.
 */
import { type ImportedBattle, importedBattleId, type NumberedBattle } from "../db/battle-queries";
import type { LabelRow, PromptRow } from "../db/label-queries";
import { LABEL_IMPORT_SOURCE, LABEL_RULE_SOURCE } from "../shared/constants";
import { languageCodeOf } from "./language";
import { PROMPT_CHARS, promptHash, ruleLabels, userTextOf } from "./rules";

function userTurnsOf(conversation: ImportedBattle["conversationA"]): string[] | null {
  const turns = (conversation ?? []).filter((m) => m.role === "user").map((m) => m.content);
  return turns.length ? turns : null;
}

/**
 * An imported chunk's prompts and labels. Rule labels come from the log's own fields where it has them (`turn`,
 * conv_metadata's `sum_user_tokens`, `language`) and else from the conversation; the log's categories are labels
 * of source `import`. A battle whose log gave no categories but a conversation waits for the classifier when
 * one is set (`queueAt`, the time it is queued; null: no classifier).
 */
export function importedPromptRows(
  importId: string,
  items: NumberedBattle[],
  queueAt: number | null,
): { prompts: PromptRow[]; labels: LabelRow[] } {
  const prompts: PromptRow[] = [];
  const labels: LabelRow[] = [];
  for (const { line, battle } of items) {
    const ref = importedBattleId(importId, line);
    const turns = userTurnsOf(battle.conversationA);
    const text = turns ? userTextOf(turns) : null;
    const sumUserTokens = battle.convMetadata?.sum_user_tokens;
    const rules = ruleLabels({
      text,
      turns: battle.turn ?? turns?.length ?? null,
      userTokens: typeof sumUserTokens === "number" ? sumUserTokens : null,
      language: battle.language === null ? null : languageCodeOf(battle.language),
    });
    // The language a log names is the log's word, not a rule's.
    const fromLog = (label: string) => label.startsWith("lang:") && battle.language !== null;
    for (const label of rules)
      labels.push({ ref, label, source: fromLog(label) ? LABEL_IMPORT_SOURCE : LABEL_RULE_SOURCE });
    const tags = battle.tags ?? [];
    for (const label of tags) labels.push({ ref, label, source: LABEL_IMPORT_SOURCE });
    if (text === null) continue;
    const pending = queueAt !== null && tags.length === 0;
    prompts.push({
      ref,
      hash: promptHash(text),
      text: pending ? text.slice(0, PROMPT_CHARS) : null,
      turns: turns?.length ?? null,
      pendingSince: pending ? queueAt : null,
    });
  }
  return { prompts, labels };
}

/**
 * A voted comparison's prompt row, queued for the label pass (rule labels and the classifier alike run there,
 * off the vote's path).
 */
export function comparisonPromptRow(comparisonId: string, userTurns: string[], now: number): PromptRow {
  const text = userTextOf(userTurns);
  return {
    ref: comparisonId,
    hash: promptHash(text),
    text: text.slice(0, PROMPT_CHARS),
    turns: userTurns.length,
    pendingSince: now,
  };
}
