/**
 * What a goal battle's sides and its simulated user are told. Both sides get the same framing (the battle's system
 * prompt, the goal, the marker to write once it is reached); the user model plays the person with the goal, and
 * reads a side's replies as the other party's turns. The demo models recognise these lines (providers/demo/goal.ts).
 */
import type { ChatMessage } from "../../providers/types";

export interface TranscriptTurn {
  user: string;
  assistant: string;
}

export function sideSystem(battleSystem: string, goal: string, marker: string | null): string {
  return [
    ...(battleSystem.trim() ? [battleSystem.trim()] : []),
    `The user's goal: ${oneLine(goal)}`,
    ...(marker ? [`When the goal is reached, write ${marker} on a line of its own at the end of your reply.`] : []),
  ].join("\n\n");
}

export function userSystem(goal: string, persona: string | null): string {
  return [
    "You are playing the user in a conversation with an assistant.",
    `The user's goal: ${oneLine(goal)}`,
    ...(persona ? [`Persona: ${oneLine(persona)}`] : []),
    "Write only the user's next message: short and natural, reacting to the assistant's last reply and moving toward the goal. Never say you are simulated.",
  ].join("\n");
}

/** A side's conversation so far, then the new user message. */
export function sideMessages(turns: TranscriptTurn[], next: string): ChatMessage[] {
  return [
    ...turns.flatMap((t): ChatMessage[] => [
      { role: "user", content: t.user },
      { role: "assistant", content: t.assistant },
    ]),
    { role: "user", content: next },
  ];
}

/** The same conversation from the user model's seat: its own messages are the assistant's turns, the side's replies the user's. */
export function userMessages(turns: TranscriptTurn[]): ChatMessage[] {
  const opening: ChatMessage = { role: "user", content: "(The conversation starts. Write your first message.)" };
  return [
    opening,
    ...turns.flatMap((t): ChatMessage[] => [
      { role: "assistant", content: t.user },
      { role: "user", content: t.assistant },
    ]),
  ];
}

const oneLine = (s: string) => s.replace(/\s+/g, " ").trim();
