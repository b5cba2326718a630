/**
 * The demo models in a goal battle, so one is worth watching with no key: as a side, each style works toward the
 * goal at its own pace and says so once there (with the battle's marker when asked for one), so the better side
 * wins on turns; as the simulated user, a model writes plausible next messages from the goal and persona; as the
 * goal check, it reads the reply's own words. Recognised by the wording of Quorum's own prompts
 * (rooms/goal-battle/prompts.ts, judges/goal-prompt.ts), which this file has to keep matching.
 */
import type { ChatMessage } from "../types";
import type { DemoStyle } from "./models";
import { hash, keywordsOf, pick } from "./text";

const USER_ROLE = "You are playing the user in a conversation with an assistant.";
const GOAL_LINE = /^The user's goal: (.+)$/m;
const MARKER_LINE = /^When the goal is reached, write (\S+) on a line of its own/m;
const PERSONA_LINE = /^Persona: (.+)$/m;
const DONE = "That completes what you asked for.";

/** On which user turn each style gets there: the thorough one first, the skeptic last. */
const TURNS_TO_GOAL: Record<DemoStyle, number> = { thorough: 2, concise: 3, skeptic: 4 };

/** The goal of a side's system prompt in a goal battle, with its marker; null for any other request. */
export function goalSideBrief(system: string | undefined): { goal: string; marker: string | null } | null {
  const goal = system && GOAL_LINE.exec(system)?.[1];
  if (!goal) return null;
  return { goal, marker: MARKER_LINE.exec(system)?.[1] ?? null };
}

export const isSimulatedUser = (system: string | undefined) => system?.includes(USER_ROLE) ?? false;

const userTurnsOf = (messages: ChatMessage[]) => messages.filter((m) => m.role === "user").length;

/** A side's reply on the user turn it is at: a step toward the goal, and once there, that it is done. */
export function goalSideReply(
  style: DemoStyle,
  brief: { goal: string; marker: string | null },
  messages: ChatMessage[],
) {
  const turn = userTurnsOf(messages);
  const topic = keywordsOf(brief.goal, 3).join(", ") || "your goal";
  const step =
    style === "concise"
      ? `Step ${turn} on ${topic}: done.`
      : style === "thorough"
        ? `Step ${turn} on ${topic}, in full: I worked through what you said, checked it against the goal, and set out what follows from it.`
        : `Step ${turn} on ${topic}, with caveats: I am not sure this is right yet, so here is a cautious part of it.`;
  if (turn < TURNS_TO_GOAL[style]) return step;
  return [step, DONE, ...(brief.marker ? [brief.marker] : [])].join("\n\n");
}

/** The simulated user's next message to one side, from the goal, the persona and how far along it is. */
export function simulatedUserMessage(system: string, messages: ChatMessage[]): string {
  const goal = GOAL_LINE.exec(system)?.[1] ?? "get some help";
  const persona = PERSONA_LINE.exec(system)?.[1];
  // The user model reads the side's replies as "user" turns: one per reply so far.
  const turn = messages.filter((m) => m.role === "assistant").length + 1;
  const seed = hash(`${goal}|${turn}`);
  const wanted = goal.charAt(0).toLowerCase() + goal.slice(1).replace(/\.$/, "");
  if (turn === 1) return `${persona ? "Hello — " : "Hi. "}I need to ${wanted}. Where do we start?`;
  return pick(seed, [
    "Thanks. What is the next step?",
    "Can you be more specific about that part?",
    "Good — and then what do I do?",
    "I'm not sure I follow; could you go on from there?",
  ]);
}

/** The demo goal check: reached once the last reply says it completed the request. */
export function demoGoalCheck(prompt: string): { reached: boolean; reason: string } {
  const replies = prompt.split(/\[Assistant, turn \d+\]\n/).slice(1);
  const last = replies.at(-1) ?? "";
  const reached = last.includes(DONE);
  return {
    reached,
    reason: reached
      ? "The last reply completes what the user asked for (demo check: it says so)."
      : "The last reply is a step on the way; the goal is not reached yet (demo check).",
  };
}
