/**
 * Chatbot Arena's "clean battle" objects (FastChat's battle logs): strict parsing into ImportedBattle and the
 * reverse. Pure, so the Worker, the import CLI and tests share one set of rules and one set of messages.
 */
import type { ImportedBattle } from "../db/battle-queries";
import type { ConversationMessage } from "../shared/arena";
import { WINNERS, type Winner } from "../rating/battle-outcome";
import { controlCharacterIn } from "../shared/requests";
import type { BATTLE_LOG_SPELLINGS } from "../shared/constants";
import { importedTagsOf } from "../labels/imported";

export type { ImportedBattle };

export type ParseBattleResult = { ok: true; battle: ImportedBattle } | { ok: false; error: string };

const MAX_NAME_CHARS = 200;
/**
 * Both sides' conversations together, as JSON: D1 holds at most 2 MB a row (and a value), and lmarena's longest
 * conversations stay well under this.
 */
export const MAX_CONVERSATION_BYTES = 1_000_000;
const MAX_ROLE_CHARS = 50;
/** Arena's style features take ~400 bytes; 4 KB leaves room without letting metadata become a payload channel. */
const MAX_CONV_METADATA_BYTES = 4096;
// Depth bound keeps the walk finite on cyclic objects handed in from JavaScript rather than JSON.
const MAX_METADATA_DEPTH = 16;
const FORBIDDEN_KEYS = new Set(["__proto__", "constructor", "prototype"]);

class Invalid extends Error {}

