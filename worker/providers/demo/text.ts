/** Small text helpers shared by the demo's answering and reviewing. */

const STOP_WORDS = new Set(
  (
    "a an the and or but if then so to of in on at by for with from into about as is are was were be been being do does did " +
    "have has had i me my we our you your it its this that these those there their they them what which who whom whose when " +
    "where why how can could should would will shall may might must not no yes please tell explain describe give show help " +
    "want need know use using get make best way ways some any more most much many very just also than vs versus between " +
    "difference differences compare better work works read write run create find start stop build add remove change " +
    "learn understand choose pick step steps detail details include"
  ).split(" "),
);

/** The question's distinctive words in their own spelling ("TLS", "JavaScript"), first use first. */
export function keywordsOf(text: string, max = 4): string[] {
  const seen = new Map<string, string>();
  for (const word of text.match(/[\p{L}\p{N}][\p{L}\p{N}+#-]*/gu) ?? []) {
    const key = word.toLowerCase();
    if (word.length >= 3 && !STOP_WORDS.has(key) && !seen.has(key)) seen.set(key, word);
  }
  return [...seen.values()].slice(0, max);
}

/** FNV-1a: a stable seed, so wording varies between questions but never between calls. */
export function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return h;
}

export const pick = <T>(seed: number, options: readonly T[]) => options[seed % options.length];
export const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

/**
 * The question on one line, whole when it fits in `max` characters, else cut at the last word boundary that fits,
 * with an ellipsis: never in the middle of a word. Markdown markers are escaped so the quote shows as typed.
 */
export function quoteQuestion(question: string, max = 120): string {
  const flat = question.replace(/\s+/g, " ").trim();
  let shown = flat;
  if ([...flat].length > max) {
    const chars = [...flat];
    const room = chars.slice(0, max).join("");
    // Cut after the last whole word: the room itself when the next character is a space.
    const end = /\s/.test(chars[max]) ? room.length : room.search(/\s\S*$/);
    // One enormous word has no boundary to cut at: show none of it rather than half of it.
    shown = `${end > 0 ? room.slice(0, end).replace(/[\s,;:]+$/, "") : ""}…`;
  }
  return `“${shown.replace(/[\\`*_[\]<>|#]/g, "\\$&")}”`;
}
