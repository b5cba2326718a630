/**
 * What a demo model says to a question it has no prepared answer for: that it is the offline demo, that it will not
 * make an answer up, and what to do instead. Each model says it in its own length and shape (and the wording varies
 * with the question, stably), so reviewers and arena votes still have a difference to judge.
 */
import type { DemoStyle } from "./models";
import { hash, pick, quoteQuestion } from "./text";

const CONNECT =
  "add a key such as `OPENAI_API_KEY` to `.dev.vars` (or point `OPENAI_COMPATIBLE_BASE_URL` at a local server such as Ollama) and restart Quorum";

export function honestReply(style: DemoStyle, question: string): string {
  const seed = hash(question);
  const asked = quoteQuestion(question);
  if (style === "concise") return concise(seed, asked);
  return style === "thorough" ? thorough(seed, asked) : skeptic(seed, asked);
}

function concise(seed: number, asked: string): string {
  const opening = pick(seed, [
    "**Offline demo: no real answer here.**",
    "**This is the offline demo, so I can't answer that.**",
    "**No answer from me: this is Quorum's offline demo.**",
  ]);
  return `${opening} No language model read ${asked}. Pick a question under **Try an example**, or ${CONNECT}.`;
}

function thorough(seed: number, asked: string): string {
  const why = pick(seed, [
    "No language model is connected, so nothing here has read your question, and I won't invent an answer to it.",
    "Quorum is running without any provider, so no model has seen your question; an answer from me would be made up.",
  ]);
  return [
    "## This is Quorum's offline demo",
    `You asked: ${asked}`,
    `${why} The demo models have prepared answers only for the example questions.`,
    "## What you can do",
    [
      "1. **Try an example** (the buttons by the question box): each gets three different prepared answers, reviewed and ranked as in a real run.",
      `2. **Connect a model**: ${CONNECT}.`,
      "3. **Ask again**: the same question then gets real answers, real reviews and a real ranking.",
    ].join("\n"),
  ].join("\n\n");
}

function skeptic(seed: number, asked: string): string {
  const opening = pick(seed, [
    "I'd rather not guess.",
    "I won't pretend to know this.",
    "Better no answer than an invented one.",
  ]);
  return [
    `${opening} This is Quorum's offline demo: no model read ${asked}, and anything I said about it would be made up to sound plausible, exactly what a reviewer here should mark down.`,
    [
      "- To see how a council works, try one of the example questions.",
      `- To get an answer to this one, ${CONNECT}, then ask again.`,
    ].join("\n"),
  ].join("\n\n");
}
