/**
 * RunRoom: one Durable Object per council run. It owns the run's lifecycle
 * (answering → reviewing → aggregation), keeps its progress in its own storage,
 * writes every finished step to D1 (queued, off the provider calls' path, all of
 * it in D1 before the run ends), and streams events to WebSocket clients. Work is
 * driven by the alarm, the phases one after another, so an evicted or restarted
 * room picks up where it stopped without repeating a finished provider call.
 */

import { finalReason } from "../arena/archive-policy";
import {
  answerWrite,
  evaluationClears,
  judgeBattleWrites,
  openDb,
  reviewSetWrites,
  runInsertWrites,
  runStatusWrite,
  synthesisWrite,
  wholeRunWrites,
} from "../db/queries";
import { addMeters, type CallTargets, type Meter } from "../db/records";
import { revealHoldsWrite, settleHoldsWrite } from "../db/spend-queries";
import { displayName } from "../providers/registry";
import type { RunEventBody } from "../shared/events";
import type { ModelParams, RunDetail, RunSettings, RunStatus } from "../shared/run";
import { runAnswerPhase } from "./answer-phase";
import { takeHold } from "./holds";
import type { PhaseContext } from "./phase-context";
import {
  type AnswerRecord,
  isBlind,
  isTerminal,
  type RunRecord,
  type SynthesisRecord,
  toRunDetail,
  unblindedOf,
} from "./record";
import { battlesToWriteNow, judgeBattles, runReviewPhase } from "./review-phase";
import { Room } from "./room";
import { type RoomResult, refuse } from "./room-result";
import { loadRun, saveRun } from "./run-storage";
import { pendingReply } from "./stream-and-settle";
import { runSynthesisPhase } from "./synthesis-phase";
import { WriteQueue } from "./write-queue";

export interface StartRun {
  id: string;
  question: string;
  models: { id: string; params?: ModelParams }[];
  settings: RunSettings;
  /** what the run's presets call (api/contestants.ts) */
  targets?: CallTargets;
  /** the money set aside for the run's calls (api/spend.ts), settled when the run ends */
  holdId?: string;
}

export type RunResult = RoomResult<{ id: string; status: RunStatus }>;

