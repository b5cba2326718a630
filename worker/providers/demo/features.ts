/** What a demo reviewer notices in an answer: its length, structure, hedging and coverage of the question. */

export interface Features {
  words: number;
  headings: number;
  listItems: number;
  codeBlocks: number;
  caveats: number;
  absolutes: number;
  numbers: number;
  covered: string[];
  relevance: number;
  opening: string;
}

const count = (text: string, pattern: RegExp) => (text.match(pattern) ?? []).length;

export function measure(text: string, questionKeywords: string[]): Features {
  const lower = text.toLowerCase();
  const covered = questionKeywords.filter((k) => lower.includes(k.toLowerCase()));
  const firstLine = text.split("\n").find((l) => l.trim() !== "") ?? "";
  const opening = firstLine
    .replace(/[#*_>`|]/g, "")
    .trim()
    .split(/\s+/)
    .slice(0, 8)
    .join(" ");
  return {
    words: count(text, /\S+/g),
    headings: count(text, /^#{1,6}\s/gm),
    listItems: count(text, /^\s*([-*+]|\d+\.)\s/gm),
    codeBlocks: Math.floor(count(text, /^\s*```/gm) / 2),
    caveats: count(
      text,
      /\b(however|but|depends?|caveats?|verify|check|risks?|might|unless|assum\w*|uncertain\w*|misconception|wary)\b/gi,
    ),
    absolutes: count(text, /\b(always|never|guaranteed|definitely|certainly|impossible|obviously)\b/gi),
    // List markers ("1. ") are structure, not claims.
    numbers: count(text.replace(/^\s*\d+\.\s/gm, ""), /\b\d+(\.\d+)?%?/g),
    covered,
    relevance: questionKeywords.length ? covered.length / questionKeywords.length : 0.5,
    opening,
  };
}
