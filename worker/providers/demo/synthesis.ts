/**
 * The demo as chair: it recognises the chair's brief (council/synthesis-prompt.ts) the way a model reads it, by its
 * headings, and writes the example's prepared final answer, or says honestly that there is nothing to combine.
 */
import { withNotice } from "./answers";
import { findExample } from "./examples";
import { quoteQuestion } from "./text";

const QUESTION_HEADING = "## Question";
const ANSWERS_HEADING = "## The council's answers, best first";

/** The question of a chair's brief, or null when `prompt` is not one. */
export function chairBriefQuestion(prompt: string): string | null {
  const lines = prompt.split("\n");
  if (lines[0] !== QUESTION_HEADING || !lines.includes(ANSWERS_HEADING)) return null;
  let at = 1;
  while (at < lines.length && lines[at].trim() === "") at++;
  const fence = /^(`{3,})\s*$/.exec(lines[at] ?? "")?.[1];
  if (!fence) return null;
  const close = lines.indexOf(fence, at + 1);
  return close < 0 ? null : lines.slice(at + 1, close).join("\n");
}

export function writeSynthesis(question: string): string {
  const example = findExample(question);
  if (example) return withNotice(example.synthesis);
  return [
    "**Offline demo: there is nothing real to combine.**",
    `No model read ${quoteQuestion(question)}: the answers above are the demo models saying so, and a synthesis of them would only repeat it.`,
    "With a provider connected, the chair writes one final answer here, keeping what the reviewers praised and fixing what they flagged.",
  ].join(" ");
}
