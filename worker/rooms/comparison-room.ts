/**
 * ComparisonRoom: one Durable Object per arena comparison. Both sides get the same messages and
 * settings, in parallel, streamed; every turn is persisted before it is announced; votes on one
 * comparison are serialised here, so flags and idempotency are decided on a consistent state.
 *
 * The room routes its RPC methods to its pieces (comparison/): the sides' answering, the vote desk and
 * the judge panel, each handed a ComparisonContext; it keeps the record, its D1 row and the money set aside.
 */
import { insertComparison, saveTurnStart } from "../db/arena-queries";
import { openDb } from "../db/queries";
import type { CallTargets, ContextMessage, ThreadLink } from "../db/records";
import { settleHoldsWrite } from "../db/spend-queries";
import type { ArenaParams, ComparisonDetail, ComparisonMode } from "../shared/arena";
import type { ComparisonEventBody } from "../shared/events";
import type { Redactions } from "../shared/redact";
import { closedRefusal } from "./comparison/closed";
import { tellThread } from "./comparison/thread-link";
import type { ComparisonContext } from "./comparison/context";
import { JudgePanel } from "./comparison/judge-panel";
import { answerSides, failStuckSides, openTurn, reopenFailed, sidesToAnswer } from "./comparison/sides";
import { loadRecord, saveRecord } from "./comparison/storage";
import { type CastVote, VoteDesk, type VoteResponse } from "./comparison/vote-desk";
import { type ComparisonRecord, newSide, toComparisonDetail } from "./comparison-record";
import { takeHold } from "./holds";
import { Room } from "./room";
import { type RoomResult, refuse } from "./room-result";

export type { CastVote, VoteResponse } from "./comparison/vote-desk";
export type { ContextMessage, ThreadLink } from "../db/records";

export interface StartComparison {
  id: string;
  prompt: string;
  models: { left: string; right: string };
  category: string | null;
  blind: boolean;
  mode: ComparisonMode;
  modeNote: string | null;
  params: ArenaParams;
  maxTurns: number;
  timeoutMs: number;
  autoJudges: string[];
  /** what the comparison's presets call, sides and judges (api/contestants.ts) */
  targets?: CallTargets;
  /** the money set aside for the comparison's calls (api/spend.ts) */
  holdId?: string;
  /** the conversation so far, which both sides read before the prompt (a chat thread's) */
  context?: ContextMessage[];
  /** the chat thread reply the comparison answers: its first vote is passed on to that thread */
  thread?: ThreadLink;
}

const missing = () => refuse("not_found", "No comparison with this id.", 404);

