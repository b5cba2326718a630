/**
 * A goal battle's transcript on its page: the messages fetched and those the socket adds, merged (a message may come
 * both ways), grouped by side and turn, with the reply being streamed.
 */
import type { GoalMessage, GoalSide } from "./goal-battle-types";

export interface TranscriptTurn {
  turn: number;
  /** what the simulated user (or the script) asked this side */
  user: GoalMessage | null;
  reply: GoalMessage | null;
}

/** One key per message: a side says one thing per role in a turn. */
export const messageKey = (m: Pick<GoalMessage, "turn" | "side" | "role">) => `${m.turn}:${m.side}:${m.role}`;

/** Adds messages to a keyed set, a later copy of one replacing the earlier. */
export function mergeMessages(into: Record<string, GoalMessage>, messages: readonly GoalMessage[]): void {
  for (const m of messages) into[messageKey(m)] = m;
}

/** One side's turns in order, each with the user's message and the side's reply as far as they exist. */
export function sideTurns(messages: Record<string, GoalMessage>, side: GoalSide): TranscriptTurn[] {
  const turns = new Map<number, TranscriptTurn>();
  for (const m of Object.values(messages)) {
    if (m.side !== side) continue;
    const t = turns.get(m.turn) ?? { turn: m.turn, user: null, reply: null };
    if (m.role === "user") t.user = m;
    else t.reply = m;
    turns.set(m.turn, t);
  }
  return [...turns.values()].sort((a, b) => a.turn - b.turn);
}

/** What a turn's goal check says, in words. */
export function goalCheckText(m: GoalMessage): string | null {
  const c = m.goalCheck;
  if (!c) return null;
  const by = c.by === "marker" ? "by its marker" : "by the judge";
  return `${c.reached ? "Goal reached" : "Goal not reached"} (${by})${c.reason ? `: ${c.reason}` : ""}`;
}
