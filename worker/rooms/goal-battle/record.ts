/**
 * A goal battle room's record (under `record`) and its transcript (one storage key per message, so the record stays
 * small however long the battle runs); what a client may see of them (blind until over); the battle's D1 row.
 */
import type { GoalBattleRow, GoalMessageRow } from "../../db/goal-battle-queries";
import type { GoalSideTotals } from "../../db/schema";
import type {
  GoalBattleState,
  GoalEndedReason,
  GoalJudgeMode,
  GoalSide,
  GoalUserMode,
  GoalWinner,
  VoteChoice,
} from "../../shared/constants";
import type { GoalBattle, GoalCheck, GoalMessage } from "../../shared/goal-battle";
import type { ModelParams } from "../../shared/run";
import { hiddenError } from "../hidden-error";

export const RECORD_KEY = "record";
const MESSAGE_PREFIX = "msg:";

export interface GoalContestant {
  /** a model id, or `preset:<slug>@<version>` */
  id: string;
  modelId: string;
  params: ModelParams;
  displayName: string;
}

export interface GoalSideRecord extends GoalContestant {
  totals: GoalSideTotals;
}

/** Where the work stands: taking turns, asking the judge for the outcome, waiting for a person's vote, or over. */
export type GoalPhase = "turns" | "judging" | "voting" | "over";

export interface GoalBattleRecord {
  version: 1;
  id: string;
  createdAt: number;
  startedAt: number | null;
  endedAt: number | null;
  state: GoalBattleState;
  phase: GoalPhase;
  goal: string;
  systemPrompt: string;
  judgeMode: GoalJudgeMode;
  user: { mode: GoalUserMode; modelId: string | null; persona: string | null; script: string[] | null };
  marker: string | null;
  judgeModelId: string | null;
  maxTurns: number;
  turnTimeoutMs: number;
  temperature: number | null;
  maxTokens: number | null;
  category: string | null;
  sides: Record<GoalSide, GoalSideRecord>;
  /** turns finished */
  currentTurn: number;
  endedReason: GoalEndedReason | null;
  winner: GoalWinner | null;
  rationale: string | null;
  vote: { choice: VoteChoice } | null;
  /** the money set aside for the battle's calls, settled at its end */
  holdId: string | null;
  /** the user's first message, the same to both sides, whatever the user mode (a goal evaluation's item prompt) */
  opening?: string;
  /** the goal evaluation this battle is one call of: it writes the battle's `eval` battle, so this room writes none */
  evaluationId?: string;
  /** what its calls have cost so far, all of them (null once one had no price; absent: nothing yet) */
  paidUsd?: number | null;
}

/** A stored message: what a client sees, plus the kind of a failure (its own wording may name the model). */
export interface StoredMessage extends GoalMessage {
  errorKind: string | null;
  costUsd: number | null;
}

export const emptyTotals = (): GoalSideTotals => ({
  tokensIn: 0,
  tokensOut: 0,
  latencyMs: 0,
  turns: 0,
  costUsd: 0,
  goalReachedAt: null,
  failed: false,
});

export const loadRecord = (kv: SyncKvStorage) => kv.get<GoalBattleRecord>(RECORD_KEY) ?? null;
export const saveRecord = (kv: SyncKvStorage, r: GoalBattleRecord) => kv.put(RECORD_KEY, r);

const messageKey = (turn: number, side: GoalSide, role: GoalMessage["role"]) =>
  `${MESSAGE_PREFIX}${String(turn).padStart(4, "0")}:${side}:${role === "user" ? 0 : 1}`;

export const loadMessage = (kv: SyncKvStorage, turn: number, side: GoalSide, role: GoalMessage["role"]) =>
  kv.get<StoredMessage>(messageKey(turn, side, role)) ?? null;

export const saveMessage = (kv: SyncKvStorage, m: StoredMessage) => kv.put(messageKey(m.turn, m.side, m.role), m);