export class RunRoom extends Room<RunEventBody> {
  private record: RunRecord | null = null;
  /** D1 writes, in order and off the provider calls' path; the run's end (and every RPC) waits for them */
  private readonly d1: WriteQueue;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.d1 = new WriteQueue(env.DB, () =>
      this.record ? wholeRunWrites(env.DB, this.record, battlesToWriteNow(this.record)) : [],
    );
    ctx.blockConcurrencyWhile(async () => {
      this.record = loadRun(ctx.storage.kv);
      if (this.record && !isTerminal(this.record.status)) {
        // A new instance of an unfinished run means the one driving it is gone (eviction, restart): resume now,
        // after writing its whole state to D1 again (the old instance may have died with writes queued).
        this.d1.resync();
        await ctx.storage.setAlarm(Date.now());
      }
    });
  }

  // ---- RPC, called by the Worker's routes ----

  async start(init: StartRun): Promise<RunResult> {
    if (this.record) return { ok: true, id: this.record.id, status: this.record.status };
    const labels = shuffledLabels(init.models.length);
    const record: RunRecord = {
      id: init.id,
      createdAt: Date.now(),
      question: init.question,
      settings: init.settings,
      models: init.models,
      status: "pending",
      error: null,
      answers: init.models
        .map((m, i) => newAnswer(`${init.id}-${labels[i]}`, labels[i], m.id, m.params ?? null))
        .sort((a, b) => a.label.localeCompare(b.label)),
      reviewSets: [],
      aggregation: null,
      synthesis: init.settings.synthesis ? newSynthesis(init.settings.synthesis.modelId) : null,
      holds: init.holdId ? [init.holdId] : [],
      ...(init.targets && Object.keys(init.targets).length ? { targets: init.targets } : {}),
    };
    const d1 = this.env.DB;
    this.record = record;
    this.save();
    this.d1.push(
      ...runInsertWrites(d1, record),
      ...(record.synthesis ? [synthesisWrite(d1, record.id, record.synthesis)] : []),
    );
    // The first calls may start while the run's rows are still being written: whatever they write queues behind them.
    this.startWork();
    try {
      // The route answers once D1 knows the run (every other route looks it up there).
      await this.d1.flush();
    } catch (err) {
      this.record = null;
      await this.wipe("the run could not be stored");
      throw err;
    }
    return { ok: true, id: record.id, status: record.status };
  }

  async detail(): Promise<RunDetail | null> {
    return this.record && toRunDetail(this.record);
  }

  async cancel(): Promise<RunResult> {
    const r = this.record;
    if (!r) return notFound();
    if (isTerminal(r.status)) return conflict(`The run is already ${r.status}; there is nothing to cancel.`);
    this.newGeneration();
    const d1 = this.env.DB;
    const cancelled = { status: "cancelled", error: "Cancelled before it finished." } as const;
    for (const a of r.answers.filter((a) => a.status === "pending" || a.status === "streaming")) {
      Object.assign(a, cancelled);
      this.d1.push(answerWrite(d1, r.id, a));
    }
    for (const s of r.reviewSets.filter((s) => s.status === "pending" || s.status === "running")) {
      Object.assign(s, cancelled);
      this.d1.push(...reviewSetWrites(d1, r.id, s));
    }
    if (r.synthesis && (r.synthesis.status === "pending" || r.synthesis.status === "streaming")) {
      Object.assign(r.synthesis, cancelled);
      this.d1.push(synthesisWrite(d1, r.id, r.synthesis));
    }
    await this.ctx.storage.deleteAlarm();
    await this.finish("cancelled", null);
    return { ok: true, id: r.id, status: r.status };
  }

  /** Starts (or restarts) cross-review and aggregation over the answers that succeeded. */
  async evaluate(holdId?: string): Promise<RunResult> {
    const r = this.record;
    if (!r) return notFound();
    if (r.status === "answering" || r.status === "reviewing" || r.status === "pending")
      return conflict(`The run is still ${r.status}; wait until it ends, or cancel it first.`);
    if (!r.answers.some((a) => a.status === "done"))
      return conflict("No answer succeeded, so there is nothing to review. Retry the failed answers first.");
    const final = this.finalRanking();
    if (final) return final;
    this.newGeneration();
    takeHold(r, holdId);
    this.keepEarlier(r.reviewSets);
    r.reviewSets = [];
    r.aggregation = null;
    this.resetSynthesis();
    this.setStatus("reviewing");
    await this.d1.flush();
    this.startWork();
    return { ok: true, id: r.id, status: r.status };
  }

  /** A ranking whose judge battles may be archived can't be replaced: its battles can no longer be taken out. */
  private finalRanking(): RunResult | null {
    const r = this.record!;
    const final = r.aggregation && finalReason(this.env, r.createdAt, "This run");
    return final ? conflict(final) : null;
  }

  /** Asks the failed (or the named) models again; evaluation follows when the run auto-evaluates. */
  async retryAnswers(modelIds?: string[], holdId?: string): Promise<RunResult> {
    const r = this.record;
    if (!r) return notFound();
    if (!isTerminal(r.status)) return conflict(`The run is still ${r.status}; wait until it ends, or cancel it first.`);
    const unknown = (modelIds ?? []).filter((id) => !r.answers.some((a) => a.modelId === id));
    if (unknown.length) return refuse("not_found", `Not part of this run: ${unknown.join(", ")}.`, 404);
    const chosen = r.answers.filter((a) =>
      modelIds ? modelIds.includes(a.modelId) : a.status === "failed" || a.status === "cancelled",
    );
    if (!chosen.length) return conflict("No failed answer to retry.");
    const final = this.finalRanking();
    if (final) return final;
    this.newGeneration();
    takeHold(r, holdId);
    const d1 = this.env.DB;
    // The old ranking no longer describes the answers: it goes now, not when the next one is ready.
    this.d1.push(...evaluationClears(d1, r.id));
    this.keepEarlier([...chosen, ...r.reviewSets]);
    for (const a of chosen) {
      Object.assign(a, newAnswer(a.id, a.label, a.modelId, a.params));
      this.d1.push(answerWrite(d1, r.id, a));
    }
    r.reviewSets = [];
    r.aggregation = null;
    this.resetSynthesis();
    this.setStatus("answering");
    await this.d1.flush();
    this.startWork();
    return { ok: true, id: r.id, status: r.status };
  }

  /** Stops everything and forgets the run's live state; D1 rows are deleted by the route. */
  async destroy(): Promise<void> {
    this.d1.discard();
    // What was paid stays in the day's spend (migrations/0006's triggers); nothing more is set aside for it.
    const holds = this.record?.holds ?? [];
    if (holds.length && this.record)
      await this.env.DB.batch([settleHoldsWrite(this.env.DB, holds), revealHoldsWrite(this.env.DB, this.record.id)]);
    await this.wipe("run deleted");
    this.record = null;
  }

  // ---- the work: answers, reviews, synthesis, one after another in one alarm ----

  protected exists() {
    return this.record !== null;
  }

  protected snapshot() {
    return toRunDetail(this.record!);
  }

  protected hasWork() {
    return this.record !== null && !isTerminal(this.record.status);
  }

  protected async step(generation: number) {
    const r = this.record!;
    if (r.status === "pending" || r.status === "answering") await this.answerPhase(generation);
    else if (r.status === "reviewing") await this.reviewPhase(generation);
    else if (r.status === "synthesizing") await this.synthesisPhase(generation);
  }

  private async answerPhase(generation: number) {
    const r = this.record!;
    if (r.status === "pending") this.setStatus("answering");
    await runAnswerPhase(this.phaseContext(generation));
    if (!this.current(generation)) return;
    const succeeded = r.answers.filter((a) => a.status === "done");
    if (!succeeded.length)
      return this.finish("failed", "Every model failed to answer. See each answer's error, fix the cause, then retry.");
    if (!r.settings.autoEvaluate) return this.finish("partial", null);
    this.setStatus("reviewing");
    // The reviews follow in this same step (stepBudgetMs counts them): a new alarm only added its scheduling to every run.
    await this.reviewPhase(generation);
  }

  private async reviewPhase(generation: number) {
    const outcome = await runReviewPhase(this.phaseContext(generation));
    if (!this.current(generation)) return;
    if (outcome === "aggregated" && this.record!.synthesis) {
      // D1 says "synthesizing" with the aggregation; the synthesis follows in this same step.
      this.setStatus("synthesizing", false);
      await this.synthesisPhase(generation);
    } else if (outcome === "aggregated") await this.finish("done", null, true);
    else
      await this.finish(
        "partial",
        "Every review failed, so there is no ranking. See the reviewers' errors, then evaluate again.",
      );
  }

  private async synthesisPhase(generation: number) {
    await runSynthesisPhase(this.phaseContext(generation));
    // A failed synthesis leaves the ranking standing: the run is done, the synthesis says why it failed.
    if (this.current(generation)) await this.finish("done", null);
  }

  /**
   * Calls about to be replaced were paid for all the same: they stay in the run's totals (and in D1's
   * spend_entries, by the triggers of migrations/0010, for a run read back from D1).
   */
  private keepEarlier(calls: (Meter & { status: string })[]) {
    const r = this.record!;
    const paid = calls.filter(
      (c) =>
        (c.status === "done" || c.status === "failed") &&
        ((c.tokensIn ?? 0) + (c.tokensOut ?? 0) > 0 || (c.costUsd ?? 0) > 0),
    );
    if (paid.length) r.earlier = addMeters([...(r.earlier ? [r.earlier] : []), ...paid]);
  }

  private resetSynthesis() {
    const r = this.record!;
    if (!r.synthesis) return;
    this.keepEarlier([r.synthesis]);
    r.synthesis = newSynthesis(r.synthesis.modelId);
    this.d1.push(synthesisWrite(this.env.DB, r.id, r.synthesis));
  }

  private phaseContext(generation: number): PhaseContext {
    return {
      env: this.env,
      db: openDb(this.env.DB),
      record: this.record!,
      cancel: this.cancelSignal,
      policy: this.retryPolicy(),
      current: () => this.current(generation),
      emit: (event: RunEventBody) => this.emit(event),
      save: () => this.save(),
      write: (...writes) => this.d1.push(...writes),
      blind: () => isBlind(this.record!),
    };
  }

  // ---- state ----

  private save() {
    if (this.record) saveRun(this.ctx.storage.kv, this.record);
  }

  /** The new status, announced at once; its D1 write queues behind every earlier one. */
  private setStatus(status: RunStatus, writeD1 = true) {
    const r = this.record!;
    r.status = status;
    r.error = null;
    this.save();
    if (writeD1) this.d1.push(runStatusWrite(this.env.DB, r.id, status, null));
    this.emit({ type: "run.status", status, earlier: r.earlier ?? null });
  }

  /**
   * Ends the run once D1 holds all of it (clients read a finished run from D1); the aggregation's batch
   * carries the status when `aggregated`. Should D1 fail, the run stays unfinished for the alarm to retry.
   */
  private async finish(status: RunStatus, error: string | null, aggregated = false) {
    const r = this.record!;
    const before = { status: r.status, error: r.error };
    r.status = status;
    r.error = error;
    if (!aggregated) this.d1.push(runStatusWrite(this.env.DB, r.id, status, error));
    // The work set aside for is over (its calls' rows are queued ahead), and a blind run's costs may show now.
    const holds = [...r.holds];
    this.d1.push(...(holds.length ? [settleHoldsWrite(this.env.DB, holds)] : []), revealHoldsWrite(this.env.DB, r.id));
    // The judge battles a blind run kept back while it synthesized (battlesToWriteNow).
    if (r.aggregation && r.synthesis && r.settings.blind)
      this.d1.push(...judgeBattleWrites(this.env.DB, r.id, judgeBattles(r)));
    try {
      await this.d1.flush();
    } catch (err) {
      Object.assign(r, before);
      throw err;
    }
    // A request taken while D1 wrote (a new evaluation) keeps its own hold open.
    r.holds = r.holds.filter((id) => !holds.includes(id));
    this.save();
    const reveal = r.answers.map((a) => ({
      answerId: a.id,
      label: a.label,
      modelId: a.modelId,
      displayName: displayName(a.modelId),
    }));
    const unblinded = r.settings.blind ? unblindedOf(r) : undefined;
    if (status === "failed") this.emit({ type: "run.failed", error: error ?? "the run failed", reveal, unblinded });
    else if (status === "cancelled") this.emit({ type: "run.cancelled", reveal, unblinded });
    else this.emit({ type: "run.completed", status, reveal, unblinded });
    await this.ctx.storage.deleteAlarm();
  }

  /**
   * A phase runs its calls in waves of `concurrency`; a review may be asked twice (invalid output). A step
   * goes on from the answers to the reviews and the synthesis without a new alarm, so its budget counts them.
   */
  protected stepBudgetMs() {
    const r = this.record!;
    const waves = (calls: number) => Math.max(1, Math.ceil(calls / Math.max(1, r.settings.concurrency)));
    const synthesis = r.synthesis ? r.settings.timeoutMs : 0;
    const reviewers = r.reviewSets.length || (r.settings.reviewers ?? r.answers).length;
    const reviews = waves(reviewers) * 2 * r.settings.timeoutMs + synthesis;
    if (r.status === "reviewing") return reviews;
    if (r.status === "synthesizing") return r.settings.timeoutMs;
    const answers =
      waves(r.answers.filter((a) => a.status === "pending" || a.status === "streaming").length) * r.settings.timeoutMs;
    return answers + (r.settings.autoEvaluate ? reviews : 0);
  }

  /**
   * The watchdog gave up: what finished stays, what was under way fails with `reason`. Reviews that came
   * back still rank the answers; a run stopped while answering is partial (or failed, with no answer).
   */
  protected async stopStuck(reason: string, generation: number) {
    const r = this.record!;
    const d1 = this.env.DB;
    const modelId = (id: string) => (isBlind(r) ? null : id);
    const stuck = <T extends { status: string }>(items: T[], live: string[]) =>
      items.filter((x) => live.includes(x.status));
    for (const a of stuck(r.answers, ["pending", "streaming"])) {
      Object.assign(a, { status: "failed", error: reason, errorKind: "watchdog", truncated: a.text.trim().length > 0 });
      this.save();
      this.d1.push(answerWrite(d1, r.id, a));
      this.emit({
        type: "answer.failed",
        answerId: a.id,
        label: a.label,
        modelId: modelId(a.modelId),
        error: reason,
        text: a.text,
        latencyMs: a.latencyMs ?? 0,
      });
    }
    for (const s of stuck(r.reviewSets, ["pending", "running"])) {
      Object.assign(s, { status: "failed", error: reason, errorKind: "watchdog" });
      this.save();
      this.d1.push(...reviewSetWrites(d1, r.id, s));
      const reviewerLabel = r.answers.find((a) => a.id === s.reviewerAnswerId)?.label ?? null;
      const { rawOutput, latencyMs, tokensIn, tokensOut, costUsd } = s;
      const cost = isBlind(r) ? null : costUsd;
      this.emit({
        type: "review.failed",
        reviewSetId: s.id,
        reviewerLabel,
        reviewerModelId: modelId(s.reviewerModelId),
        error: reason,
        rawOutput,
        latencyMs,
        tokensIn,
        tokensOut,
        costUsd: cost,
      });
    }
    const synthesis = r.synthesis;
    if (synthesis && (synthesis.status === "pending" || synthesis.status === "streaming")) {
      Object.assign(synthesis, { status: "failed", error: reason, truncated: synthesis.text.trim().length > 0 });
      this.save();
      this.d1.push(synthesisWrite(d1, r.id, synthesis));
      this.emit({ type: "synthesis.failed", error: reason, text: synthesis.text, latencyMs: synthesis.latencyMs ?? 0 });
    }
    if (r.status === "reviewing" && r.reviewSets.length) {
      // Every review is settled now, so this only counts the ballots that came back: no provider call.
      const outcome = await runReviewPhase(this.phaseContext(generation));
      if (!this.current(generation)) return;
      return this.finish(outcome === "aggregated" ? "done" : "partial", reason);
    }
    if (r.status === "synthesizing") return this.finish("done", reason);
    return this.finish(r.answers.some((a) => a.status === "done") ? "partial" : "failed", reason);
  }
}

function newSynthesis(modelId: string): SynthesisRecord {
  return { modelId, ...pendingReply() };
}

function newAnswer(id: string, label: string, modelId: string, params: ModelParams | null): AnswerRecord {
  return {
    id,
    label,
    modelId,
    params,
    ...pendingReply(),
    finishReason: null,
    attempts: 0,
    droppedParams: [],
  };
}

/** A, B, C… dealt to the models in random order, so a label says nothing about who wrote it. */
export function shuffledLabels(n: number): string[] {
  const labels = Array.from({ length: n }, (_, i) => String.fromCharCode(65 + i));
  const random = new Uint32Array(n);
  crypto.getRandomValues(random);
  for (let i = n - 1; i > 0; i--) {
    const j = random[i] % (i + 1);
    [labels[i], labels[j]] = [labels[j], labels[i]];
  }
  return labels;
}

const conflict = (message: string) => refuse("conflict", message);
const notFound = (): RunResult => refuse("not_found", "No run with this id.", 404);
