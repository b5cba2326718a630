/**
 * The full, unblinded records the rooms keep and D1 stores. They live beside the data layer so it
 * needs to know nothing of rooms; the rooms decide what of them a client may see.
 */
import type {
  ArenaParams,
  ComparisonMode,
  ComparisonStatus,
  JudgeOrder,
  SideStatus,
  SideVerdict,
  VoteChoice,
  VoteFlag,
  VoteRow,
} from "../shared/arena";
import type { AggregationView, ModelParams, RunDetail, RunSettings, RunStatus, Scores } from "../shared/run";

/** What one provider call took and cost; null until it ends (and costUsd when the price is unknown). */
export interface CallUsage {
  latencyMs: number | null;
  tokensIn: number | null;
  tokensOut: number | null;
  costUsd: number | null;
}

/** Tokens and cost of calls added up; costUsd null while none of them has a known price. */
export type Meter = Pick<CallUsage, "tokensIn" | "tokensOut" | "costUsd">;

export function addMeters(meters: Meter[]): Meter {
  const sum = (pick: (m: Meter) => number | null) =>
    meters.reduce<number | null>((n, m) => (pick(m) === null ? n : (n ?? 0) + pick(m)!), null);
  return { tokensIn: sum((m) => m.tokensIn), tokensOut: sum((m) => m.tokensOut), costUsd: sum((m) => m.costUsd) };
}

/**
 * What a preset contestant (`preset:<slug>@<version>`) calls: its model and its system prompt and parameters,
 * resolved when the work started. Everything shown and every battle keeps the contestant id; only the provider
 * call and its price use these.
 */
export interface CallTarget {
  modelId: string;
  params: ModelParams;
  /** a preset's shown name ("Terse v2"); absent in records made before it was kept */
  displayName?: string;
}

/** The call targets of a record's presets, by contestant id; a model id is absent (it calls itself). */
export type CallTargets = Record<string, CallTarget>;

export interface AnswerRecord extends CallUsage {
  id: string;
  label: string;
  modelId: string;
  params: ModelParams | null;
  status: RunDetail["answers"][number]["status"];
  text: string;
  error: string | null;
  truncated: boolean;
  finishReason: string | null;
  attempts: number;
  droppedParams: string[];
  /** the failure's kind, so a blind run can say what happened without the vendor's wording (absent before it existed) */
  errorKind?: string | null;
}

export interface ReviewRecord {
  id: string;
  targetAnswerId: string;
  scores: Scores;
  critique: string;
}

export interface ReviewSetRecord extends CallUsage {
  id: string;
  reviewerModelId: string;
  reviewerAnswerId: string | null;
  status: RunDetail["reviewers"][number]["status"];
  ranking: string[] | null;
  confidence: number | null;
  weight: number;
  rawOutput: string | null;
  error: string | null;
  /** as an answer's */
  errorKind?: string | null;
  attempts: number;
  /** the order this reviewer was shown the answers in, its own seeded shuffle (null for runs before it existed) */
  shownOrder: string[] | null;
  /** with calibrated weights: the agreement with human votes behind `weight`, null when it took the average */
  calibration?: { agreement: number; comparisons: number } | null;
  reviews: ReviewRecord[];
}

export interface SynthesisRecord extends CallUsage {
  modelId: string;
  status: RunDetail["answers"][number]["status"];
  text: string;
  error: string | null;
  truncated: boolean;
}

export interface RunRecord {
  id: string;
  createdAt: number;
  question: string;
  settings: RunSettings;
  models: { id: string; params?: ModelParams }[];
  status: RunStatus;
  error: string | null;
  answers: AnswerRecord[];
  reviewSets: ReviewSetRecord[];
  aggregation: AggregationView | null;
  /** null when the run asked for no synthesis */
  synthesis: SynthesisRecord | null;
  /** calls whose results were replaced (an earlier evaluation, a retried answer or synthesis): paid for all the same */
  earlier?: Meter;
  /** ids of the money set aside for work under way (api/spend.ts), settled when the run ends; none in a record read from D1 */
  holds: string[];
  /** what its presets call (answerers, reviewers, the chair); absent when none takes part */
  targets?: CallTargets;
}

export interface SideRecord {
  status: SideStatus;
  text: string;
  latencyMs: number | null;
  tokensIn: number | null;
  tokensOut: number | null;
  costUsd: number | null;
  /** the real reason, kept even while a blind comparison shows a general one */
  error: string | null;
  errorKind: string | null;
  truncated: boolean;
  attempts: number;
}

export interface TurnRecord {
  turn: number;
  prompt: string;
  left: SideRecord;
  right: SideRecord;
}

export interface VoteRecord {
  voteId: string;
  choice: VoteChoice;
  clientId: string;
  flags: VoteFlag[];
  createdAt: number;
  rows: VoteRow[];
}

export interface JudgeRecord {
  judgeModelId: string;
  status: "pending" | "running" | "done" | "failed";
  /** [left shown as A, left shown as B] */
  orders: [JudgeOrder | null, JudgeOrder | null];
  verdict: SideVerdict | null;
  flipped: boolean;
  error: string | null;
  /** its battle and verdict row are in D1 (only after the first vote) */
  written: boolean;
}

export interface ComparisonRecord {
  id: string;
  createdAt: number;
  category: string | null;
  blind: boolean;
  mode: ComparisonMode;
  modeNote: string | null;
  params: ArenaParams;
  /** model1 is shown on the left, model2 on the right */
  models: { left: string; right: string };
  status: ComparisonStatus;
  turns: TurnRecord[];
  /** when both sides of the latest turn had answered */
  bothAnsweredAt: number | null;
  /** when the first vote was recorded: no new turns after it, and a blind comparison shows its names from then on */
  revealedAt: number | null;
  /** live votes, oldest first; a withdrawn vote is gone */
  votes: VoteRecord[];
  maxTurns: number;
  timeoutMs: number;
  /** judges to ask once the first vote is in (QUORUM_JUDGES or the request's own) */
  autoJudges: string[];
  judges: JudgeRecord[];
  /** what its judges' calls cost (they have no row of their own in the record) */
  judgeSpend: { costUsd: number; unknownCostCalls: number };
  /** ids of the money set aside for work asked for and not yet settled (api/spend.ts) */
  holds: string[];
  /** what its presets call (sides and judges); absent when none takes part */
  targets?: CallTargets;
  /** true from the start until the comparison's D1 row is written, alongside the first turn's calls; absent in records kept before it existed (written at once then) */
  unlisted?: boolean;
  /** the conversation both sides read before the first turn (a chat thread's so far); absent when none */
  context?: ContextMessage[];
  /** the chat thread reply this comparison answers, told of its first vote; absent for the arena's own */
  thread?: ThreadLink;
}

/** An earlier message of the conversation a comparison continues: no model is named in it. */
export interface ContextMessage {
  role: "user" | "assistant";
  content: string;
}

/** A chat thread's dual reply, answered by a comparison. */
export interface ThreadLink {
  id: string;
  messageId: string;
}
