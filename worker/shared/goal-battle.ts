/**
 * What a client sees of a goal battle (docs/goal-battles.md) and its live events: one shape for the API, the room's
 * snapshot and the page. zod/mini, so the page can share it. Blind: a side's contestant and name stay null until
 * the battle is over (with a person judging, until the vote).
 */
import * as z from "zod/mini";
import {
  GOAL_BATTLE_STATES,
  GOAL_CHECK_BY,
  GOAL_ENDED_REASONS,
  GOAL_JUDGE_MODES,
  GOAL_SIDES,
  GOAL_USER_MODES,
  GOAL_WINNERS,
  VOTE_CHOICES,
} from "./constants";

export const goalSide = z.enum(GOAL_SIDES);

export const goalBattleSide = z.object({
  /** the model or preset id: null while blind */
  contestant: z.nullable(z.string()),
  displayName: z.nullable(z.string()),
  tokensIn: z.number(),
  tokensOut: z.number(),
  /** the replies' latencies, added up */
  latencyMs: z.number(),
  /** turns this side replied to */
  turns: z.number(),
  /** null while blind (a price would tell the model) or when a model has no price */
  costUsd: z.nullable(z.number()),
  /** the turn this side reached the goal in, null when it didn't */
  goalReachedAt: z.nullable(z.number()),
  /** this side failed a turn for good (after retries) */
  failed: z.boolean(),
});

const goalBattleFields = {
  jobId: z.string(),
  state: z.enum(GOAL_BATTLE_STATES),
  currentTurn: z.number(),
  maxTurns: z.number(),
  /** 0..1: turns done of the limit, 1 once ended */
  progress: z.number(),
  endedReason: z.nullable(z.enum(GOAL_ENDED_REASONS)),
  winner: z.nullable(z.enum(GOAL_WINNERS)),
  /** why: the goal rule's words, the judge's reasons, the failure */
  rationale: z.nullable(z.string()),
  goal: z.string(),
  judgeMode: z.enum(GOAL_JUDGE_MODES),
  user: z.object({
    mode: z.enum(GOAL_USER_MODES),
    modelId: z.nullable(z.string()),
    persona: z.nullable(z.string()),
  }),
  category: z.nullable(z.string()),
  createdAt: z.number(),
  startedAt: z.nullable(z.number()),
  endedAt: z.nullable(z.number()),
  elapsedMs: z.number(),
  sides: z.object({ A: goalBattleSide, B: goalBattleSide }),
  vote: z.nullable(z.object({ choice: z.enum(VOTE_CHOICES) })),
};

export const goalBattleSummary = z.object(goalBattleFields);
export const goalBattle = z.object({ ...goalBattleFields, systemPrompt: z.string() });

export const goalCheck = z.object({
  reached: z.boolean(),
  reason: z.nullable(z.string()),
  by: z.enum(GOAL_CHECK_BY),
});

export const goalMessage = z.object({
  turn: z.number(),
  side: goalSide,
  role: z.enum(["user", "assistant"]),
  content: z.string(),
  tokensIn: z.nullable(z.number()),
  tokensOut: z.nullable(z.number()),
  latencyMs: z.nullable(z.number()),
  goalCheck: z.nullable(goalCheck),
  error: z.nullable(z.string()),
  createdAt: z.number(),
});

export const goalBattleStarted = z.object({ jobId: z.string() });
export const goalBattleList = z.object({ battles: z.array(goalBattleSummary), nextCursor: z.nullable(z.string()) });
export const goalMessageList = z.object({ messages: z.array(goalMessage), nextCursor: z.nullable(z.string()) });

const base = { seq: z.number() };

/** The live events of a goal battle (GET /api/goal-battles/:jobId/ws). */
export const goalBattleEvent = z.discriminatedUnion("type", [
  z.object({ ...base, type: z.literal("snapshot"), state: goalBattle }),
  z.object({ ...base, type: z.literal("battle.updated"), battle: goalBattle }),
  z.object({ ...base, type: z.literal("message.added"), message: goalMessage }),
  z.object({ ...base, type: z.literal("side.delta"), side: goalSide, turn: z.number(), text: z.string() }),
  z.object({ ...base, type: z.literal("watchdog"), action: z.enum(["resumed", "stopped"]), message: z.string() }),
]);

export type GoalBattle = z.infer<typeof goalBattle>;
export type GoalBattleSummary = z.infer<typeof goalBattleSummary>;
export type GoalBattleSideView = z.infer<typeof goalBattleSide>;
export type GoalMessage = z.infer<typeof goalMessage>;
export type GoalCheck = z.infer<typeof goalCheck>;
export type GoalBattleEvent = z.infer<typeof goalBattleEvent>;
export type GoalBattleEventBody = GoalBattleEvent extends infer E
  ? E extends { type: "snapshot" | "watchdog" }
    ? never
    : Omit<E, "seq">
  : never;
