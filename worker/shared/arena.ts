/**
 * The shape of an arena comparison and of the leaderboard as the API returns them and the
 * `snapshot` event carries them. zod/mini, so the web app can share it without a large bundle.
 */
import * as z from "zod/mini";
import { redactionCounts } from "./run";
import {
  COMPARISON_MODES,
  COMPARISON_STATUSES,
  SIDE_STATUSES,
  SIDES,
  VOTE_CHOICES,
  VOTE_FLAGS,
  type VoteChoice,
} from "./constants";

export type {
  BattleSource,
  ComparisonMode,
  ComparisonStatus,
  Side,
  SideStatus,
  VoteChoice,
  VoteFlag,
} from "./constants";
// The arena's names live in constants.ts (the page imports them there, without zod); the Worker finds them here too.
export {
  BATTLE_SOURCES,
  COMPARISON_MODES,
  COMPARISON_STATUSES,
  SIDE_STATUSES,
  SIDES,
  VOTE_CHOICES,
  VOTE_FLAGS,
} from "./constants";

export const side = z.enum(SIDES);
export const voteChoice = z.enum(VOTE_CHOICES);
export const comparisonStatus = z.enum(COMPARISON_STATUSES);
export const comparisonMode = z.enum(COMPARISON_MODES);
export const sideStatus = z.enum(SIDE_STATUSES);
export const voteFlag = z.enum(VOTE_FLAGS);

export const arenaParams = z.object({
  temperature: z.optional(z.number()),
  maxTokens: z.optional(z.number()),
  systemPrompt: z.optional(z.string()),
  /** what redact mode masked in the prompts so far */
  redactions: redactionCounts,
});

/** One side's reply in one turn. */
export const sideView = z.object({
  status: sideStatus,
  text: z.string(),
  latencyMs: z.nullable(z.number()),
  tokensIn: z.nullable(z.number()),
  tokensOut: z.nullable(z.number()),
  error: z.nullable(z.string()),
  truncated: z.boolean(),
});

export const turnView = z.object({ turn: z.number(), prompt: z.string(), left: sideView, right: sideView });

export const revealedModel = z.object({ modelId: z.string(), displayName: z.string() });
export const reveal = z.object({ left: revealedModel, right: revealedModel });

/** A `model_votes` row as inserted (seed 000: 1 row, or 2 for a tie). */
export const voteRow = z.object({
  id: z.string(),
  comparisonId: z.string(),
  voteId: z.string(),
  choice: voteChoice,
  winnerModelId: z.nullable(z.string()),
  createdAt: z.number(),
  flags: z.array(voteFlag),
});

export const voteView = z.object({
  voteId: z.string(),
  choice: voteChoice,
  rows: z.array(voteRow),
  flags: z.array(voteFlag),
  createdAt: z.number(),
});

export const comparisonSummary = z.object({
  id: z.string(),
  createdAt: z.number(),
  status: comparisonStatus,
  category: z.nullable(z.string()),
  blind: z.boolean(),
  mode: comparisonMode,
  /** why the mode differs from the one asked for (topper with no qualified leader) */
  modeNote: z.nullable(z.string()),
  params: arenaParams,
  maxTurns: z.number(),
  bothAnsweredAt: z.nullable(z.number()),
  /** when the first vote was cast; it stays when that vote is withdrawn: from then on the round takes no turns */
  votedAt: z.nullable(z.number()),
});

export const JUDGE_STATUSES = ["pending", "running", "done", "failed"] as const;
export const judgeWinner = z.enum(["A", "B", "tie"]);
export const sideVerdict = z.enum(["left", "right", "tie"]);

/** One of a judge's two answers: the first with the left side shown as A, the second swapped. */
export const judgeOrder = z.object({
  winner: judgeWinner,
  scores: z.object({ A: z.number(), B: z.number() }),
  reasons: z.string(),
  raw: z.string(),
});

export const judgeView = z.object({
  judgeModelId: z.string(),
  displayName: z.string(),
  status: z.enum(JUDGE_STATUSES),
  /** the side both orders agreed on, or a tie when they disagreed (flipped) */
  verdict: z.nullable(sideVerdict),
  flipped: z.boolean(),
  orders: z.array(z.nullable(judgeOrder)),
  error: z.nullable(z.string()),
});