/** A short, quotable rendering of a bad value for an error message. */
export function describeValue(value: unknown): string {
  if (value === undefined) return "nothing";
  if (typeof value === "string") return JSON.stringify(value.length > 60 ? `${value.slice(0, 60)}…` : value);
  if (Array.isArray(value)) return "an array";
  if (value !== null && typeof value === "object") return "an object";
  return String(value);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

function name(obj: Record<string, unknown>, key: string): string {
  const value = obj[key];
  if (value === undefined || value === null) throw new Invalid(`${key} is missing`);
  if (typeof value !== "string" || value.trim() === "")
    throw new Invalid(`${key} must be a non-empty string; got ${describeValue(value)}`);
  // Names are kept exactly as given, so " gpt-4" and "gpt-4" would silently become two models.
  if (value !== value.trim())
    throw new Invalid(`${key} must not start or end with whitespace; got ${describeValue(value)}`);
  if (value.length > MAX_NAME_CHARS)
    throw new Invalid(`${key} must be at most ${MAX_NAME_CHARS} characters; got ${value.length}`);
  const control = controlCharacterIn(value);
  if (control) throw new Invalid(`${key} must not contain control or invisible characters; found ${control}`);
  return value;
}

function optionalString(obj: Record<string, unknown>, key: string): string | null {
  const value = obj[key];
  if (value === undefined || value === null) return null;
  if (typeof value !== "string") throw new Invalid(`${key} must be a string; got ${describeValue(value)}`);
  if (value.length > MAX_NAME_CHARS)
    throw new Invalid(`${key} must be at most ${MAX_NAME_CHARS} characters; got ${value.length}`);
  return value;
}

function optionalTurn(turn: unknown): number | null {
  if (turn === undefined || turn === null) return null;
  if (typeof turn !== "number" || !Number.isSafeInteger(turn) || turn < 0)
    throw new Invalid(`turn must be a non-negative integer; got ${describeValue(turn)}`);
  return turn;
}

function optionalAnony(anony: unknown): boolean | null {
  if (anony === undefined || anony === null) return null;
  if (typeof anony !== "boolean") throw new Invalid(`anony must be true or false; got ${describeValue(anony)}`);
  return anony;
}

function checkMetadata(value: unknown, path: string, depth: number): void {
  if (depth > MAX_METADATA_DEPTH)
    throw new Invalid(`conv_metadata is nested deeper than ${MAX_METADATA_DEPTH} levels at ${path}`);
  if (value === null || typeof value === "string" || typeof value === "boolean") return;
  if (typeof value === "number") {
    if (!Number.isFinite(value)) throw new Invalid(`${path} must be a finite number; got ${describeValue(value)}`);
    return;
  }
  if (Array.isArray(value)) {
    value.forEach((item, i) => {
      checkMetadata(item, `${path}[${i}]`, depth + 1);
    });
    return;
  }
  if (!isPlainObject(value)) {
    const kind = typeof value === "object" ? `a ${Object.prototype.toString.call(value).slice(8, -1)}` : typeof value;
    throw new Invalid(`${path} must be plain JSON data; got ${kind}`);
  }
  for (const key of Object.keys(value)) {
    if (FORBIDDEN_KEYS.has(key)) throw new Invalid(`${path} must not contain the key "${key}"`);
    checkMetadata(value[key], `${path}.${key}`, depth + 1);
  }
}

function convMetadata(obj: Record<string, unknown>): Record<string, unknown> | null {
  const value = obj.conv_metadata;
  if (value === undefined || value === null) return null;
  if (!isPlainObject(value)) throw new Invalid(`conv_metadata must be an object; got ${describeValue(value)}`);
  checkMetadata(value, "conv_metadata", 0);
  // Rejected rather than dropped: silently losing style features would skew style-controlled ratings unnoticed.
  const bytes = new TextEncoder().encode(JSON.stringify(value)).length;
  if (bytes > MAX_CONV_METADATA_BYTES)
    throw new Invalid(`conv_metadata must be at most ${MAX_CONV_METADATA_BYTES} bytes as JSON; got ${bytes}`);
  return value;
}

function conversation(obj: Record<string, unknown>, key: string): ConversationMessage[] | null {
  const value = obj[key];
  if (value === undefined || value === null) return null;
  if (!Array.isArray(value))
    throw new Invalid(`${key} must be an array of { role, content }; got ${describeValue(value)}`);
  return value.map((message: unknown, k) => {
    if (!isPlainObject(message)) throw new Invalid(`${key}[${k}] must be an object; got ${describeValue(message)}`);
    const { role, content } = message;
    if (typeof role !== "string" || role === "" || role.length > MAX_ROLE_CHARS)
      throw new Invalid(
        `${key}[${k}].role must be a string of 1–${MAX_ROLE_CHARS} characters; got ${describeValue(role)}`,
      );
    if (typeof content !== "string")
      throw new Invalid(`${key}[${k}].content must be a string; got ${describeValue(content)}`);
    // Only the two fields FastChat writes are kept.
    return { role, content };
  });
}

/** FastChat's conversation_a and conversation_b, kept as they are, or refused whole when too large to store. */
function conversations(obj: Record<string, unknown>) {
  const [a, b] = [conversation(obj, "conversation_a"), conversation(obj, "conversation_b")];
  const bytes = a || b ? new TextEncoder().encode(JSON.stringify([a, b])).length : 0;
  if (bytes > MAX_CONVERSATION_BYTES)
    throw new Invalid(
      `conversation_a and conversation_b must be at most ${MAX_CONVERSATION_BYTES} bytes together as JSON; got ${bytes}`,
    );
  return { conversationA: a, conversationB: b };
}

function read(value: unknown): ImportedBattle {
  if (!isPlainObject(value)) throw new Invalid(`a battle must be a JSON object; got ${describeValue(value)}`);
  if (Object.hasOwn(value, "__proto__")) throw new Invalid(`a battle must not contain the key "__proto__"`);
  const modelA = name(value, "model_a");
  const modelB = name(value, "model_b");
  if (modelA === modelB) throw new Invalid(`model_a and model_b must differ; both are ${describeValue(modelA)}`);
  // lmarena's newer datasets (arena-human-preference-140k and on) spell both-bad `both_bad`.
  const winner = value.winner === LMARENA_BOTH_BAD ? "tie (bothbad)" : value.winner;
  if (!(WINNERS as readonly unknown[]).includes(winner))
    throw new Invalid(
      `winner must be one of ${WINNERS.join(", ")} (or ${LMARENA_BOTH_BAD}); got ${describeValue(value.winner)}`,
    );
  const tstamp = value.tstamp;
  if (tstamp === undefined || tstamp === null) throw new Invalid("tstamp is missing");
  if (typeof tstamp !== "number" || !Number.isFinite(tstamp) || tstamp < 0) {
    throw new Invalid(`tstamp must be a number of seconds since 1970, at least 0; got ${describeValue(tstamp)}`);
  }
  return {
    modelA,
    modelB,
    winner: winner as Winner,
    tstamp,
    questionId: optionalString(value, "question_id"),
    turn: optionalTurn(value.turn),
    anony: optionalAnony(value.anony),
    language: optionalString(value, "language"),
    judge: optionalString(value, "judge"),
    category: optionalString(value, "category"),
    convMetadata: convMetadata(value),
    ...conversations(value),
    ...tagsOf(value),
  };
}

/** The labels the line's categories give, when it carries any (the key is left out otherwise). */
function tagsOf(line: Record<string, unknown>): { tags?: string[] } {
  const tags = importedTagsOf(line);
  return tags.length ? { tags } : {};
}

/**
 * Validates one clean-battle object. lmarena's category tags are read as the prompt's labels (labels/imported.ts);
 * other unknown fields (dedup_tag, …) are ignored; null counts as absent for the optional ones. The error is one
 * line a person can act on.
 */
export function parseBattle(value: unknown): ParseBattleResult {
  try {
    return { ok: true, battle: read(value) };
  } catch (error) {
    if (error instanceof Invalid) return { ok: false, error: error.message };
    throw error;
  }
}

/** How a log spells the winner: FastChat's clean battles, or lmarena's newer datasets (`both_bad`). */
export type WinnerSpelling = (typeof BATTLE_LOG_SPELLINGS)[number];

const LMARENA_BOTH_BAD = "both_bad";

/** The battle as Arena's notebooks read it: snake_case keys, optional fields left out when null. */
export function toCleanBattle(
  b: ImportedBattle & { source?: string },
  spelling: WinnerSpelling = "fastchat",
): Record<string, unknown> {
  const winner = spelling === "lmarena" && b.winner === "tie (bothbad)" ? LMARENA_BOTH_BAD : b.winner;
  const out: Record<string, unknown> = { model_a: b.modelA, model_b: b.modelB, winner };
  if (b.judge !== null) out.judge = b.judge;
  if (b.turn !== null) out.turn = b.turn;
  if (b.anony !== null) out.anony = b.anony;
  if (b.language !== null) out.language = b.language;
  out.tstamp = b.tstamp;
  if (b.questionId !== null) out.question_id = b.questionId;
  if (b.category !== null) out.category = b.category;
  if (b.convMetadata !== null) out.conv_metadata = b.convMetadata;
  if (b.conversationA !== null) out.conversation_a = b.conversationA;
  if (b.conversationB !== null) out.conversation_b = b.conversationB;
  if (b.source !== undefined) out.source = b.source;
  return out;
}
