/**
 * Quorum's built-in offline models: no key, no network, and the same question always gets the
 * same answer. Each answers in its own style by templating over the question, says plainly that
 * it is demo output, and reviews with its own deterministic taste so council runs have
 * something real to aggregate.
 */
import type { Scores } from "../shared/run";
import { ProviderError, type GenerateRequest, type Generation, type ModelInfo, type Provider, type ReviewOutput } from "./types";

type DemoStyle = "concise" | "thorough" | "skeptic";

const demoModel = (name: DemoStyle, displayName: string): ModelInfo => ({
  id: `demo:${name}`,
  provider: "demo",
  name,
  displayName,
  priceIn: 0,
  priceOut: 0,
  contextTokens: null,
  demo: true,
});

export const DEMO_MODELS: ModelInfo[] = [
  demoModel("concise", "Demo · Concise"),
  demoModel("thorough", "Demo · Thorough"),
  demoModel("skeptic", "Demo · Skeptic"),
];

export const DEMO_NOTICE =
  "_Offline demo answer from Quorum's built-in demo model: it is templated from your question, not researched. Add API keys in `.dev.vars` for real answers._";

export function createDemoProvider(cfg: { delayMs: number }): Provider {
  return {
    id: "demo",
    listModels: async () => DEMO_MODELS,
    test: async () => {},
    generate: (req, onDelta) => generate(req, onDelta, cfg.delayMs),
    async review(req): Promise<ReviewOutput> {
      const style = styleOf(req.model);
      await pause(cfg.delayMs, req.signal);
      const packet = readPacket(req.prompt);
      const labels = schemaLabels(req.schema) ?? packet.answers.map((a) => a.label);
      const raw = JSON.stringify(judge(style, packet, labels));
      return { raw, tokensIn: estimateTokens(req.system + req.prompt), tokensOut: estimateTokens(raw) };
    },
  };
}

function styleOf(model: string): DemoStyle {
  const found = DEMO_MODELS.find((m) => m.name === model);
  const names = DEMO_MODELS.map((m) => m.name).join(", ");
  if (!found) throw new ProviderError("not_found", `There is no demo model "${model}"; choose one of ${names}.`, { status: 404 });
  return found.name as DemoStyle;
}

const estimateTokens = (text: string) => Math.ceil(text.length / 4);

async function generate(req: GenerateRequest, onDelta: (text: string) => void, delayMs: number): Promise<Generation> {
  const style = styleOf(req.model);
  const question = [...req.messages].reverse().find((m) => m.role === "user")?.content ?? "";
  const chunks = writeAnswer(style, question).match(/\S+\s*|\s+/g) ?? [];
  const limit = req.maxTokens && req.maxTokens > 0 ? Math.floor(req.maxTokens) : Infinity;
  const sent = chunks.slice(0, limit);
  if (req.signal.aborted) throw aborted();
  for (const [i, chunk] of sent.entries()) {
    if (i > 0) await pause(delayMs, req.signal);
    onDelta(chunk);
    if (req.signal.aborted) throw aborted();
  }
  const text = sent.join("");
  const truncated = sent.length < chunks.length;
  const promptChars = (req.system ?? "").length + req.messages.reduce((n, m) => n + m.content.length, 0);
  return {
    text,
    tokensIn: Math.ceil(promptChars / 4),
    tokensOut: estimateTokens(text),
    finishReason: truncated ? "length" : "stop",
    truncated,
  };
}

const aborted = () => new ProviderError("aborted", "The demo call was cancelled.");

function pause(ms: number, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.reject(aborted());
  if (ms <= 0) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const done = () => {
      signal.removeEventListener("abort", stop);
      resolve();
    };
    const timer = setTimeout(done, ms);
    const stop = () => {
      clearTimeout(timer);
      reject(aborted());
    };
    signal.addEventListener("abort", stop, { once: true });
  });
}

// ---- answering: templates over the question ------------------------------------------------

interface Topic {
  /** the question's first line, for quoting */
  asked: string;
  /** the question without its interrogative opening ("how do I", "what is") */
  topic: string;
  keywords: string[];
  kind: "how" | "why" | "compare" | "what";
  language: string | null;
  seed: number;
}

const STOP_WORDS = new Set(
  ("a an the and or but if then so to of in on at by for with from into about as is are was were be been being do does did " +
    "have has had i me my we our you your it its this that these those there their they them what which who whom whose when " +
    "where why how can could should would will shall may might must not no yes please tell explain describe give show help " +
    "want need know use using get make best way ways some any more most much many very just also than vs versus between " +
    "difference differences compare better work works read write run create find start stop build add remove change " +
    "learn understand choose pick step steps detail details include").split(" "),
);
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

/** FNV-1a: a stable seed, so wording varies between questions but never between calls. */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return h;
}

