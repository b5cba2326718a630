/**
 * EvaluationRoom: one Durable Object per evaluation. It keeps the evaluation's plan in a small record and its calls
 * in its own SQLite tables (evaluation/call-store.ts), runs them a slice per alarm-driven step under the providers'
 * caps (evaluation/scheduler.ts), stores every result before it writes it to D1 or announces it, and resumes after
 * an eviction or restart without making a completed call again. Pause, resume, cancel and retry are its RPCs.
 *
 * When the providers' caps add up to more than one room's six calls in flight, the room the API talks to is a
 * parent (evaluation/parent.ts): it spreads the items over shard rooms of this same class, each making its share
 * of the calls as described above and reporting to it, and answers for the whole evaluation.
 */
import { evaluationStatusWrite, insertEvaluationWrites } from "../db/evaluation-queries";
import type { PromptSetItem } from "../shared/prompt-set";
import { insertRows } from "../db/statements";
import * as schema from "../db/schema";
import { resizeHoldWrite, settleHoldsWrite } from "../db/spend-queries";
import { callsOfItem, judgeModelOf } from "../evaluation/plan";
import { roomProviderCap, shardCaps, shardCount, shardWeights } from "../evaluation/concurrency";
import { parseModelId } from "../providers/registry";
import { settings } from "../shared/config";
import type { EvaluationStatus } from "../shared/constants";
import type { EvaluationDetail, EvaluationFailure, EvaluationProgress } from "../shared/evaluation";
import type { EvaluationEventBody } from "../shared/events";
import { CallStore, type CallRow, type NewCall } from "./evaluation/call-store";
import type { EvaluationContext } from "./evaluation/context";
import { type Pace, progressOf } from "./evaluation/progress";
import { SHARD_CHECK_MS, ShardParent, type ShardStart } from "./evaluation/parent";
import { ParentLink } from "./evaluation/parent-link";
import { type EvaluationRecord, isTerminal, loadRecord, saveRecord } from "./evaluation/record";
import { haltGoalBattles } from "./evaluation/goal-call";
import { Scheduler, SLICE_CALLS } from "./evaluation/scheduler";
import { failedCallsSummary, type ShardReport, sumProgress } from "./evaluation/shard-reports";
import { callWrites } from "./evaluation/writes";
import { ProviderSlots } from "./provider-slots";
import { Room } from "./room";
import { type RoomResult, refuse } from "./room-result";
import { WriteQueue } from "./write-queue";

export interface StartEvaluation {
  record: Omit<EvaluationRecord, "version" | "status" | "error" | "createdAt" | "selfSkipped" | "holdExpiresAt">;
  items: (PromptSetItem & { maxUsd: number })[];
  /** when the money set aside stops counting unless the room resizes it */
  holdExpiresAt: number;
  /** QUORUM_PROVIDER_CONCURRENCY as the route read it (absent: this room's setting) */
  providerCaps?: Record<string, number>;
  /** set when a parent starts one of its shards */
  shard?: ShardStart;
}

export type EvaluationResult = RoomResult<{ id: string; status: EvaluationStatus }>;

/** How often, at most, progress is announced while calls finish. */
const PROGRESS_EVERY_MS = 1000;
/**
 * How long a finished call's D1 rows wait for others' before their batch goes. Nobody reads them as they come
 * (progress is the room's own), and every batch is a D1 transaction on the thread the calls' replies arrive on:
 * a few calls' rows a batch cost the calls less than one batch for each.
 */
const D1_BATCH_MS = 250;

const providerOf = (modelId: string) => parseModelId(modelId)?.provider ?? modelId;

