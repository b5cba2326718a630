/**
 * A demo answer rewritten as a system prompt asks (./instructions.ts): cut to its first point, laid out as a list,
 * steps or sections, hedged, or opened in a persona's voice. Only form changes — the demo can't write new
 * content — but form is what its reviewers measure (./features.ts), so a terse preset and a thorough one on the
 * same demo model get different scores from each reviewer's taste.
 */
import { followsNothing, type Instructions } from "./instructions";

const FENCED = /^```[^\n]*\n[\s\S]*?^```[ \t]*$/gm;

/** Claims stated more surely than the demo can know, each with a hedged word for it. */
const SOFTER: [RegExp, string][] = [
  [/\balways\b/gi, "usually"],
  [/\bnever\b/gi, "rarely"],
  [/\bguaranteed\b/gi, "likely"],
  [/\bdefinitely\b/gi, "probably"],
  [/\bcertainly\b/gi, "likely"],
  [/\bimpossible\b/gi, "unlikely"],
  [/\bobviously\b/gi, "arguably"],
];

const sameCase = (word: string, like: string) =>
  like[0] === like[0].toUpperCase() ? word[0].toUpperCase() + word.slice(1) : word;

const soften = (text: string) =>
  SOFTER.reduce((t, [pattern, softer]) => t.replace(pattern, (found) => sameCase(softer, found)), text);

/** The answer's prose as sentences (headings, tables and code left out), and its code blocks. */
function proseOf(text: string): { sentences: string[]; code: string[] } {
  const code = text.match(FENCED) ?? [];
  const units = text
    .replace(FENCED, "")
    .split("\n")
    .filter((line) => !/^\s*(#{1,6}\s|\|)/.test(line))
    .map((line) => line.replace(/^\s*([-*+]|\d+\.)\s+/, "").trim())
    .filter((line) => line !== "");
  // A sentence may end inside emphasis ("**Qdrant.** At 50M…").
  const sentences = units.flatMap((unit) => unit.split(/(?<=[.!?][*_)"”]*)\s+(?=[*_"“(`A-Z0-9])/));
  return { sentences, code };
}

const words = (s: string) => s.split(/\s+/).filter(Boolean).length;

/** The first point: one sentence, or a sentence or two up to about 25 words; lead-ins to a list ("…:") are skipped. */
function firstPoint(sentences: string[], brevity: "sentence" | "short"): string[] {
  const points = sentences.filter((s) => !s.endsWith(":"));
  if (brevity === "sentence") return points.slice(0, 1);
  const kept: string[] = [];
  for (const s of points) {
    if (kept.length === 2 || (kept.length > 0 && words(kept.join(" ")) >= 25)) break;
    kept.push(s);
  }
  return kept;
}

function laidOut(sentences: string[], code: string[], structure: NonNullable<Instructions["structure"]>): string {
  const [first, ...rest] = sentences;
  const list = (items: string[]) => items.map((s) => `- ${s}`).join("\n");
  if (structure === "steps") return `## Steps\n\n${sentences.map((s, i) => `${i + 1}. ${s}`).join("\n")}`;
  const example = code.length ? [`## Example\n\n${code.join("\n\n")}`] : [];
  if (structure === "bullets")
    return (
      rest.length
        ? [`## Answer\n\n${first}`, `## Key points\n\n${list(rest)}`, ...example]
        : [`## Answer\n\n${list(sentences)}`]
    ).join("\n\n");
  return [
    `## Summary\n\n${first}`,
    ...(rest.length ? [`## Details\n\n${list(rest)}`] : []),
    ...example,
    `## In short\n\n${first}`,
  ].join("\n\n");
}

const CAVEAT_SHORT = "That depends on your case, so verify it.";
const CAVEAT =
  "**Caveats:** this depends on your setup and its assumptions; verify it against your own data or the documentation before relying on it, since it might not hold in every case.";

/** `text` as `instructions` ask; a trailing `notice` (the demo's label) stays last and untouched. */
export function followInstructions(text: string, instructions: Instructions, notice: string): string {
  if (followsNothing(instructions)) return text;
  const noticed = text.endsWith(`\n\n${notice}`);
  let body = noticed ? text.slice(0, -(notice.length + 2)) : text;
  const { brevity, structure, cautious, opening } = instructions;
  if (brevity || structure) {
    const { sentences, code } = proseOf(body);
    const kept = brevity ? firstPoint(sentences, brevity) : sentences;
    if (kept.length) body = structure ? laidOut(kept, brevity ? [] : code, structure) : kept.join(" ");
  }
  if (cautious) body = `${soften(body)}\n\n${brevity ? CAVEAT_SHORT : CAVEAT}`;
  if (opening) body = `${opening}\n\n${body}`;
  return noticed ? `${body}\n\n${notice}` : body;
}