export const comparisonDetail = z.object({
  comparison: comparisonSummary,
  turns: z.array(turnView),
  /** null until names may be shown: a vote was recorded, or the comparison is not blind */
  reveal: z.nullable(reveal),
  votes: z.array(voteView),
  /** judge verdicts, null until the first vote (they would sway the person) */
  judges: z.nullable(z.array(judgeView)),
  /** the panel's majority, once there are judges to count and they may be shown */
  panel: z.nullable(sideVerdict),
  /**
   * what the comparison has cost so far, every turn, retry and judge included (costUsd: the calls with a
   * known price; unknownCostCalls: those without); null until names may be shown, since a blind pair's
   * cost next to its sides' token counts would say which model is which
   */
  totals: z.optional(z.nullable(z.object({ costUsd: z.number(), unknownCostCalls: z.number() }))),
});

export const leaderboardRow = z.object({
  /** rankUpper, kept under its old name */
  rank: z.nullable(z.number()),
  /** the best rank the interval allows: 1 + models whose lower bound is above this one's upper bound */
  rankUpper: z.nullable(z.number()),
  /** the worst rank it allows: 1 + other models whose upper bound is above this one's lower bound */
  rankLower: z.nullable(z.number()),
  modelId: z.string(),
  displayName: z.string(),
  /** on a preset's row (`preset:<slug>@<version>`): the model the preset runs on */
  baseModel: z.optional(z.string()),
  wins: z.number(),
  appearances: z.number(),
  winRate: z.number(),
  elo: z.nullable(z.number()),
  /** TrueSkill mean and deviation (μ 25, σ 25/3 at the start) and the conservative μ − 3σ */
  mu: z.nullable(z.number()),
  sigma: z.nullable(z.number()),
  conservative: z.nullable(z.number()),
  bt: z.nullable(z.number()),
  ciLower: z.nullable(z.number()),
  ciUpper: z.nullable(z.number()),
  battles: z.number(),
  tieRate: z.nullable(z.number()),
  provisional: z.boolean(),
  /** fewer battles than QUORUM_NEW_MODEL_BATTLES: the arena's pairing draws it more often until it has them */
  newModel: z.boolean(),
  /**
   * with sandwich intervals, when this row's interval overlaps that of the model rated next below: that model,
   * and about how many battles between the two would tell them apart at today's rate (null: rated equal)
   */
  separation: z.nullable(z.object({ modelId: z.string(), battles: z.nullable(z.number()) })),
});

export type ArenaParams = z.infer<typeof arenaParams>;
export type SideView = z.infer<typeof sideView>;
export type TurnView = z.infer<typeof turnView>;
export type Reveal = z.infer<typeof reveal>;
export type VoteRow = z.infer<typeof voteRow>;
export type VoteView = z.infer<typeof voteView>;
export type ComparisonDetail = z.infer<typeof comparisonDetail>;
export type LeaderboardRow = z.infer<typeof leaderboardRow>;

/**
 * Where a leaderboard's Bradley–Terry fit stands. `computing`: a large fit runs in the background, and the rows
 * carry the last finished fit's ratings (`stale`) or none. `refused`: past the ceiling of models per fit.
 * `rounds` are the bootstrap rounds the fit runs, which may be fewer than asked (`notice` says so).
 */
/** A ready fit is exact, or updated from the last exact one for the battles added since (an exact refit follows). */
export type FitMode = "exact" | "incremental";
export type FitStatus =
  | { status: "ready"; mode: FitMode; models: number; rounds: number; notice: string | null }
  | { status: "computing"; models: number; rounds: number; stale: boolean; notice: string | null }
  | { status: "refused"; models: number; maxModels: number; notice: string };
/**
 * Where a view's online Elo and TrueSkill stand: `computing` while a room replays more battles than a read may
 * (a fresh import), the rows carrying an older snapshot's ratings (`stale`) or none; `battles` bounds what is left.
 */
export type OnlineStatus = { status: "ready" } | { status: "computing"; battles: number; stale: boolean };
export type JudgeWinner = z.infer<typeof judgeWinner>;
export type SideVerdict = z.infer<typeof sideVerdict>;
export type JudgeOrder = z.infer<typeof judgeOrder>;
export type JudgeView = z.infer<typeof judgeView>;

/** The rows a choice inserts, exactly as seed 000 defines them. */
export function winnersOf(choice: VoteChoice, left: string, right: string): (string | null)[] {
  switch (choice) {
    case "left":
      return [left];
    case "right":
      return [right];
    case "tie":
      return [left, right];
    case "both-bad":
      return [null];
  }
}

/** One message of an imported battle's conversation, as FastChat's `conversation_a`/`conversation_b` hold them. */
export interface ConversationMessage {
  role: string;
  content: string;
}