/** Every stored message in turn order (user before assistant, A before B). */
export function allMessages(kv: SyncKvStorage): StoredMessage[] {
  return [...kv.list<StoredMessage>({ prefix: MESSAGE_PREFIX })].map(([, m]) => m);
}

export const isOver = (r: GoalBattleRecord) => r.phase === "over" || r.phase === "voting";

/** Names may be shown: the battle is over (and with a person judging, voted on, or decided without a vote). */
export const isRevealed = (r: GoalBattleRecord) => r.phase === "over";

/** What a client sees of a message: while blind, a failure in general words by its kind. */
export function messageView(r: GoalBattleRecord, m: StoredMessage): GoalMessage {
  const { errorKind, costUsd: _cost, ...view } = m;
  if (m.error === null || isRevealed(r)) return view;
  return { ...view, error: hiddenError(errorKind, r.turnTimeoutMs) };
}

export function battleView(r: GoalBattleRecord, now = Date.now()): GoalBattle {
  const shown = isRevealed(r);
  const side = (s: GoalSide) => {
    const { totals } = r.sides[s];
    return {
      contestant: shown ? r.sides[s].id : null,
      displayName: shown ? r.sides[s].displayName : null,
      ...totals,
      costUsd: shown ? totals.costUsd : null,
    };
  };
  return {
    jobId: r.id,
    state: r.state,
    currentTurn: r.currentTurn,
    maxTurns: r.maxTurns,
    progress: r.phase === "turns" ? Math.min(1, r.currentTurn / r.maxTurns) : 1,
    endedReason: r.endedReason,
    winner: r.winner,
    rationale: r.rationale,
    goal: r.goal,
    systemPrompt: r.systemPrompt,
    judgeMode: r.judgeMode,
    user: { mode: r.user.mode, modelId: r.user.modelId, persona: r.user.persona },
    category: r.category,
    createdAt: r.createdAt,
    startedAt: r.startedAt,
    endedAt: r.endedAt,
    elapsedMs: r.startedAt === null ? 0 : (r.endedAt ?? now) - r.startedAt,
    sides: { A: side("A"), B: side("B") },
    vote: r.vote,
  };
}

/** The battle's D1 row: contestants stored from the start, shown by the list only once revealed. */
export function battleRow(r: GoalBattleRecord): GoalBattleRow {
  return {
    id: r.id,
    createdAt: r.createdAt,
    state: r.state,
    goal: r.goal,
    systemPrompt: r.systemPrompt,
    judgeMode: r.judgeMode,
    userMode: r.user.mode,
    userModelId: r.user.modelId,
    persona: r.user.persona,
    category: r.category,
    maxTurns: r.maxTurns,
    currentTurn: r.currentTurn,
    contestantA: r.sides.A.id,
    contestantB: r.sides.B.id,
    displayNameA: r.sides.A.displayName,
    displayNameB: r.sides.B.displayName,
    sides: { A: r.sides.A.totals, B: r.sides.B.totals },
    endedReason: r.endedReason,
    winner: r.winner,
    rationale: r.rationale,
    voteChoice: r.vote?.choice ?? null,
    startedAt: r.startedAt,
    endedAt: r.endedAt,
    evaluationId: r.evaluationId ?? null,
    settings: {
      marker: r.marker,
      judgeModelId: r.judgeModelId,
      script: r.user.script,
      turnTimeoutMs: r.turnTimeoutMs,
      temperature: r.temperature,
      maxTokens: r.maxTokens,
    },
  };
}

/** A message's D1 row; until names are shown, its failure in general words (the provider's own may name the model). */
export function messageRow(r: GoalBattleRecord, m: StoredMessage): GoalMessageRow {
  return {
    battleId: r.id,
    turn: m.turn,
    side: m.side,
    role: m.role,
    content: m.content,
    tokensIn: m.tokensIn,
    tokensOut: m.tokensOut,
    latencyMs: m.latencyMs,
    goalCheck: m.goalCheck as GoalCheck | null,
    error: m.error === null || isRevealed(r) ? m.error : hiddenError(m.errorKind, r.turnTimeoutMs),
    createdAt: m.createdAt,
  };
}
