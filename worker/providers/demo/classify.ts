/**
 * The demo's prompt classifier: the Arena's categories from keywords, so labels mean something with no key. It
 * answers in the classifier's JSON shape (labels/classifier.ts) and meets as many of the seven hard-prompt
 * criteria as the prompt gives signs of.
 */

const CODE =
  /```|\b(code|function|python|javascript|typescript|java|rust|sql|regex|bug|debug|compile|api|class|script|algorithm|implement)\b/i;
const MATH =
  /\b(solve|equation|integral|derivative|probability|prove|theorem|calculate|compute|sum of|how many|matrix|algebra|geometry)\b|\d+\s*[-+*/^=]\s*\d+/i;
const CREATIVE =
  /\b(poem|story|haiku|lyrics|song|limerick|fiction|role-?play|screenplay|script for|sonnet|fable|tale)\b/i;
/** Signs of instructions to follow: formats, counts, constraints. */
const INSTRUCTIONS = [
  /\b(exactly|at most|at least|no more than|in \d+ (words|sentences|lines|bullet))/i,
  /\b(format|json|table|bullet|numbered|list|markdown)\b/i,
  /\b(must|do not|don't|without|only|each|every)\b/i,
  /\b(step by step|steps|first|then|finally)\b/i,
  /\b(in the style of|tone|audience|persona)\b/i,
];

/** Whether the prompt answers yes to each hard-prompt criterion, by the signs the demo can see. */
function criteriaOf(text: string, coding: boolean, math: boolean, creative: boolean): number[] {
  const words = text.split(/\s+/).filter(Boolean).length;
  const met: [number, boolean][] = [
    [1, coding || math || /\b(write|give|list|design|create|generate|recommend)\b/i.test(text)],
    [
      2,
      coding || math || /\b(physics|chemistry|biology|law|medicine|finance|economics|hardware|network)\b/i.test(text),
    ],
    [3, words >= 40 || /\b(and then|multi-?step|several|compare|trade-?offs?)\b/i.test(text)],
    [4, coding || math || /\b(how (do|can|should) i|solve|fix|optimi[sz]e|plan)\b/i.test(text)],
    [5, creative || /\b(creative|original|novel|imagine|invent)\b/i.test(text)],
    [6, coding || math || /\b(precise|accurate|exact|correct|technical)\b/i.test(text)],
    [7, coding || /\b(real|practical|production|business|deploy|set ?up|my (team|company|project))\b/i.test(text)],
  ];
  return met.filter(([, yes]) => yes).map(([n]) => n);
}

/** The classifier's answer for the prompt inside `<user_prompt>` tags (the whole text when there are none). */
export function classifyPrompt(request: string) {
  const text = /<user_prompt>\s*([\s\S]*?)\s*<\/user_prompt>/.exec(request)?.[1] ?? request;
  const coding = CODE.test(text);
  const math = MATH.test(text);
  const creative = CREATIVE.test(text);
  return {
    coding,
    math,
    creative_writing: creative,
    instruction_following: INSTRUCTIONS.filter((p) => p.test(text)).length,
    criteria: criteriaOf(text, coding, math, creative),
  };
}
