/** What a goal battle's pieces (its turns, its judge) may touch of the room. */
import type { GoalSide } from "../../shared/constants";
import type { ReplyRules } from "../reply";
import type { ProviderGate } from "./gate";
import type { GoalBattleRecord, StoredMessage } from "./record";

export interface PaidCall {
  modelId: string;
  tokensIn: number | null;
  tokensOut: number | null;
  costUsd: number | null;
}

export interface GoalBattleContext {
  env: Env;
  record: GoalBattleRecord;
  kv: SyncKvStorage;
  gate: ProviderGate;
  rules(): ReplyRules;
  /** false once the work was retired (stopped, superseded): from then on nothing is stored or announced */
  current(): boolean;
  /** a message was stored (new, or with its goal check): write it to D1 and announce it */
  stored(message: StoredMessage): void;
  /** a call that may have cost money ended: keep it for the spend figures */
  paid(call: PaidCall): void;
  delta(side: GoalSide, turn: number, text: string): void;
}
