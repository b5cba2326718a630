/**
 * Splits a demo answer into the chunks it streams in: words with their trailing space, except that an inline span
 * (`code`, **bold**, _emphasis_, *emphasis*) and a table row are each one chunk. A stream cut anywhere (a cancel,
 * maxTokens) then ends on a word or a whole span, never on half of a Markdown marker that would show up raw.
 */

/** Where the span opened at `at` by `marker` closes on the same line (the index just after it), or -1. */
function closeOf(text: string, at: number, marker: string): number {
  const lineEnd = text.indexOf("\n", at);
  const end = lineEnd < 0 ? text.length : lineEnd;
  const close = text.indexOf(marker, at + marker.length);
  return close >= 0 && close + marker.length <= end ? close + marker.length : -1;
}

/** The opening marker at `i`: a whole run of backticks, `**`, or `_`/`*` at the start of a word. */
function markerAt(text: string, i: number, wordStart: boolean): string | null {
  if (text[i] === "`") return /^`+/.exec(text.slice(i))![0];
  if (text.startsWith("**", i)) return "**";
  if (wordStart && (text[i] === "_" || text[i] === "*") && /\S/.test(text[i + 1] ?? "")) return text[i];
  return null;
}

/** Where the word starting at `start` ends, jumping over any span that closes on its line. */
function wordEnd(text: string, start: number): number {
  let i = start;
  while (i < text.length && !/\s/.test(text[i])) {
    const marker = markerAt(text, i, i === start);
    const close = marker ? closeOf(text, i, marker) : -1;
    i = close > 0 ? close : i + (marker?.length ?? 1);
  }
  return i;
}

export function streamChunks(text: string): string[] {
  const chunks: string[] = [];
  let i = 0;
  while (i < text.length) {
    const lineStart = i === 0 || text[i - 1] === "\n";
    let end: number;
    if (lineStart && text[i] === "|") {
      const newline = text.indexOf("\n", i);
      end = newline < 0 ? text.length : newline + 1;
    } else {
      end = /\s/.test(text[i]) ? i : wordEnd(text, i);
      // Trailing spaces and line breaks ride with the word.
      while (end < text.length && /\s/.test(text[end])) end++;
    }
    chunks.push(text.slice(i, end));
    i = end;
  }
  return chunks;
}
