/**
 * GoalBattleRoom: one Durable Object per goal battle (docs/goal-battles.md). Each alarm-driven step plays one turn
 * (goal-battle/turn.ts) or asks the judge for the outcome (goal-battle/judge.ts); every message is stored before it is
 * written to D1 or announced, so a room evicted mid-battle resumes without making a finished call again. The battle
 * ends by the rules of goal-battle/outcome.ts, or by a stop; a decided one writes its one `goal` battle. Blind until
 * over (with a person judging, until the vote).
 */
import { goalBattleWrites, goalMessageWrites, goalSpendWrites, ratedGoalBattleWrite } from "../db/goal-battle-queries";
import type { Winner } from "../rating/battle-outcome";
import { revealHoldsWrite, settleHoldsWrite } from "../db/spend-queries";
import type { Write } from "../db/statements";
import { settings } from "../shared/config";
import type { GoalEndedReason, GoalWinner, VoteChoice } from "../shared/constants";
import type { GoalBattle, GoalBattleEventBody } from "../shared/goal-battle";
import type { GoalBattleContext, PaidCall } from "./goal-battle/context";
import { ProviderGate } from "./goal-battle/gate";
import { judgeOutcome } from "./goal-battle/judge";
import { turnOutcome } from "./goal-battle/outcome";
import {
  allMessages,
  battleRow,
  battleView,
  emptyTotals,
  type GoalBattleRecord,
  type GoalContestant,
  isOver,
  loadRecord,
  messageRow,
  messageView,
  type StoredMessage,
  saveRecord,
} from "./goal-battle/record";
import { playTurn } from "./goal-battle/turn";
import { ProviderSlots } from "./provider-slots";
import { Room } from "./room";
import { type RoomResult, refuse } from "./room-result";
import { WriteQueue } from "./write-queue";

export interface StartGoalBattle {
  record: Omit<
    GoalBattleRecord,
    | "version"
    | "createdAt"
    | "startedAt"
    | "endedAt"
    | "state"
    | "phase"
    | "sides"
    | "currentTurn"
    | "endedReason"
    | "winner"
    | "rationale"
    | "vote"
  >;
  /** the two contestants, in the order drawn: the room puts them on sides at random */
  contestants: [GoalContestant, GoalContestant];
  /** the first on side A, as given (a goal evaluation shares sides out evenly itself) */
  sidesAsGiven?: boolean;
}

export type GoalBattleResult = RoomResult<{ battle: GoalBattle }>;

const WINNER_OF_VOTE: Record<VoteChoice, { winner: GoalWinner; battle: Winner }> = {
  left: { winner: "A", battle: "model_a" },
  right: { winner: "B", battle: "model_b" },
  tie: { winner: "tie", battle: "tie" },
  "both-bad": { winner: "tie", battle: "tie (bothbad)" },
};

