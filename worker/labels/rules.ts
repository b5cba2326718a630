/**
 * The labels no model is needed for, read off the conversation itself: `multi_turn` (more than one user turn),
 * `long_query` (the user's turns come to at least LONG_QUERY_TOKENS tokens, the Arena's threshold) and the
 * prompt's language. Pure, so the import, the label pass and tests share one set of rules.
 */
import { LANGUAGE_LABEL_PREFIX } from "../shared/constants";
import { detectLanguage } from "./language";

/** The Arena's "long query" category: prompts of 500 tokens or more. */
export const LONG_QUERY_TOKENS = 500;

/** Characters of the user's turns a prompt's hash and the classifier read (FastChat's dedup cuts at 10,000 too). */
export const PROMPT_CHARS = 10_000;

/** What the rules read of one conversation. */
export interface PromptFacts {
  /** the user's turns, one after another; null when an imported log carried no conversation */
  text: string | null;
  /** user turns; null when unknown */
  turns: number | null;
  /** the user's tokens as the log counted them (the Arena's `sum_user_tokens`); else estimated from `text` */
  userTokens: number | null;
  /** the language the log named, as a code; else detected from `text` */
  language: string | null;
}

/**
 * Tokens in the text as a GPT-style tokenizer roughly counts them: about four characters each, except in the
 * scripts written without spaces (Han, kana, Hangul, Thai), where each character is about one.
 */
export function estimateTokens(text: string): number {
  const dense = text.match(/[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\u0e00-\u0e7f]/g)?.length ?? 0;
  return dense + Math.ceil((text.length - dense) / 4);
}

/** The user's turns as one text, as FastChat's dedup joins them: each turn followed by a newline. */
export function userTextOf(turns: string[]): string {
  return turns.map((t) => `${t}\n`).join("");
}

/** The rule labels of a conversation. */
export function ruleLabels(facts: PromptFacts): string[] {
  const labels: string[] = [];
  if (facts.turns !== null && facts.turns > 1) labels.push("multi_turn");
  const tokens = facts.userTokens ?? (facts.text === null ? null : estimateTokens(facts.text));
  if (tokens !== null && tokens >= LONG_QUERY_TOKENS) labels.push("long_query");
  const language = facts.language ?? (facts.text === null ? null : detectLanguage(facts.text));
  if (language) labels.push(`${LANGUAGE_LABEL_PREFIX}${language}`);
  return labels;
}

/**
 * A short stable hash of a prompt's text (its first PROMPT_CHARS characters), to count how often the same
 * prompt was asked: 64 bits from two 32-bit FNV-1a passes with different seeds, as 16 hex digits.
 */
export function promptHash(text: string): string {
  const cut = text.slice(0, PROMPT_CHARS);
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ 0x5bd1e995;
  for (let i = 0; i < cut.length; i++) {
    const c = cut.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x01000193) ^ (b >>> 15);
  }
  return (a >>> 0).toString(16).padStart(8, "0") + (b >>> 0).toString(16).padStart(8, "0");
}