export class EvaluationRoom extends Room<EvaluationEventBody> {
  private record: EvaluationRecord | null = null;
  private readonly store: CallStore;
  private readonly d1: WriteQueue;
  private scheduler: Scheduler | null = null;
  /** the provider slots this room holds (rooms/provider-slots.ts) */
  private readonly slots: ProviderSlots;
  private pace: Pace | null = null;
  private lastProgressAt = 0;
  /** a parent's shards */
  private readonly shards: ShardParent;
  /** a shard's parent */
  private readonly parent: ParentLink;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.store = new CallStore(ctx.storage);
    // Held under this room's own id: each room (each shard of an evaluation) is a holder of its own.
    this.slots = new ProviderSlots(env, ctx.id.toString());
    this.d1 = new WriteQueue(env.DB, () => this.unwrittenWrites(), D1_BATCH_MS);
    this.shards = new ShardParent({
      env,
      kv: ctx.storage.kv,
      record: () => this.record!,
      items: (indices) => this.store.itemsAt(indices),
      reported: (report) => {
        for (const failure of report.failures) this.emit({ type: "evaluation.failure", failure });
        this.announceProgress(true);
      },
      progress: () => this.progress(),
      finish: (status, error) => this.finish(status, error),
      setAlarm: (at) => this.ctx.storage.setAlarm(at),
    });
    this.parent = new ParentLink({
      env,
      record: () => this.record,
      lastSeq: () => this.log.lastSeq,
      progress: () => this.progress(),
    });
    ctx.blockConcurrencyWhile(async () => {
      this.record = loadRecord(ctx.storage.kv);
      if (this.record && !isTerminal(this.record.status)) {
        // The instance that ran these calls is gone: none of them completed, so they are made again; D1 gets
        // every result it may have missed.
        this.store.requeueRunning();
        this.d1.resync();
        if (this.record.status === "running" || this.record.status === "queued") await ctx.storage.setAlarm(Date.now());
      }
    });
  }

  // ---- RPC, called by the Worker's routes ----

  async start(init: StartEvaluation): Promise<EvaluationResult> {
    if (this.record) return { ok: true, id: this.record.id, status: this.record.status };
    const caps = init.providerCaps
      ? new Map(Object.entries(init.providerCaps))
      : settings(this.env).providerConcurrency;
    const record: EvaluationRecord = {
      ...init.record,
      version: 1,
      status: "queued",
      error: null,
      createdAt: Date.now(),
      selfSkipped: 0,
      holdExpiresAt: init.holdExpiresAt,
    };
    // Every item has the same calls: the judge calls a judge leaves out are as many for each.
    record.selfSkipped = callsOfItem(record, "").selfSkipped * init.items.length;
    const perItem = callsPerItem(record);
    const providers = [...perItem.keys()].sort();
    if (init.shard) {
      record.shard = { index: init.shard.index, of: init.shard.of };
      record.roomCaps = init.shard.roomCaps;
    } else {
      // A goal evaluation's calls are battles, each making its provider calls from a battle room of its own: this
      // room's six connections are not what holds it back, so it stays in one room.
      const count = record.method === "goal" ? 1 : shardCount(caps, providers, init.items.length);
      const split = shardCaps(caps, providers, count);
      const weights = shardWeights(split, perItem);
      if (count > 1) record.shards = split.map((m, k) => ({ caps: Object.fromEntries(m), weight: weights[k] }));
      else record.roomCaps = Object.fromEntries(providers.map((p) => [p, roomProviderCap(caps, p)]));
    }
    // A generator, item by item, so the calls of a large evaluation are never all in memory at once. A parent keeps
    // the items (to start a shard again) and no call.
    this.store.plan(init.items, record.shards ? [] : plannedCalls(record, init.items));
    this.record = record;
    this.save();
    if (record.shard) {
      this.setStatus("running");
      this.startWork();
      return { ok: true, id: record.id, status: record.status };
    }
    const d1 = this.env.DB;
    this.d1.push(
      ...insertEvaluationWrites(d1, {
        id: record.id,
        name: record.name,
        promptSetId: record.promptSetId,
        method: record.method,
        contestants: record.contestants.map((c) => c.id),
        judges: record.judges,
        baseline: record.baseline,
        repeats: record.repeats,
        settings: { rubric: record.councilRubric ?? record.rubric, ...record.settings, goal: record.goal },
        status: record.status,
        estimateUsd: record.estimateUsd,
        createdAt: record.createdAt,
      }),
    );
    // The shards set aside their own parts of the money; the parent keeps none.
    if (record.shards && record.holdId) this.d1.push(...this.shards.splitHold(record.holdId));
    try {
      await this.d1.flush();
    } catch (err) {
      this.record = null;
      await this.wipe("the evaluation could not be stored");
      throw err;
    }
    this.setStatus("running");
    if (record.shards && record.holdId) await this.shards.startAll(record.holdId, record.holdExpiresAt);
    this.startWork();
    return { ok: true, id: record.id, status: record.status };
  }

  // ---- RPC between a parent and its shards ----

  /** A shard's report, pushed as it changes (evaluation/parent-link.ts). */
  async takeShardReport(index: number, report: ShardReport): Promise<void> {
    if (this.record?.shards) await this.shards.reported(index, report);
  }

  /**
   * A provider answered 429 until `untilMs`: no new call to it starts in this room before then. A shard tells its
   * parent, which tells the other shards (`from` is the shard that met it), so the back-off holds over the whole
   * evaluation as it does in one room.
   */
  async backOff(provider: string, untilMs: number, from: number | null = null): Promise<void> {
    const r = this.record;
    if (!r) return;
    if (r.shards) return this.shards.backOff(provider, untilMs, from);
    this.scheduler?.backOff(provider, untilMs - Date.now());
    if (from === null) this.parent.backOff(provider, untilMs);
  }

  /** The parent's look at a shard: wakes it when it lost its alarm, and says where it stands. */
  async kick(): Promise<ShardReport | null> {
    if (!this.record) return null;
    await this.poke();
    return this.parent.report();
  }

  async detail(): Promise<EvaluationDetail | null> {
    return this.record && this.toDetail();
  }

  /** Stops starting calls; those under way finish and are kept. */
  async pause(): Promise<EvaluationResult> {
    const r = this.record;
    if (!r) return notFound();
    if (r.status !== "running" && r.status !== "queued")
      return conflict(`The evaluation is ${r.status}; only a running one can be paused.`);
    this.setStatus("paused");
    haltGoalBattles(r.id);
    await this.shards.fanOut((shard) => shard.pause());
    await this.d1.flush();
    return { ok: true, id: r.id, status: r.status };
  }

  async resume(): Promise<EvaluationResult> {
    const r = this.record;
    if (!r) return notFound();
    if (r.status !== "paused") return conflict(`The evaluation is ${r.status}; only a paused one can be resumed.`);
    // The money set aside lasts as long again from now: a pause must not let it lapse under the work left.
    r.holdExpiresAt = Date.now() + (r.holdExpiresAt - r.createdAt);
    this.resizeHold();
    this.setStatus("running");
    await this.shards.fanOut((shard) => shard.resume());
    this.startWork();
    return { ok: true, id: r.id, status: r.status };
  }

  /** Aborts the calls under way and makes no more; what finished stays. */
  async cancel(): Promise<EvaluationResult> {
    const r = this.record;
    if (!r) return notFound();
    if (isTerminal(r.status)) return conflict(`The evaluation is already ${r.status}; there is nothing to cancel.`);
    this.newGeneration();
    // Every shard ends (and D1 holds what it finished) before the parent does; the last shard's report may have
    // ended the parent meanwhile.
    await this.shards.fanOut((shard) => shard.cancel());
    if (isTerminal(r.status)) return { ok: true, id: r.id, status: r.status };
    this.store.cancelOpen();
    await this.ctx.storage.deleteAlarm();
    await this.finish("cancelled", "Cancelled before it finished; what finished is kept.");
    return { ok: true, id: r.id, status: r.status };
  }

  /** The most a retry of the failed calls could cost (their items' most), and how many calls it makes again. */
  async retryEstimate(): Promise<{ usd: number; calls: number; timeoutMs: number }> {
    if (!this.record) return { usd: 0, calls: 0, timeoutMs: 0 };
    if (this.record.shards) {
      const each = await this.shards.retryEstimate();
      const sum = (pick: (e: (typeof each)[number]) => number) => each.reduce((s, e) => s + pick(e), 0);
      return { usd: sum((e) => e.usd), calls: sum((e) => e.calls), timeoutMs: this.record.settings.timeoutMs };
    }
    const calls = this.store
      .counts()
      .filter((c) => c.status === "failed" || c.status === "blocked")
      .reduce((s, c) => s + c.n, 0);
    return { usd: this.failedItemsUsd(), calls, timeoutMs: this.record.settings.timeoutMs };
  }

  /** Makes the failed calls again, and the judge calls that waited on them. */
  async retry(holdId: string, holdExpiresAt: number): Promise<EvaluationResult> {
    const r = this.record;
    if (!r) return notFound();
    if (!isTerminal(r.status))
      return conflict(`The evaluation is still ${r.status}; wait until it ends, or cancel it.`);
    if (r.status === "cancelled") return conflict("The evaluation was cancelled; start a new one to go on.");
    if (r.shards) return this.retryShards(holdId, holdExpiresAt);
    const failed = this.store.reopenFailed();
    if (!failed.length) return conflict("No failed call to retry.");
    this.newGeneration();
    // What the failed calls paid stays in the day's spend after their rows are replaced.
    // (A goal battle keeps its own calls' spend.)
    const paid = failed.filter(
      (c) => c.kind !== "goal" && (c.cost_usd !== null || (c.tokens_in ?? 0) + (c.tokens_out ?? 0) > 0),
    );
    if (paid.length)
      this.d1.push(
        ...insertRows(
          this.env.DB,
          schema.spendEntries,
          paid.map((c) => ({
            kind: c.kind,
            itemId: r.id,
            modelId: c.kind === "judge" ? judgeModelOf(this.record!, c.model) : this.modelOf(c.model),
            tokensIn: c.tokens_in,
            tokensOut: c.tokens_out,
            costUsd: c.cost_usd,
            completedAt: c.completed_at ?? Date.now(),
          })),
        ),
      );
    return this.runAgain(holdId, holdExpiresAt);
  }

  // ---- the work: a slice of calls per step ----

  protected exists() {
    return this.record !== null;
  }

  protected snapshot() {
    return this.toDetail();
  }

  protected hasWork() {
    return this.record?.status === "running";
  }

  protected async step(generation: number) {
    const r = this.record!;
    if (r.shards) return this.shards.step(() => this.current(generation));
    const current = () => this.current(generation);
    // A step starts only when no other of this instance runs: calls still marked running were a retired step's
    // (the watchdog's resume), aborted without a result, so they are to make again.
    this.store.requeueRunning();
    this.pace ??= { since: Date.now(), finishedAtStart: this.finishedCalls() };
    const ctx: EvaluationContext = {
      env: this.env,
      record: r,
      store: this.store,
      rules: () => ({
        env: this.env,
        cancel: this.cancelSignal,
        policy: this.retryPolicy(),
        timeoutMs: r.settings.timeoutMs,
      }),
      current,
      settled: (row) => this.settled(row),
      backOff: (provider, ms) => this.backOff(provider, Date.now() + ms),
    };
    this.scheduler ??= new Scheduler(this.caps(), () => this.cancelSignal, this.slots);
    await this.scheduler.runSlice(ctx, () => current() && r.status === "running");
    if (!current()) return;
    await this.flushWrites();
    this.announceProgress(true);
    if (r.status !== "running") {
      this.pace = null;
      return;
    }
    if (this.store.liveCalls() === 0) {
      // A goal evaluation's battles are its answers.
      const answered = this.store
        .counts()
        .some((c) => (c.kind === "answer" || c.kind === "goal") && c.status === "done");
      if (!answered)
        return this.finish(
          "failed",
          `Every ${r.method === "goal" ? "battle" : "answer"} failed: see each failure's reason, fix it, then retry.`,
        );
      return this.finish("completed", this.failureSummary());
    }
    // The next slice: the alarm that ran this step returns, and this one starts the next.
    await this.ctx.storage.setAlarm(Date.now());
  }

  /** A slice's calls, each at most twice its timeout (a judge may be asked twice), in waves of the tightest cap. */
  protected stepBudgetMs() {
    const r = this.record!;
    // A parent's step asks each shard where it stands: an RPC each, within one call's timeout.
    if (r.shards) return r.settings.timeoutMs;
    const caps = this.caps();
    const tightest = Math.min(...this.store.pendingProviders().map((p) => roomProviderCap(caps, p)), SLICE_CALLS);
    return Math.ceil(SLICE_CALLS / Math.max(1, tightest)) * 2 * r.settings.timeoutMs;
  }

  /**
   * The watchdog gave up on a slice: what finished stays, every call not made fails with `reason`, and the
   * evaluation ends failed (a retry makes those calls again).
   */
  protected async stopStuck(reason: string) {
    this.store.failOpen(reason);
    // A parent's shards each have a watchdog of their own: the parent's stuck look ends nothing of theirs.
    if (this.record?.shards) return this.ctx.storage.setAlarm(Date.now() + SHARD_CHECK_MS);
    await this.finish("failed", reason);
  }

  /** A retry under way: the money set aside for it is the evaluation's now, and the work starts again. */
  private async runAgain(holdId: string, holdExpiresAt: number): Promise<EvaluationResult> {
    const r = this.record!;
    r.holdId = holdId;
    r.holdExpiresAt = holdExpiresAt;
    this.setStatus("running");
    await this.d1.flush();
    this.startWork();
    return { ok: true, id: r.id, status: r.status };
  }

  /** A parent's retry: each shard with failed calls makes them again, with its part of the money set aside. */
  private async retryShards(holdId: string, holdExpiresAt: number): Promise<EvaluationResult> {
    const took = await this.shards.retry(holdId, holdExpiresAt, async (writes) => {
      this.d1.push(...writes);
      await this.d1.flush();
    });
    if (!took) return conflict("No failed call to retry.");
    return this.runAgain(holdId, holdExpiresAt);
  }

  // ---- the pieces ----

  /** A call finished and is stored: queue its rows for D1, give back what its item no longer needs, announce. */
  private settled(row: CallRow) {
    const r = this.record!;
    this.d1.push(...callWrites(this.env.DB, r.id, this.store, row));
    if (!this.store.itemOpen(row.item)) this.resizeHold();
    if (row.status === "failed") {
      const failure: EvaluationFailure = {
        callId: row.id,
        kind: row.kind,
        itemId: this.store.item(row.item).item_id,
        model: row.model,
        error: row.error ?? "failed",
      };
      this.emit({ type: "evaluation.failure", failure });
      this.parent.failed(failure);
    }
    this.announceProgress(false);
  }

  /** The money set aside shrinks to what the items with calls left may still cost (a parent's shards hold it). */
  private resizeHold() {
    const r = this.record!;
    if (r.holdId && !r.shards)
      this.d1.push(resizeHoldWrite(this.env.DB, r.holdId, this.store.openItemsUsd(), r.holdExpiresAt));
  }

  private failedItemsUsd(): number {
    return (
      this.ctx.storage.sql
        .exec<{ usd: number | null }>(
          "SELECT sum(max_usd) AS usd FROM eval_items WHERE idx IN (SELECT DISTINCT item FROM eval_calls WHERE status IN ('failed', 'blocked'))",
        )
        .one().usd ?? 0
    );
  }

  private announceProgress(force: boolean) {
    const now = Date.now();
    if (!force && now - this.lastProgressAt < PROGRESS_EVERY_MS) {
      this.parent.later(this.lastProgressAt + PROGRESS_EVERY_MS - now, () => {
        if (this.record) this.announceProgress(true);
      });
      return;
    }
    this.lastProgressAt = now;
    this.emit({ type: "evaluation.progress", progress: this.progress() });
    this.parent.send();
  }

  /** Where the evaluation stands: this room's calls, or a parent's shards' added up. */
  private progress(): EvaluationProgress {
    const r = this.record!;
    return r.shards ? sumProgress(r, this.shards.states) : progressOf(r, this.store, this.pace);
  }

  /** Each provider's cap in this room: as fixed when it started, or (a room started before that was kept) the setting. */
  private caps(): ReadonlyMap<string, number> {
    const kept = this.record?.roomCaps;
    return kept ? new Map(Object.entries(kept)) : settings(this.env).providerConcurrency;
  }

  /** D1 holds every result finished so far once this returns; the calls are marked so. */
  private async flushWrites() {
    const upTo = this.store.lastSeq();
    await this.d1.flush();
    this.store.markWritten(upTo);
  }

  private unwrittenWrites() {
    const r = this.record;
    if (!r) return [];
    return this.store.unwritten().flatMap((row) => callWrites(this.env.DB, r.id, this.store, row));
  }

  private finishedCalls() {
    return this.store
      .counts()
      .filter((c) => c.status === "done" || c.status === "failed")
      .reduce((s, c) => s + c.n, 0);
  }

  private failureSummary(): string | null {
    const failed = this.store.counts().filter((c) => c.status === "failed" || c.status === "blocked");
    return failedCallsSummary(failed.reduce((s, c) => s + c.n, 0));
  }

  /** The model a call's contestant or reviewer calls (a council evaluation's reviewer may be a preset judge). */
  private modelOf(contestant: string) {
    return this.record!.contestants.find((c) => c.id === contestant)?.modelId ?? judgeModelOf(this.record!, contestant);
  }

  private save() {
    if (this.record) saveRecord(this.ctx.storage.kv, this.record);
  }

  private setStatus(status: EvaluationStatus, error: string | null = null) {
    const r = this.record!;
    r.status = status;
    r.error = error;
    this.save();
    // A shard's status is its parent's to write: D1 has one row for the evaluation.
    if (!r.shard)
      this.d1.push(
        evaluationStatusWrite(this.env.DB, r.id, status, error, this.progress().spentUsd, isTerminal(status)),
      );
    this.emit({ type: "evaluation.status", status, error });
    this.parent.send();
  }

  /** Ends the evaluation once D1 holds all of it, and settles the money set aside. */
  private async finish(status: EvaluationStatus, error: string | null) {
    const r = this.record!;
    const before = { status: r.status, error: r.error, holdId: r.holdId };
    if (r.holdId) this.d1.push(settleHoldsWrite(this.env.DB, [r.holdId]));
    Object.assign(r, { status, error, holdId: null });
    if (!r.shard) this.d1.push(evaluationStatusWrite(this.env.DB, r.id, status, error, this.progress().spentUsd, true));
    try {
      await this.flushWrites();
    } catch (err) {
      // Still under way for the alarm's retry, which ends it again once D1 takes it.
      Object.assign(r, before);
      throw err;
    }
    this.save();
    this.pace = null;
    this.emit({ type: "evaluation.status", status, error });
    this.announceProgress(true);
    await this.ctx.storage.deleteAlarm();
  }

  private toDetail(): EvaluationDetail {
    const r = this.record!;
    return {
      id: r.id,
      name: r.name,
      promptSetId: r.promptSetId,
      method: r.method,
      contestants: r.contestants.map((c) => ({ id: c.id, modelId: c.modelId, displayName: c.displayName })),
      judges: r.judges,
      baseline: r.baseline,
      repeats: r.repeats,
      items: r.items,
      status: r.status,
      error: r.error,
      estimateUsd: r.estimateUsd,
      createdAt: r.createdAt,
      progress: this.progress(),
    };
  }
}

