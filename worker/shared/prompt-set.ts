/**
 * What a prompt set's items are, apart from how they arrive (a JSON body, JSON Lines, CSV): their ids and the
 * checks that span a whole set. Zod-free, so the page shares it.
 */
import type { ConversationMessage } from "./arena";

/** One item of a set as it is stored and served; `turns` are a multi-turn item's earlier turns, before `prompt`. */
export interface PromptSetItem {
  id: string;
  prompt: string;
  category: string | null;
  reference: string | null;
  turns: ConversationMessage[] | null;
  /** what a goal evaluation's battles on this item pursue (null: none) */
  goal: string | null;
  /** who the simulated user plays in its goal battles */
  persona: string | null;
  /** what a side writes once the goal is reached */
  marker: string | null;
}

/** The index of the first item without a goal (which a goal evaluation can't run), or -1 when all have one. */
export const firstWithoutGoal = (items: readonly Pick<PromptSetItem, "goal">[]) => items.findIndex((i) => !i.goal);

/** The id of an item given none: its 1-based position in the set. */
export const autoItemId = (position: number) => `item-${position}`;

/**
 * The first item whose id an earlier one already has (ids given or automatic), as the indexes of both, or null.
 * Ids are compared as given: `A` and `a` are two ids.
 */
export function repeatedId(ids: readonly string[]): { id: string; first: number; again: number } | null {
  const seen = new Map<string, number>();
  for (let k = 0; k < ids.length; k++) {
    const earlier = seen.get(ids[k]);
    if (earlier !== undefined) return { id: ids[k], first: earlier, again: k };
    seen.set(ids[k], k);
  }
  return null;
}

/**
 * Why `turns` can't come before a prompt, or null when they can: they alternate user and assistant, starting with
 * the user, and end with the assistant's reply, since the item's prompt is the user's next turn.
 */
export function turnsProblem(turns: readonly { role: string }[]): string | null {
  if (!turns.length) return null;
  const wrong = turns.findIndex((t, k) => t.role !== (k % 2 === 0 ? "user" : "assistant"));
  if (wrong !== -1)
    return `turns must alternate user and assistant, starting with user: turn ${wrong + 1} is "${turns[wrong].role}"`;
  if (turns.length % 2 === 1)
    return "turns must end with an assistant reply: the item's prompt is the user's next turn";
  return null;
}
