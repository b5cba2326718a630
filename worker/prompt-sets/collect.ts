/**
 * Checks an uploaded prompt set item by item as its lines arrive: each JSON line or CSV row against the same
 * schema a JSON body is checked with, ids unique across the set, the set's size within bounds. Every bad line is
 * counted (the first few kept, with their line numbers), so one answer lists what to fix.
 */
import type { z } from "zod";
import { MAX_PROMPT_SET_ITEMS } from "../shared/constants";
import { autoItemId, type PromptSetItem } from "../shared/prompt-set";
import { promptSetItemInput } from "../shared/requests";

export interface LineError {
  line: number;
  message: string;
}

/** More items than a set may hold: reading stops there. */
export class TooManyItems extends Error {
  constructor(readonly line: number) {
    super(`line ${line}: a prompt set holds at most ${MAX_PROMPT_SET_ITEMS.toLocaleString("en")} items`);
  }
}

/** Line errors kept for the answer; the rest are counted. */
const SHOWN_ERRORS = 20;
/** An item's stored size: well under D1's 2 MB per value, with room for its neighbours in one statement. */
const MAX_ITEM_BYTES = 1024 * 1024;
const utf8 = new TextEncoder();

/** One zod issue as a sentence: its message, with the turn it is about when it is about one. */
function describeIssue(issue: z.core.$ZodIssue): string {
  if (issue.code === "unrecognized_keys")
    return `unknown field${issue.keys.length > 1 ? "s" : ""} ${issue.keys.map((k) => `"${k}"`).join(", ")} (an item has prompt, and optionally id, category, reference, turns, goal, persona and marker)`;
  const [field, index] = issue.path;
  if (field === "turns" && typeof index === "number") return `turn ${index + 1}: ${issue.message}`;
  return issue.message;
}

export class ItemCollector {
  readonly items: PromptSetItem[] = [];
  readonly errors: LineError[] = [];
  errorCount = 0;
  private seen = 0;
  private readonly lineOfId = new Map<string, number>();

  /** Records a line's problem. */
  reject(line: number, message: string): void {
    this.errorCount++;
    if (this.errors.length < SHOWN_ERRORS) this.errors.push({ line, message });
  }

  /** Checks one item's fields as read from `line`, and keeps it when they are right. */
  add(line: number, value: unknown): void {
    if (++this.seen > MAX_PROMPT_SET_ITEMS) throw new TooManyItems(line);
    const parsed = promptSetItemInput.safeParse(value);
    if (!parsed.success) {
      this.reject(line, describeIssue(parsed.error.issues[0]));
      return;
    }
    const { prompt, id, category, reference, turns, goal, persona, marker } = parsed.data;
    const item: PromptSetItem = {
      id: id ?? autoItemId(this.seen),
      prompt,
      category: category ?? null,
      reference: reference ?? null,
      turns: turns ?? null,
      goal: goal ?? null,
      persona: persona ?? null,
      marker: marker ?? null,
    };
    const earlier = this.lineOfId.get(item.id);
    if (earlier !== undefined) {
      this.reject(
        line,
        `id "${item.id}" is already used on line ${earlier}${id ? "" : " (the id this item gets, having none of its own)"}`,
      );
      return;
    }
    this.lineOfId.set(item.id, line);
    if (utf8.encode(JSON.stringify(item)).length > MAX_ITEM_BYTES) {
      this.reject(line, "the item is larger than 1 MiB; shorten its prompt, reference, turns or goal");
      return;
    }
    this.items.push(item);
  }

  /** How many items were read, good or bad. */
  get count(): number {
    return this.seen;
  }
}