/** The calls each item makes to each provider the evaluation calls (every item has the same calls). */
function callsPerItem(record: EvaluationRecord): Map<string, number> {
  const calls = new Map<string, number>();
  for (const c of plannedCalls(record, [{ id: "" }])) calls.set(c.provider, (calls.get(c.provider) ?? 0) + 1);
  return calls;
}

/** Every call of the evaluation, item by item (evaluation/plan.ts), with the provider each is made to. */
function* plannedCalls(record: EvaluationRecord, items: { id: string }[]): Generator<NewCall> {
  const modelOf = new Map(record.contestants.map((c) => [c.id, c.modelId]));
  for (const [idx, item] of items.entries()) {
    const planned = callsOfItem(record, item.id, idx);
    for (const a of planned.answers)
      yield {
        id: a.id,
        kind: "answer",
        item: idx,
        sample: a.sample,
        model: a.contestant,
        provider: providerOf(modelOf.get(a.contestant)!),
      };
    for (const j of planned.judges)
      yield {
        id: j.id,
        kind: "judge",
        item: idx,
        sample: j.sample,
        model: j.judge,
        provider: providerOf(judgeModelOf(record, j.judge)),
        first: j.first,
        second: j.second,
        deps: j.answers,
      };
    for (const v of planned.reviews)
      yield {
        id: v.id,
        kind: "review",
        item: idx,
        sample: v.sample,
        model: v.reviewer,
        provider: providerOf(modelOf.get(v.reviewer) ?? judgeModelOf(record, v.reviewer)),
        ...(v.ownAnswer ? { deps: [v.ownAnswer] as [string] } : {}),
      };
    for (const g of planned.goals)
      yield {
        id: g.id,
        kind: "goal",
        item: idx,
        sample: g.sample,
        model: g.first,
        provider: providerOf(modelOf.get(g.first)!),
        first: g.first,
        second: g.second,
      };
  }
}

const conflict = (message: string): EvaluationResult => refuse("conflict", message);
const notFound = (): EvaluationResult => refuse("not_found", "No evaluation with this id.", 404);