export class GoalBattleRoom extends Room<GoalBattleEventBody> {
  private record: GoalBattleRecord | null = null;
  private readonly d1: WriteQueue;
  private readonly gate: ProviderGate;
  /** callers of `outcome` waiting for the end */
  private endWaiters: (() => void)[] = [];

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.gate = new ProviderGate(
      settings(env).providerConcurrency,
      new ProviderSlots(env, ctx.id.toString()),
      () => this.cancelSignal,
    );
    this.d1 = new WriteQueue(env.DB, () => this.everything());
    ctx.blockConcurrencyWhile(async () => {
      this.record = loadRecord(ctx.storage.kv);
      if (this.record && this.hasWork()) {
        // The instance that ran the battle is gone: D1 gets whatever it may have missed, and the work goes on.
        this.d1.resync();
        await ctx.storage.setAlarm(Date.now());
      }
    });
  }

  // ---- RPC, called by the Worker's routes ----

  async start(init: StartGoalBattle): Promise<GoalBattleResult> {
    if (this.record) return { ok: true, battle: battleView(this.record) };
    // Sides at random, so a contestant's place in the request says nothing about its side.
    const [first, second] =
      !init.sidesAsGiven && crypto.getRandomValues(new Uint8Array(1))[0] & 1
        ? init.contestants.toReversed()
        : init.contestants;
    const now = Date.now();
    const record: GoalBattleRecord = {
      ...init.record,
      version: 1,
      createdAt: now,
      startedAt: now,
      endedAt: null,
      state: "running",
      phase: "turns",
      sides: { A: { ...first, totals: emptyTotals() }, B: { ...second, totals: emptyTotals() } },
      currentTurn: 0,
      endedReason: null,
      winner: null,
      rationale: null,
      vote: null,
    };
    this.record = record;
    this.save();
    this.d1.push(...goalBattleWrites(this.env.DB, battleRow(record)));
    try {
      await this.d1.flush();
    } catch (err) {
      this.record = null;
      await this.wipe("the goal battle could not be stored");
      throw err;
    }
    this.startWork();
    return { ok: true, battle: battleView(record) };
  }

  async detail(): Promise<GoalBattle | null> {
    return this.record && battleView(this.record);
  }

  /**
   * The battle once it is over, or as it stands after `waitMs` if it isn't yet (null: no such battle), with what all
   * its calls cost (null when one had no price). A goal evaluation awaits its battles this way, asking again while
   * they go on, so an evicted battle is awaited anew.
   */
  async outcome(waitMs: number): Promise<{ battle: GoalBattle; paidUsd: number | null } | null> {
    const r = this.record;
    if (!r) return null;
    if (!isOver(r)) {
      let wake = () => {};
      const timer = setTimeout(() => wake(), waitMs);
      await new Promise<void>((resolve) => {
        wake = resolve;
        this.endWaiters.push(resolve);
      });
      clearTimeout(timer);
      this.endWaiters = this.endWaiters.filter((w) => w !== wake);
    }
    return { battle: battleView(r), paidUsd: r.paidUsd ?? 0 };
  }

  /** Ends the battle now: calls under way are aborted, nothing is rated, names are shown. */
  async stop(): Promise<GoalBattleResult> {
    const r = this.record;
    if (!r) return notFound();
    if (isOver(r) || r.state === "stopped")
      return refuse("conflict", `The battle has already ended (${r.endedReason}); there is nothing to stop.`);
    this.newGeneration();
    await this.ctx.storage.deleteAlarm();
    await this.end({
      state: "stopped",
      endedReason: "manual",
      winner: "none",
      rationale: "Stopped by hand before it ended.",
    });
    return { ok: true, battle: battleView(r) };
  }

  /** A person's verdict on a battle judged by people, once it has ended; names are shown after it. */
  async vote(choice: VoteChoice): Promise<GoalBattleResult> {
    const r = this.record;
    if (!r) return notFound();
    if (r.judgeMode !== "human")
      return refuse(
        "conflict",
        `This battle is judged by ${r.judgeMode === "llm" ? "the judge model" : "the goal rule"}, not by a vote.`,
      );
    if (r.phase !== "voting")
      return refuse(
        "conflict",
        r.vote
          ? "This battle has its vote already."
          : isOver(r)
            ? "This battle was decided without a vote (a side failed, or it was stopped)."
            : "Vote once the battle has ended.",
      );
    const { winner, battle } = WINNER_OF_VOTE[choice];
    r.vote = { choice };
    await this.end({
      state: "done",
      endedReason: r.endedReason!,
      winner,
      rationale: `${r.rationale ?? ""} A person voted ${choice}.`.trim(),
      rated: battle,
    });
    return { ok: true, battle: battleView(r) };
  }

  // ---- the work: one turn per step ----

  protected exists() {
    return this.record !== null;
  }

  protected snapshot() {
    return battleView(this.record!);
  }

  protected hasWork() {
    const phase = this.record?.phase;
    return phase === "turns" || phase === "judging";
  }

  protected async step(generation: number) {
    const r = this.record!;
    const ctx = this.context(generation);
    if (r.phase === "judging") return this.judge(ctx);
    const turn = r.currentTurn + 1;
    const result = await playTurn(ctx, turn);
    if (!result || !ctx.current()) return;
    if (!result.ok) {
      await this.end({ state: "error", endedReason: "error", winner: "none", rationale: result.error });
      return;
    }
    r.currentTurn = turn;
    const outcome = turnOutcome(result.sides, turn, r.maxTurns, r.judgeMode);
    if (outcome.kind === "continue") {
      this.save();
      this.d1.push(...goalBattleWrites(this.env.DB, battleRow(r)));
      this.announce();
      // The next turn: the alarm that ran this step returns, and this one starts the next.
      await this.ctx.storage.setAlarm(Date.now());
      return;
    }
    if (outcome.kind === "decided") {
      const state = outcome.endedReason === "error" || outcome.endedReason === "timeout" ? "error" : "done";
      await this.end({ ...outcome, state, rated: ratedOf(outcome.winner) });
      return;
    }
    r.endedReason = outcome.endedReason;
    r.rationale = outcome.rationale;
    if (r.judgeMode === "human") {
      await this.end({
        state: "done",
        endedReason: outcome.endedReason,
        winner: null,
        rationale: outcome.rationale,
        voting: true,
      });
      return;
    }
    r.phase = "judging";
    this.save();
    this.announce();
    await this.ctx.storage.setAlarm(Date.now());
  }

  /** A turn's calls one after another (user, reply, check asked twice at most), each within the turn's timeout. */
  protected stepBudgetMs() {
    return 4 * this.record!.turnTimeoutMs;
  }

  protected async stopStuck(reason: string) {
    await this.end({ state: "error", endedReason: "error", winner: "none", rationale: reason });
  }

  // ---- the pieces ----

  private async judge(ctx: GoalBattleContext) {
    const judged = await judgeOutcome(ctx);
    if (!judged || !ctx.current()) return;
    const r = this.record!;
    const endedReason = r.endedReason ?? "limit";
    if (!judged.ok) {
      await this.end({
        state: "error",
        endedReason,
        winner: "none",
        rationale: `${r.rationale ?? ""} The judge failed, so nothing was decided: ${judged.error}`.trim(),
      });
      return;
    }
    await this.end({
      state: "done",
      endedReason,
      winner: judged.winner,
      rationale: `${r.rationale ?? ""} ${judged.rationale}`.trim(),
      rated: ratedOf(judged.winner),
    });
  }

  private context(generation: number): GoalBattleContext {
    const r = this.record!;
    return {
      env: this.env,
      record: r,
      kv: this.ctx.storage.kv,
      gate: this.gate,
      rules: () => ({
        env: this.env,
        cancel: this.cancelSignal,
        policy: this.retryPolicy(),
        timeoutMs: r.turnTimeoutMs,
      }),
      current: () => this.current(generation),
      stored: (m) => this.stored(m),
      paid: (call) => this.paid(call),
      delta: (side, turn, text) => this.emit({ type: "side.delta", side, turn, text }),
    };
  }

  private stored(m: StoredMessage) {
    const r = this.record!;
    this.save();
    this.d1.push(...goalMessageWrites(this.env.DB, [messageRow(r, m)]));
    this.emit({ type: "message.added", message: messageView(r, m) });
  }

  private paid(call: PaidCall) {
    const r = this.record!;
    // What every call of the battle cost (its sides', the simulated user's, the judge's), for a goal evaluation's spend.
    r.paidUsd = r.paidUsd === null || call.costUsd === null ? null : (r.paidUsd ?? 0) + call.costUsd;
    this.d1.push(...goalSpendWrites(this.env.DB, r.id, [call]));
  }

  /**
   * Ends the battle once D1 holds all of it: its row, a decided battle's `goal` battle, the money set aside settled
   * and (the names out) its calls shown at their cost. With `voting`, it waits for a person's vote, still blind.
   */
  private async end(o: {
    state: GoalBattleRecord["state"];
    endedReason: GoalEndedReason;
    winner: GoalWinner | null;
    rationale: string;
    rated?: Winner | null;
    voting?: boolean;
  }) {
    const r = this.record!;
    const before = { ...r };
    Object.assign(r, {
      state: o.state,
      endedReason: o.endedReason,
      winner: o.winner,
      rationale: o.rationale,
      phase: o.voting ? "voting" : "over",
      endedAt: r.endedAt ?? Date.now(),
    });
    const writes: Write[] = [...goalBattleWrites(this.env.DB, battleRow(r))];
    // Names are out: failed replies get their own wording back.
    const failed = o.voting ? [] : allMessages(this.ctx.storage.kv).filter((m) => m.error !== null);
    writes.push(
      ...goalMessageWrites(
        this.env.DB,
        failed.map((m) => messageRow(r, m)),
      ),
    );
    if (r.holdId) writes.push(settleHoldsWrite(this.env.DB, [r.holdId]));
    if (!o.voting) writes.push(revealHoldsWrite(this.env.DB, r.id));
    // A goal evaluation's battle is rated by the evaluation, as source `eval`.
    if (o.rated && !r.evaluationId)
      writes.push(
        ratedGoalBattleWrite(this.env.DB, {
          battleId: r.id,
          modelA: r.sides.A.id,
          modelB: r.sides.B.id,
          winner: o.rated,
          judge: r.vote ? null : r.judgeModelId,
          category: r.category,
        }),
      );
    this.d1.push(...writes);
    try {
      await this.d1.flush();
    } catch (err) {
      // Still under way for the alarm's retry, which ends it again once D1 takes it.
      Object.assign(r, before);
      throw err;
    }
    this.save();
    this.announce();
    for (const wake of this.endWaiters.splice(0)) wake();
    if (!o.voting) await this.ctx.storage.deleteAlarm();
  }

  private announce() {
    this.emit({ type: "battle.updated", battle: battleView(this.record!) });
  }

  private save() {
    if (this.record) saveRecord(this.ctx.storage.kv, this.record);
  }

  /** The battle's whole state as D1 writes, for repairing D1 after a failed batch or a lost instance. */
  private everything(): Write[] {
    const r = this.record;
    if (!r) return [];
    const messages = allMessages(this.ctx.storage.kv).map((m) => messageRow(r, m));
    return [...goalBattleWrites(this.env.DB, battleRow(r)), ...goalMessageWrites(this.env.DB, messages)];
  }
}

const ratedOf = (winner: GoalWinner): Winner | null =>
  winner === "A" ? "model_a" : winner === "B" ? "model_b" : winner === "tie" ? "tie" : null;

const notFound = (): GoalBattleResult => refuse("not_found", "No goal battle with this id.", 404);