export class ComparisonRoom extends Room<ComparisonEventBody> {
  private record: ComparisonRecord | null = null;
  /** what the room's pieces may touch */
  private readonly pieces: ComparisonContext;
  private readonly judges: JudgePanel;
  private readonly votes: VoteDesk;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.pieces = this.context();
    this.judges = new JudgePanel(this.pieces);
    this.votes = new VoteDesk(this.pieces, async () => {
      await tellThread(this.env, this.record!);
      await this.judges.afterFirstVote();
      if (!this.hasWork()) await this.settleHolds();
    });
    ctx.blockConcurrencyWhile(async () => {
      this.record = loadRecord(ctx.storage.kv);
      // A new instance with a side still to answer means the one answering it is gone: resume now.
      if (this.hasWork()) await ctx.storage.setAlarm(Date.now());
    });
  }

  // ---- RPC, called by the Worker's routes ----

  async start(init: StartComparison): Promise<RoomResult<{ id: string; status: string }>> {
    if (this.record) return { ok: true, id: this.record.id, status: this.record.status };
    const { holdId, targets, ...rest } = init;
    const record: ComparisonRecord = {
      ...rest,
      ...(targets && Object.keys(targets).length ? { targets } : {}),
      holds: holdId ? [holdId] : [],
      judgeSpend: { costUsd: 0, unknownCostCalls: 0 },
      createdAt: Date.now(),
      status: "answering",
      turns: [{ turn: 1, prompt: init.prompt, left: newSide(), right: newSide() }],
      bothAnsweredAt: null,
      revealedAt: null,
      votes: [],
      judges: [],
      // Its D1 row is written by the first step, while both sides are already being asked (see `list`).
      unlisted: true,
    };
    this.record = record;
    this.save();
    this.startWork();
    return { ok: true, id: record.id, status: record.status };
  }

  async detail(): Promise<ComparisonDetail | null> {
    return this.record && toComparisonDetail(this.record);
  }

  /** The next turn, sent to both sides with each side's own history. */
  async sendMessage(
    content: string,
    redactions: Redactions = {},
    holdId?: string,
  ): Promise<RoomResult<{ id: string; status: string; turn: number }>> {
    const r = this.record;
    if (!r) return missing();
    const closed = closedRefusal(this.env, r);
    if (closed) return closed;
    const turn = openTurn(r, content, redactions);
    if ("ok" in turn) return turn;
    takeHold(r, holdId);
    this.save();
    await saveTurnStart(openDb(this.env.DB), r, turn.turn, content);
    this.emit({ type: "turn.started", turn: turn.turn, prompt: content });
    this.emit({ type: "comparison.status", status: r.status });
    this.startWork();
    return { ok: true, id: r.id, status: r.status, turn: turn.turn };
  }

  /** Asks a side that failed in the latest turn again. */
  async retry(holdId?: string): Promise<RoomResult<{ id: string; status: string }>> {
    const r = this.record;
    if (!r) return missing();
    const refused = closedRefusal(this.env, r) ?? reopenFailed(r);
    if (refused) return refused;
    takeHold(r, holdId);
    this.save();
    this.emit({ type: "comparison.status", status: r.status });
    this.startWork();
    return { ok: true, id: r.id, status: r.status };
  }

  async vote(cast: CastVote): Promise<RoomResult<{ replayed: boolean; response: VoteResponse }>> {
    return this.record ? this.votes.vote(cast) : missing();
  }

  async withdraw(voteId: string): Promise<RoomResult<{ voteId: string; status: string }>> {
    return this.record ? this.votes.withdraw(voteId) : missing();
  }

  /**
   * Asks judges to compare the two sides. While names are hidden every judge is taken alike and waits for the
   * first vote, so neither the answer nor the spend says whether a judge is one of the sides; one that is is
   * left out only then. Verdicts stay hidden until the first vote.
   */
  async requestJudges(
    judges: string[],
    holdId?: string,
    targets: CallTargets = {},
  ): Promise<RoomResult<{ accepted: true }>> {
    const r = this.record;
    if (!r) return missing();
    const closed = closedRefusal(this.env, r);
    if (closed) return closed;
    if (r.status !== "ready" && r.status !== "voted")
      return refuse("not_ready", "Both sides must finish answering before judges can compare them.");
    // Set aside in full even when a judge is one of the sides and is left out, so the figures don't say so.
    takeHold(r, holdId);
    if (Object.keys(targets).length) r.targets = { ...r.targets, ...targets };
    this.save();
    await this.judges.add(judges);
    if (!this.hasWork()) await this.settleHolds();
    return { ok: true, accepted: true };
  }

  // ---- the work: one turn's two sides per alarm, then the judges ----

  protected exists() {
    return this.record !== null;
  }

  protected snapshot() {
    return toComparisonDetail(this.record!);
  }

  protected hasWork() {
    const r = this.record;
    return r !== null && (r.unlisted === true || sidesToAnswer(r).length > 0 || this.judges.toAsk().length > 0);
  }

  /** Both sides answer at once, then the judges at once: a judge asks twice in turn, and may ask each twice (invalid output). */
  protected stepBudgetMs() {
    const r = this.record!;
    return (sidesToAnswer(r).length ? r.timeoutMs : 0) + (this.judges.toAsk().length ? 4 * r.timeoutMs : 0);
  }

  /** The watchdog gave up: a side still answering fails with `reason` (it names no model, so it shows while blind), and so does a judge. */
  protected async stopStuck(reason: string) {
    await this.list();
    await failStuckSides(this.pieces, reason);
    await this.judges.failStuck(reason);
    await this.settleHolds();
    await this.ctx.storage.deleteAlarm();
  }

  protected async step(generation: number) {
    await answerSides(this.pieces, generation, this.list());
    if (this.current(generation)) await this.judges.askAll(generation);
    if (this.current(generation) && !this.hasWork()) {
      await this.settleHolds();
      await this.ctx.storage.deleteAlarm();
    }
  }

  /**
   * The work set aside for has ended: its calls' rows count from now on (a blind comparison's once it is
   * voted on). Automatic judges, and judges asked while names are hidden, are asked after the first vote, so
   * until then their part stays set aside.
   */
  private async settleHolds() {
    const r = this.record!;
    const ids = [...r.holds];
    if (!ids.length || this.judges.waitingForVote()) return;
    await settleHoldsWrite(this.env.DB, ids).run();
    r.holds = r.holds.filter((id) => !ids.includes(id));
    this.save();
  }

  /**
   * Writes the comparison's D1 row (with the first turn's prompt) once. The POST that created the comparison
   * doesn't wait for it: it runs while both sides are being asked, and each side waits for it before it
   * settles, so every later D1 write (a side, a vote) finds the row there.
   */
  private async list(): Promise<void> {
    const r = this.record!;
    if (!r.unlisted) return;
    await insertComparison(openDb(this.env.DB), r);
    // Kept with the record's next save (a side settling): written again after a restart, the row is left as it is.
    delete r.unlisted;
  }

  private save() {
    if (this.record) saveRecord(this.ctx.storage.kv, this.record);
  }

  private context(): ComparisonContext {
    const room = this;
    return {
      env: this.env,
      get record() {
        return room.record!;
      },
      kv: this.ctx.storage.kv,
      save: () => this.save(),
      emit: (event) => this.emit(event),
      rules: () => ({
        env: this.env,
        cancel: this.cancelSignal,
        policy: this.retryPolicy(),
        timeoutMs: this.record!.timeoutMs,
      }),
      current: (generation) => this.current(generation),
      wake: () => this.ctx.storage.setAlarm(Date.now()),
    };
  }
}
