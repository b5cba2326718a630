/**
 * The demo's drafted revision of a system prompt: it reads the judges' reasons for the items a preset lost and adds
 * the one instruction they point to most that the prompt doesn't carry yet (./instructions.ts reads the same
 * words, so the revised preset answers differently). Deterministic: the same lost items get the same draft.
 */
import { readInstructions } from "./instructions";

/** The sections the request fences them under (worker/evaluation/revision-prompt.ts). */
const CURRENT = /## Current system prompt\n\n(`{3,})\n([\s\S]*?)\n\1/;
const REASONS = /### Why the judges preferred the other answer\n\n(`{3,})\n([\s\S]*?)\n\1/g;

interface Fix {
  /** words in the reasons that point to it */
  cues: RegExp;
  /** the prompt carries it already */
  has: (system: string) => boolean;
  instruction: string;
  why: string;
}

const FIXES: Fix[] = [
  {
    cues: /\b(structure|headings?|lists?|list items?|steps?|next steps)\b/g,
    has: (s) => readInstructions(s).structure !== null,
    instruction: "Use numbered steps.",
    why: "the judges preferred structured answers (headings, lists, steps)",
  },
  {
    cues: /\b(caveats?|careful|claims?|absolute)\b/g,
    has: (s) => readInstructions(s).cautious,
    instruction: "Add a caveat where a claim is uncertain.",
    why: "the judges preferred answers careful about what they claim",
  },
  {
    cues: /\b(short|shortest|words?|brief|concise)\b/g,
    has: (s) => readInstructions(s).brevity !== null,
    instruction: "Be brief.",
    why: "the judges preferred the shorter answers",
  },
];

export function draftRevision(prompt: string): { rationale: string; revisedPrompt: string } {
  const found = CURRENT.exec(prompt)?.[2] ?? "";
  const current = found.startsWith("(none") ? "" : found;
  const reasons = [...prompt.matchAll(REASONS)].map((m) => m[2].toLowerCase()).join("\n");
  const ranked = FIXES.map((fix, order) => ({ fix, order, hits: reasons.match(fix.cues)?.length ?? 0 }))
    .filter((f) => !f.fix.has(current))
    .sort((a, b) => b.hits - a.hits || a.order - b.order);
  const pick = ranked[0]?.fix;
  if (!pick)
    return {
      rationale: "The prompt already asks for what the judges' reasons point to; the demo drafter has nothing to add.",
      revisedPrompt: current || "Answer the question directly.",
    };
  return {
    rationale: `On the items this preset lost, ${pick.why}, and its prompt doesn't ask for that yet; the revision adds one instruction and keeps the rest.`,
    revisedPrompt: current ? `${current.trimEnd()} ${pick.instruction}` : pick.instruction,
  };
}
