/**
 * A goal battle's shapes as the page reads them, from the goal battles API contract (issue 27). They mirror the
 * Worker's response schemas until those land; then these names are re-exported from the Worker's own types.
 */

export type GoalSide = "A" | "B";
export const GOAL_SIDES: readonly GoalSide[] = ["A", "B"];
export type GoalBattleState = "queued" | "running" | "done" | "error" | "stopped";
export type GoalEndedReason = "goal" | "limit" | "error" | "manual" | "timeout";
export type GoalWinner = "A" | "B" | "tie" | "none";
export type GoalJudgeMode = "goal" | "llm" | "human";
export type GoalVoteChoice = "left" | "right" | "tie" | "both-bad";

export interface GoalBattleSide {
  /** the model or preset; null until the battle is over (blind) */
  contestant: string | null;
  displayName: string | null;
  tokensIn: number;
  tokensOut: number;
  latencyMs: number;
  turns: number;
  costUsd: number | null;
  goalReachedAt: number | null;
  failed: boolean;
}

export interface GoalBattleSummary {
  jobId: string;
  state: GoalBattleState;
  currentTurn: number;
  maxTurns: number;
  progress: number;
  endedReason: GoalEndedReason | null;
  winner: GoalWinner | null;
  rationale: string | null;
  goal: string;
  judgeMode: GoalJudgeMode;
  user: { mode: "model" | "script"; modelId: string | null; persona: string | null };
  category: string | null;
  createdAt: number;
  startedAt: number | null;
  endedAt: number | null;
  elapsedMs: number;
  sides: Record<GoalSide, GoalBattleSide>;
  vote: { choice: GoalVoteChoice } | null;
}

export interface GoalBattle extends GoalBattleSummary {
  systemPrompt: string;
}

export interface GoalCheck {
  reached: boolean;
  reason: string | null;
  by: "marker" | "judge";
}

export interface GoalMessage {
  turn: number;
  side: GoalSide;
  role: "user" | "assistant";
  content: string;
  tokensIn: number | null;
  tokensOut: number | null;
  latencyMs: number | null;
  goalCheck: GoalCheck | null;
  error: string | null;
  createdAt: number;
}

/** The events of a goal battle's socket, after its snapshot. */
export type GoalBattleEvent =
  | { seq: number; type: "snapshot"; state: GoalBattle }
  | { seq: number; type: "battle.updated"; battle: GoalBattle }
  | { seq: number; type: "message.added"; message: GoalMessage }
  | { seq: number; type: "side.delta"; side: GoalSide; turn: number; text: string };
