/** The demo models' answers: one template per style over the question's topic, each ending with the demo notice. */
import { codeExample } from "./code-example";
import type { DemoStyle } from "./models";
import { cap, pick } from "./text";
import { readTopic, type Topic } from "./topic";

export const DEMO_NOTICE =
  "_Offline demo answer from Quorum's built-in demo model: it is templated from your question, not researched. Add API keys in `.dev.vars` for real answers._";

export function writeAnswer(style: DemoStyle, question: string): string {
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
    how: [
      "## Steps",
      `1. Define what "done" means here.\n2. Set up ${k1}.\n3. Work through ${k2}, one change at a time.\n4. Check ${k3} and verify the result.`,
    ],
    compare: [
      "## Side by side",
      `| Aspect | ${cap(k1)} | ${cap(k2)} |\n| --- | --- | --- |\n| Simplicity | higher | lower |\n| Flexibility | lower | higher |\n` +
        `| Best when | ${k3} is fixed | ${k3} changes often |`,
    ],
    why: [
      "## Why it happens",
      `- ${cap(k1)} sets the starting conditions.\n- ${cap(k2)} amplifies or dampens them.\n- ${cap(k3)} is where the effect becomes visible.`,
    ],
    what: [
      "## In practice",
      `- Start from ${k1}.\n- Let ${k2} guide the details.\n- Revisit ${k3} once the basics work.`,
    ],
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

function writeSkeptical(t: Topic): string {
  const [k1, k2, k3] = t.keywords;
  const caveats = [
    `- **It depends:** the right answer about ${k1} changes with your constraints and with what you mean by "${k2}".`,
    "- **Verify specifics:** versions, numbers and names change over time; check any you rely on against primary documentation.",
    `- **A common misconception:** that ${k2} on its own settles ${k1}; look at ${k3} too.`,
  ];
  if (t.kind === "compare")
    caveats.push(
      "- **No universal winner:** comparisons like this usually depend on the workload, so be wary of any answer that names one.",
    );
  if (t.language) caveats.push("- **Test it:** run any snippet on a small case before trusting it.");
  return [
    `Before answering "${t.asked}", a few caveats:`,
    caveats.join("\n"),
    `**Cautious answer:** start from ${k1}, test your assumption about ${k2} on a small case, and only then generalise. ` +
      "Treat this as a starting point, not a final answer.",
  ].join("\n\n");
}
