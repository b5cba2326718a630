/** How a goal battle reads on its card and its page: plain functions of the battle, tested without a browser. */
import type { GoalBattleState, GoalBattleSummary, GoalEndedReason, GoalSide, GoalWinner } from "./goal-battle-types";

export const GOAL_STATE_TEXT: Record<GoalBattleState, string> = {
  queued: "Queued",
  running: "Running",
  done: "Done",
  error: "Failed",
  stopped: "Stopped",
};

/** A battle that will not change any more (but a vote on it still may). */
export const isOver = (state: GoalBattleState) => state === "done" || state === "error" || state === "stopped";

/** "3/25": the turn being played while it runs (the server counts the turns finished), the last one played after. */
export function turnText(b: Pick<GoalBattleSummary, "state" | "currentTurn" | "maxTurns">): string {
  const turn = b.state === "running" ? Math.min(b.currentTurn + 1, b.maxTurns) : b.currentTurn;
  return `${turn}/${b.maxTurns}`;
}

/** "1:05" or "1:02:09". */
export function formatElapsed(ms: number): string {
  const total = Math.max(0, Math.floor(ms / 1000));
  const [h, m, s] = [Math.floor(total / 3600), Math.floor(total / 60) % 60, total % 60];
  const ss = String(s).padStart(2, "0");
  return h ? `${h}:${String(m).padStart(2, "0")}:${ss}` : `${m}:${ss}`;
}

/**
 * The elapsed time to show `now`: the server's figure as of when the page received it, plus the time since then
 * while the battle runs. The browser's clock only measures the interval, so a skewed clock doesn't matter.
 */
export function elapsedAt(b: Pick<GoalBattleSummary, "state" | "elapsedMs">, receivedAt: number, now: number) {
  return b.state === "running" ? b.elapsedMs + Math.max(0, now - receivedAt) : b.elapsedMs;
}

/** A side's tokens in and out, as one number per side on a card. */
export const sideTokens = (b: GoalBattleSummary, side: GoalSide) => b.sides[side].tokensIn + b.sides[side].tokensOut;

/** Side A or B, by name once revealed. */
export function sideName(b: GoalBattleSummary, side: GoalSide, revealed: boolean): string {
  const name = b.sides[side].displayName ?? b.sides[side].contestant;
  return revealed && name ? `${name} (${side})` : `Side ${side}`;
}

const REASON_TEXT: Record<GoalEndedReason, string> = {
  goal: "the goal was reached",
  limit: "the turn limit was reached",
  error: "a side failed",
  manual: "it was stopped",
  timeout: "a side timed out",
};

/** Why the battle ended, in words; null while it runs. */
export const endedText = (reason: GoalEndedReason | null) => (reason ? `Ended because ${REASON_TEXT[reason]}.` : null);

/** Who won, in words: by side until the names are shown. */
export function winnerText(b: GoalBattleSummary, revealed: boolean, winner: GoalWinner | null = b.winner): string {
  if (winner === "A" || winner === "B") return `${sideName(b, winner, revealed)} won`;
  if (winner === "tie") return "A tie";
  if (winner === "none") return "No contest";
  if (awaitsVote(b)) return b.vote ? "Voted" : "Waiting for your vote";
  return isOver(b.state) ? "No winner" : "Not decided yet";
}

/**
 * A person decides this battle: it ended on the goal or the limit, with a vote to give (or given). A stopped battle,
 * or one a failure decided, takes no vote.
 */
export const awaitsVote = (b: Pick<GoalBattleSummary, "judgeMode" | "state">) =>
  b.judgeMode === "human" && b.state === "done";

/** The names can be shown: the battle is over and the server has told them. */
export const canReveal = (b: GoalBattleSummary) =>
  isOver(b.state) && b.sides.A.displayName !== null && b.sides.B.displayName !== null;
