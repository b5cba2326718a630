/**
 * The four style features of Chatbot Arena's style control, counted from an answer's Markdown the way
 * FastChat's add_markdown_info.py counts them, or read from an imported battle's conv_metadata.
 */

export interface StyleCounts {
  tokens: number;
  headers: number;
  lists: number;
  bold: number;
}

/** The order of every feature vector: Arena's STYLE_CONTROL_ELEMENTS_V1 order. */
export const STYLE_FEATURES = ["tokens", "headers", "lists", "bold"] as const satisfies readonly (keyof StyleCounts)[];

/**
 * Estimated tokens: one per run of up to 8 letters (a longer word one more per further 8), one per group of
 * up to 3 digits, one per CJK, kana or Hangul character and one per other non-space character — roughly what
 * a BPE tokenizer gives English prose (a rule of thumb, not a tokenizer). Vendors' tokenizers differ, so one
 * estimator serves both sides, and the feature is the ratio (a − b)/(a + b + 1): a constant bias cancels.
 */
const WIDE = String.raw`\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}`;
const TOKEN_PIECES = new RegExp(
  String.raw`([${WIDE}])|((?:(?![${WIDE}])[\p{L}\p{M}])+)|\p{N}{1,3}|[^\s\p{L}\p{M}\p{N}]`,
  "gu",
);

export function estimateTokens(text: string): number {
  let tokens = 0;
  for (const piece of text.matchAll(TOKEN_PIECES))
    tokens += piece[2] === undefined ? 1 : Math.ceil(piece[2].length / 8);
  return tokens;
}

const FENCE_OPEN = /^ {0,3}(`{3,}|~{3,})/;
const HEADER = /^#{1,6}(\s|$)/;
const LIST_ITEM = /^\s*(\d+\.|[-*+])(\s|$)/;
const BOLD = /\*\*[^*\n]+\*\*|__[^_\n]+__/g;

/** The lines outside fenced code blocks (``` or ~~~; an unclosed fence runs to the end, as in CommonMark). */
function proseLines(markdown: string): string[] {
  const kept: string[] = [];
  let fence: string | null = null;
  for (const line of markdown.split(/\r?\n/)) {
    const opening = FENCE_OPEN.exec(line);
    if (fence === null) {
      if (opening) fence = opening[1];
      else kept.push(line);
    } else if (
      opening &&
      opening[1][0] === fence[0] &&
      opening[1].length >= fence.length &&
      line.trim() === opening[1]
    ) {
      fence = null;
    }
  }
  return kept;
}

/**
 * Counts over an answer (all assistant turns of one side, joined by newlines). Tokens count everything, code
 * included, as Arena's tiktoken sums do; headers, list items and bold spans count outside code fences only,
 * with Arena's patterns: a header is 1–6 `#` at the very start of a line followed by whitespace; a list item
 * a line starting (after any indentation) with `1.`-style numbers or `-`, `*`, `+` and whitespace; bold a
 * `**…**` or `__…__` span within one line.
 */
export function styleCountsOf(markdown: string): StyleCounts {
  let headers = 0;
  let lists = 0;
  let bold = 0;
  for (const line of proseLines(markdown)) {
    if (HEADER.test(line)) headers++;
    if (LIST_ITEM.test(line)) lists++;
    for (const _ of line.matchAll(BOLD)) bold++;
  }
  return { tokens: estimateTokens(markdown), headers, lists, bold };
}

/** A count in Arena's conv_metadata: a number, or an object of numbers (h1…h6, ordered/unordered, "**"/"__") that sum to it. */
function countOf(value: unknown): number | null {
  const valid = (x: unknown): x is number => typeof x === "number" && Number.isFinite(x) && x >= 0;
  if (valid(value)) return value;
  if (typeof value !== "object" || value === null || Array.isArray(value)) return null;
  let sum = 0;
  for (const part of Object.values(value)) {
    if (!valid(part)) return null;
    sum += part;
  }
  return sum;
}

/**
 * Both sides' counts from a FastChat conv_metadata object (`sum_assistant_a_tokens`, `header_count_a`,
 * `list_count_a`, `bold_count_a` and the `_b` twins); null when any of the eight is missing or malformed.
 */
export function styleCountsFromConvMetadata(meta: Record<string, unknown>): { a: StyleCounts; b: StyleCounts } | null {
  if (typeof meta !== "object" || meta === null) return null;
  const side = (s: "a" | "b"): StyleCounts | null => {
    const tokens = countOf(meta[`sum_assistant_${s}_tokens`]);
    const headers = countOf(meta[`header_count_${s}`]);
    const lists = countOf(meta[`list_count_${s}`]);
    const bold = countOf(meta[`bold_count_${s}`]);
    return tokens === null || headers === null || lists === null || bold === null
      ? null
      : { tokens, headers, lists, bold };
  };
  const a = side("a");
  const b = side("b");
  return a && b ? { a, b } : null;
}

/** Arena's per-battle feature: (a − b)/(a + b + 1) for each of STYLE_FEATURES, in that order. */
export function styleDiffs(a: StyleCounts, b: StyleCounts): [number, number, number, number] {
  const ratio = (x: number, y: number): number => (x - y) / (x + y + 1);
  return [ratio(a.tokens, b.tokens), ratio(a.headers, b.headers), ratio(a.lists, b.lists), ratio(a.bold, b.bold)];
}
