/**
 * Views of a text that the rules scan, each with the way back to the text's own positions: invisible
 * characters hide nothing, and a key split by one space is still a key.
 */

/** A text the rules see, and for each of its characters the position it came from. */
export interface View {
  text: string;
  /** from[i] is the position in the original text of the view's character i */
  from: number[];
}

// Zero-width and other invisible format characters (soft hyphen, word joiner, BOM, bidi marks, the
// invisible operators), the combining grapheme joiner and the Hangul fillers that render as nothing.
// The joiner is an alternative of its own: inside a class a combining mark reads as part of a cluster.
const INVISIBLE = /[\p{Cf}\u115F\u1160\u3164\uFFA0]|\u034F/u;
// Spaces other than U+0020: a key split by a no-break or thin space is split by a space.
const ODD_SPACE = /[\u00A0\u1680\u2000-\u200A\u202F\u205F\u3000]/u;

/** The text without invisible characters, every kind of space written as one plain space. */
export function normalised(text: string): View {
  let out = "";
  const from: number[] = [];
  let i = 0;
  for (const ch of text) {
    if (!INVISIBLE.test(ch)) {
      out += ODD_SPACE.test(ch) ? " " : ch;
      // a character outside the BMP is two UTF-16 units: both come from where it starts
      for (let k = 0; k < ch.length; k++) from.push(i + k);
    }
    i += ch.length;
  }
  return { text: out, from };
}

/**
 * A piece of a key: made of key characters and machine-made — a digit, a capital inside, or ending like a
 * key's prefix (`sk_live_`, `npm_`, `ya29.`). Words of prose are none of these, so they stay apart.
 */
const isKeyPiece = (s: string) =>
  /^[A-Za-z0-9_\-+/=.~]{2,}$/.test(s) && (/\d/.test(s) || /.[A-Z]/.test(s) || /[_.-]$/.test(s));

/** The view with one space (or tab) removed wherever it stands between two pieces of a key. */
export function joined(view: View): View {
  const parts = view.text.split(/(\s+)/);
  let out = "";
  const from: number[] = [];
  let at = 0;
  parts.forEach((part, k) => {
    const isGap = k % 2 === 1;
    const drop =
      isGap && (part === " " || part === "\t") && isKeyPiece(parts[k - 1]!) && isKeyPiece(parts[k + 1] ?? "");
    if (!drop) {
      out += part;
      for (let c = 0; c < part.length; c++) from.push(view.from[at + c]!);
    }
    at += part.length;
  });
  return { text: out, from };
}