/** The question's distinctive words in their own spelling ("TLS", "JavaScript"), first use first. */
export function keywordsOf(text: string, max = 4): string[] {
  const seen = new Map<string, string>();
  for (const word of text.match(/[\p{L}\p{N}][\p{L}\p{N}+#-]*/gu) ?? []) {
    const key = word.toLowerCase();
    if (word.length >= 3 && !STOP_WORDS.has(key) && !seen.has(key)) seen.set(key, word);
  }
  return [...seen.values()].slice(0, max);
}

const OPENING_WORDS =
  /^(please\s+)?(what (is|are)|how (do|can|should|would) (i|you|we)|how to|why (is|are|does|do)|explain|describe|tell me about|can you|could you)\s+/i;

function readTopic(question: string): Topic {
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

const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
const pick = <T>(seed: number, options: T[]) => options[seed % options.length];

function writeAnswer(style: DemoStyle, question: string): string {
  const t = readTopic(question);
  const body = style === "concise" ? writeConcise(t) : style === "thorough" ? writeThorough(t) : writeSkeptical(t);
  return `${body}\n\n${DEMO_NOTICE}`;
}

function writeConcise(t: Topic): string {
  const [k1, k2, k3] = t.keywords;
  const lead = {
    how: `Start with ${k1}, then handle ${k2}, and check ${k3} before calling it done.`,
    why: `Mostly because of ${k1}: it drives ${k2}, and ${k3} is where the effect shows.`,
    compare: `Neither wins everywhere: choose ${k1} when simplicity matters most and ${k2} when you need flexibility.`,
    what: `${cap(t.topic)} is mostly about how ${k1} relates to ${k2}, with ${k3} at the edges.`,
  }[t.kind];
  const close = pick(t.seed, [
    `If you remember one thing: get ${k1} right first.`,
    `The details depend on your setup, but ${k1} is the part that matters most.`,
  ]);
  return `**Short answer:** ${lead}\n\n${close}`;
}

function writeThorough(t: Topic): string {
  const [k1, k2, k3] = t.keywords;
  const middle = {
    how: ["## Steps", `1. Define what "done" means here.\n2. Set up ${k1}.\n3. Work through ${k2}, one change at a time.\n4. Check ${k3} and verify the result.`],
    compare: [
      "## Side by side",
      `| Aspect | ${cap(k1)} | ${cap(k2)} |\n| --- | --- | --- |\n| Simplicity | higher | lower |\n| Flexibility | lower | higher |\n` +
        `| Best when | ${k3} is fixed | ${k3} changes often |`,
    ],
    why: ["## Why it happens", `- ${cap(k1)} sets the starting conditions.\n- ${cap(k2)} amplifies or dampens them.\n- ${cap(k3)} is where the effect becomes visible.`],
    what: ["## In practice", `- Start from ${k1}.\n- Let ${k2} guide the details.\n- Revisit ${k3} once the basics work.`],
  }[t.kind];
  return [
    "## Overview",
    `To answer "${t.asked}", it helps to separate three ideas: ${k1}, ${k2} and ${k3}. ` +
      "The sections below take them in turn and end with a short summary.",
    "## Key points",
    `1. **${cap(k1)}** — the core of the topic; most of the outcome depends on it.\n` +
      `2. **${cap(k2)}** — shapes how ${k1} behaves in practice.\n` +
      `3. **${cap(k3)}** — the part most often overlooked.`,
    ...middle,
    ...(t.language ? ["## Example", codeExample(t.language, k1)] : []),
    "## Summary",
    `Focus on ${k1} first, then ${k2}; come back to ${k3} once the basics are in place.`,
    "---",
  ].join("\n\n");
}

function codeExample(language: string, keyword: string): string {
  const words = keyword.toLowerCase().match(/[a-z0-9]+/g) ?? [];
  const camel = words.map((w, i) => (i === 0 ? w : cap(w))).join("").replace(/^[0-9]+/, "") || "handle";
  const snake = words.join("_").replace(/^[0-9_]+/, "") || "handle";
  const code: Record<string, string> = {
    python: `def ${snake}(rows):
    """Sketch: validate, transform, return."""
    if not rows:
        raise ValueError("empty input")
    return [row for row in rows if row]`,
    sql: `-- sketch: filter, then aggregate
SELECT category, COUNT(*) AS ${snake}_count
FROM items
WHERE created_at >= :since
GROUP BY category;`,
    bash: `#!/usr/bin/env bash
set -euo pipefail
# sketch: ${keyword}
for f in "$@"; do
  echo "processing $f"
done`,
    js: `function ${camel}(items) {
  // sketch: validate, transform, return
  if (!items.length) throw new Error("empty input");
  return items.filter(Boolean);
}`,
    ts: `function ${camel}(items: string[]): string[] {
  // sketch: validate, transform, return
  if (items.length === 0) throw new Error("empty input");
  return items.filter((item) => item.trim() !== "");
}`,
  };
  return `\`\`\`${language}\n${code[language] ?? code.ts}\n\`\`\``;
}

function writeSkeptical(t: Topic): string {
  const [k1, k2, k3] = t.keywords;
  const caveats = [
    `- **It depends:** the right answer about ${k1} changes with your constraints and with what you mean by "${k2}".`,
    "- **Verify specifics:** versions, numbers and names change over time; check any you rely on against primary documentation.",
    `- **A common misconception:** that ${k2} on its own settles ${k1}; look at ${k3} too.`,
  ];
  if (t.kind === "compare")
    caveats.push("- **No universal winner:** comparisons like this usually depend on the workload, so be wary of any answer that names one.");
  if (t.language) caveats.push("- **Test it:** run any snippet on a small case before trusting it.");
  return [
    `Before answering "${t.asked}", a few caveats:`,
    caveats.join("\n"),
    `**Cautious answer:** start from ${k1}, test your assumption about ${k2} on a small case, and only then generalise. ` +
      "Treat this as a starting point, not a final answer.",
  ].join("\n\n");
}

// ---- reviewing: a deterministic taste per style --------------------------------------------

interface PacketAnswer {
  label: string;
  text: string;
}

const HEADING = /^#{1,6}\s*(Question|Answer\s+(\S+))\s*$/;

/** Finds the question and each "Answer X" section; a section's body runs to the line equal to its own fence. */
export function readPacket(prompt: string): { question: string; answers: PacketAnswer[] } {
  const lines = prompt.split("\n");
  let question = "";
  const answers: PacketAnswer[] = [];
  for (let i = 0; i < lines.length; i++) {
    const heading = HEADING.exec(lines[i]);
    if (!heading) continue;
    let j = i + 1;
    while (j < lines.length && lines[j].trim() === "") j++;
    const fence = /^(`{3,})\s*$/.exec(lines[j] ?? "")?.[1];
    const body: string[] = [];
    for (j = fence ? j + 1 : j; j < lines.length; j++) {
      if (fence ? lines[j] === fence : HEADING.test(lines[j])) break;
      body.push(lines[j]);
    }
    const text = body.join("\n").trim();
    if (heading[2]) answers.push({ label: heading[2], text });
    else question = text;
    i = fence ? j : j - 1;
  }
  return { question, answers };
}

const child = (value: unknown, key: string): unknown => (typeof value === "object" && value !== null ? (value as Record<string, unknown>)[key] : undefined);

/** The labels to rank, as the review schema's ranking enum lists them. */
function schemaLabels(schema: Record<string, unknown>): string[] | null {
  const labels = child(child(child(child(schema, "properties"), "ranking"), "items"), "enum");
  return Array.isArray(labels) && labels.every((l) => typeof l === "string") ? labels : null;
}

interface Features {
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

function measure(text: string, questionKeywords: string[]): Features {
  const lower = text.toLowerCase();
  const covered = questionKeywords.filter((k) => lower.includes(k.toLowerCase()));
  const firstLine = text.split("\n").find((l) => l.trim() !== "") ?? "";
  const opening = firstLine.replace(/[#*_>`|]/g, "").trim().split(/\s+/).slice(0, 8).join(" ");
  return {
    words: count(text, /\S+/g),
    headings: count(text, /^#{1,6}\s/gm),
    listItems: count(text, /^\s*([-*+]|\d+\.)\s/gm),
    codeBlocks: Math.floor(count(text, /^\s*```/gm) / 2),
    caveats: count(text, /\b(however|but|depends?|caveats?|verify|check|risks?|might|unless|assum\w*|uncertain\w*|misconception|wary)\b/gi),
    absolutes: count(text, /\b(always|never|guaranteed|definitely|certainly|impossible|obviously)\b/gi),
    // List markers ("1. ") are structure, not claims.
    numbers: count(text.replace(/^\s*\d+\.\s/gm, ""), /\b\d+(\.\d+)?%?/g),
    covered,
    relevance: questionKeywords.length ? covered.length / questionKeywords.length : 0.5,
    opening,
  };
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

type Taste = (f: Features) => { scores: Scores; verdict: string };

/** Each demo reviewer's taste, so a council of demos disagrees the way real reviewers do. */
const TASTES: Record<DemoStyle, Taste> = {
  concise(f) {
    const brevity = f.words <= 60 ? 9.5 : Math.max(2, 9.5 - (f.words - 60) / 25);
    const correctness = 5 + 3 * f.relevance - 0.5 * f.absolutes;
    const helpfulness = (brevity + 6 + 3 * f.relevance) / 2;
    const completeness = Math.min(8, 3 + f.words / 30);
    return {
      scores: scored({ correctness, completeness, clarity: brevity, helpfulness, safety: 8 + Math.min(1, f.caveats) }, [0.2, 0.1, 0.45, 0.25, 0]),
      verdict: f.words <= 80 ? "Gets to the point quickly." : "Longer than it needs to be; the main point gets buried.",
    };
  },
  thorough(f) {
    const depth = 2 + 1.2 * Math.min(f.headings, 4) + 0.4 * Math.min(f.listItems, 8) + 1.5 * Math.min(f.codeBlocks, 2) + Math.min(f.words / 80, 3);
    const correctness = 5 + 3 * f.relevance - 0.5 * f.absolutes;
    const clarity = 4 + Math.min(f.headings, 4) + (f.listItems > 0 ? 1 : 0);
    return {
      scores: scored({ correctness, completeness: depth, clarity, helpfulness: (depth + correctness) / 2, safety: 8 }, [0.2, 0.4, 0.2, 0.2, 0]),
      verdict:
        depth >= 7
          ? "Well organised and covers the question in depth."
          : depth >= 4.5
            ? "Reasonably organised; an example or more sections would help."
            : "Thin: little structure and no example.",
    };
  },
  skeptic(f) {
    const caveats = Math.min(f.caveats, 6);
    const numbers = Math.min(f.numbers, 10);
    const care = 3 + caveats - 1.5 * f.absolutes - 0.3 * numbers;
    const correctness = 5 + 0.5 * caveats - f.absolutes - 0.2 * numbers + 2 * f.relevance;
    const completeness = 4 + Math.min(f.words / 80, 4);
    const clarity = 6 + (f.headings || f.listItems ? 1 : 0);
    const safety = 6 + 0.5 * caveats - f.absolutes;
    return {
      scores: scored({ correctness, completeness, clarity, helpfulness: (care + completeness) / 2, safety }, [0.4, 0.15, 0, 0.2, 0.25]),
      verdict: care >= 6 ? "Appropriately careful about what it claims." : "States things with more confidence than it earns.",
    };
  },
};

const clamp = (n: number) => Math.round(Math.min(10, Math.max(0, n)) * 10) / 10;

/** Clamps to 0–10 with one decimal; overall is the taste's weighted mean of the other five. */
function scored(s: Omit<Scores, "overall">, weights: [number, number, number, number, number]): Scores {
  const dims = [s.correctness, s.completeness, s.clarity, s.helpfulness, s.safety].map(clamp);
  const overall = dims.reduce((sum, d, i) => sum + d * weights[i], 0);
  const [correctness, completeness, clarity, helpfulness, safety] = dims;
  return { correctness, completeness, clarity, helpfulness, safety, overall: clamp(overall) };
}

function critique(style: DemoStyle, f: Features, verdict: string): string {
  const coverage = f.covered.length ? `Picks up ${f.covered.slice(0, 3).join(", ")} from the question.` : "Does not pick up the question's key terms.";
  const facts =
    style === "concise"
      ? `${plural(f.words, "word")}, opening with "${f.opening}".`
      : style === "thorough"
        ? `${plural(f.headings, "heading")}, ${plural(f.listItems, "list item")} and ${plural(f.codeBlocks, "code block")} over ${plural(f.words, "word")}.`
        : `${plural(f.caveats, "caveat word")} and ${plural(f.absolutes, "absolute claim")} in ${plural(f.words, "word")}; ${plural(f.numbers, "specific number")} to check.`;
  return `${facts} ${verdict} ${coverage}`;
}

const ZERO: Scores = { correctness: 0, completeness: 0, clarity: 0, helpfulness: 0, safety: 0, overall: 0 };

function judge(style: DemoStyle, packet: { question: string; answers: PacketAnswer[] }, labels: string[]) {
  const keywords = keywordsOf(packet.question, 6);
  const reviews = labels.map((label) => {
    const text = packet.answers.find((a) => a.label === label)?.text ?? "";
    if (text === "") return { label, critique: "The answer is empty or missing from the packet.", scores: ZERO };
    const f = measure(text, keywords);
    const { scores, verdict } = TASTES[style](f);
    return { label, critique: critique(style, f, verdict), scores };
  });
  // Sorting a copy keeps label order between equal scores, so the ranking agrees with the scores.
  const ranking = [...reviews].sort((a, b) => b.scores.overall - a.scores.overall).map((r) => r.label);
  const [first, second] = ranking.map((l) => reviews.find((r) => r.label === l)!.scores.overall);
  const gap = second === undefined ? 0 : first - second;
  const confidence = Math.round(Math.min(0.95, 0.5 + gap / 10) * (style === "skeptic" ? 0.8 : 1) * 100) / 100;
  return { reviews, ranking, confidence };
}
