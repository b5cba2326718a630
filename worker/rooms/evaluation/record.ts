/**
 * An evaluation room's small record (its plan and where it stands), kept under `record` in its storage. The
 * calls, the items and the answers' text live in the room's SQLite tables (call-store.ts), never all in memory.
 */
import type { CallTargets } from "../../db/records";
import type { EvaluationMethod, EvaluationStatus, GoalUserMode } from "../../shared/constants";
import type { ModelParams, Rubric } from "../../shared/run";

export const RECORD_KEY = "record";

export interface EvaluationContestant {
  id: string;
  modelId: string;
  params: ModelParams;
  displayName: string;
}

export interface EvaluationSettings {
  timeoutMs: number;
  /** the output allowance of contestants without their own */
  maxTokens: number | null;
  temperature: number | null;
}

/** How a goal evaluation's battles are played (the same for every item; each item brings its goal). */
export interface EvaluationGoalPlan {
  maxTurns: number;
  turnTimeoutMs: number;
  /** the framing both sides read before the goal (a preset's own system prompt comes first) */
  systemPrompt: string;
  user: { mode: GoalUserMode; modelId: string | null; script: string[] | null };
  /** checks each reply for the goal when an item names no marker, and judges a battle the goal rule left open */
  judgeModelId: string | null;
}

export interface EvaluationRecord {
  version: 1;
  id: string;
  name: string;
  promptSetId: string;
  method: EvaluationMethod;
  contestants: EvaluationContestant[];
  judges: string[];
  /** each preset judge's model and parameters (its system prompt goes before the judge's instructions); absent: none */
  judgeTargets?: CallTargets;
  baseline: string | null;
  repeats: number;
  /** a pairwise evaluation's words to its judges */
  rubric: string | null;
  /** a council evaluation's rubric (absent: the default six dimensions) */
  councilRubric?: Rubric;
  /** a goal evaluation's battles (absent: another method) */
  goal?: EvaluationGoalPlan;
  settings: EvaluationSettings;
  status: EvaluationStatus;
  error: string | null;
  estimateUsd: number;
  createdAt: number;
  items: number;
  /** judge calls left out: the judge wrote one of the two answers */
  selfSkipped: number;
  /** the money set aside for the calls still to make (api/spend.ts), resized as items finish */
  holdId: string | null;
  /** when the money set aside stops counting, unless resized */
  holdExpiresAt: number;
  /**
   * each provider's cap on calls in flight in this room, fixed when it started (a shard's share of
   * QUORUM_PROVIDER_CONCURRENCY); absent in rooms started before it was kept: the setting as it is now
   */
  roomCaps?: Record<string, number>;
  /**
   * a parent: the evaluation runs in one shard room per entry (evaluation/parent.ts), each with these caps and a
   * share of the items by its weight (evaluation/concurrency.ts); this room makes no call
   */
  shards?: { caps: Record<string, number>; weight: number }[];
  /** a shard: this room runs every `of`-th item from `index` on and reports to the parent, the room named `id` */
  shard?: { index: number; of: number };
}

export const isTerminal = (status: EvaluationStatus) =>
  status === "completed" || status === "cancelled" || status === "failed";

export function loadRecord(kv: SyncKvStorage): EvaluationRecord | null {
  return kv.get<EvaluationRecord>(RECORD_KEY) ?? null;
}

export function saveRecord(kv: SyncKvStorage, record: EvaluationRecord): void {
  kv.put(RECORD_KEY, record);
}
