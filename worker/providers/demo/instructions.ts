/**
 * What a demo model takes from a system prompt: the few kinds of instruction a prompt variant usually differs in —
 * length, structure, caution, and a persona or tone for the opening. Read by keyword, deterministic, so two presets
 * on one demo model answer visibly differently and the demo reviewers (./tastes.ts) score them differently.
 */

export interface Instructions {
  /** "sentence": one sentence; "short": the first point or two */
  brevity: "sentence" | "short" | null;
  /** "bullets": a heading and a list; "steps": a numbered list; "detailed": sections, a list and a recap */
  structure: "bullets" | "steps" | "detailed" | null;
  /** hedge: soften absolute claims and add caveats */
  cautious: boolean;
  /** the first line a persona or tone asks for, or null */
  opening: string | null;
}

const has = (text: string, pattern: RegExp) => pattern.test(text);

const TONES: [RegExp, string][] = [
  [/\bpirate\b/, "Arr, here be the answer."],
  [/\b(friendly|warm|cheerful|enthusiastic)\b/, "Happy to help!"],
  [/\b(formal|professional)\b/, "Certainly. Please find the answer below."],
  [/\b(teacher|tutor|beginners?|eli5|like i'?m five)\b/, "Let's take this one step at a time."],
];

/** The persona a "You are …" line names, up to its first punctuation: "a senior SRE". */
function personaOf(system: string): string | null {
  const found = /\byou are (an? [^.,;:!?\n]{2,60}|the [^.,;:!?\n]{2,60})/i.exec(system);
  if (!found) return null;
  const persona = found[1].trim();
  // "You are a helpful assistant" says nothing a reader would notice.
  return /^an? (helpful |useful |friendly |)(ai |)assistant$/i.test(persona) ? null : persona;
}

export function readInstructions(system: string | undefined): Instructions {
  const s = (system ?? "").toLowerCase();
  const brevity = has(s, /\b(one|single|a single) sentence\b|\bone-liner\b/)
    ? "sentence"
    : has(s, /\b(concise|brief|briefly|terse|succinct|short|shortest|few words|to the point|no more than \d+ words)\b/)
      ? "short"
      : null;
  const structure = has(s, /\b(steps?|step-by-step|numbered)\b/)
    ? "steps"
    : has(s, /\b(bullets?|bulleted|lists?|headings?|sections?|structured?)\b/)
      ? "bullets"
      : has(s, /\b(thorough|thoroughly|detailed|in depth|in-depth|comprehensive|exhaustive)\b/)
        ? "detailed"
        : null;
  const cautious = has(
    s,
    /\b(caveats?|cautious|careful|carefully|hedge|uncertain\w*|risks?|limitations?|don'?t overclaim|skeptic\w*|sceptic\w*)\b/,
  );
  const tone = TONES.find(([pattern]) => has(s, pattern));
  const persona = personaOf(system ?? "");
  const opening = tone ? tone[1] : persona ? `Speaking as ${persona}:` : null;
  return { brevity, structure, cautious, opening };
}

export const followsNothing = (i: Instructions) =>
  i.brevity === null && i.structure === null && !i.cautious && i.opening === null;
