/** What a demo answer is templated from: the question's topic, kind, keywords and language. */
import { hash, keywordsOf } from "./text";

export interface Topic {
  /** the question's first line, for quoting */
  asked: string;
  /** the question without its interrogative opening ("how do I", "what is") */
  topic: string;
  keywords: string[];
  kind: "how" | "why" | "compare" | "what";
  language: string | null;
  seed: number;
}

// Singular, so they fit the same sentences as a real keyword.
const FILLER_KEYWORDS = ["the goal", "the context", "the main trade-off"];
const LANGUAGES: [RegExp, string][] = [
  [/\bpython\b/i, "python"],
  [/\btypescript\b|\bts\b/i, "ts"],
  [/\bjavascript\b|\bjs\b|\bnode(\.js)?\b/i, "js"],
  [/\bsql\b|\bquery\b/i, "sql"],
  [/\bbash\b|\bshell\b/i, "bash"],
  [/\b(code|function|script|regex|bug|error|compile|program|algorithm|implement)\b/i, "ts"],
];

const OPENING_WORDS =
  /^(please\s+)?(what (is|are)|how (do|can|should|would) (i|you|we)|how to|why (is|are|does|do)|explain|describe|tell me about|can you|could you)\s+/i;

export function readTopic(question: string): Topic {
  const firstLine = question.trim().split(/\n|(?<=[.?!])\s/)[0] ?? "";
  const topic = firstLine
    .replace(OPENING_WORDS, "")
    .replace(/[?.!\s]+$/, "")
    .slice(0, 80);
  const keywords = keywordsOf(question);
  const kind = /\b(vs\.?|versus|compare|comparison|difference|better)\b/i.test(question)
    ? "compare"
    : /\bhow\b/i.test(question)
      ? "how"
      : /\bwhy\b/i.test(question)
        ? "why"
        : "what";
  return {
    asked: firstLine.trim().slice(0, 100),
    topic: topic || "your question",
    keywords: [...keywords, ...FILLER_KEYWORDS].slice(0, Math.max(3, keywords.length)),
    kind,
    language: LANGUAGES.find(([pattern]) => pattern.test(question))?.[1] ?? null,
    seed: hash(question),
  };
}
