/**
 * RunRoom: one Durable Object per council run. It owns the run's lifecycle
 * (answering → reviewing → aggregation), keeps its progress in its own storage,
 * writes every finished step to D1, and streams events to WebSocket clients.
 * Work is driven by the alarm, one phase per alarm, so an evicted or restarted
 * room picks up where it stopped without repeating a finished provider call.
 */
import { clearEvaluation, insertRun, openDb, saveAnswer, saveReviewSet, saveSynthesis, updateRunStatus } from "../db/queries";
import type { RunEventBody } from "../shared/events";
import type { ModelParams, RunDetail, RunSettings, RunStatus } from "../shared/run";
import { Room } from "./room";
import { displayName, isBlind, isTerminal, toRunDetail, type AnswerRecord, type RunRecord, type SynthesisRecord } from "./record";
import { runAnswerPhase } from "./answer-phase";
import { runReviewPhase } from "./review-phase";
import { runSynthesisPhase } from "./synthesis-phase";
import type { PhaseContext } from "./phase-context";

export interface StartRun {
  id: string;
  question: string;
  models: { id: string; params?: ModelParams }[];
  settings: RunSettings;
}

export type RoomResult = { ok: true; id: string; status: RunStatus } | { ok: false; code: "not_found" | "conflict"; message: string };

const RECORD_KEY = "record";
/** how long past a phase's own deadline the watchdog alarm waits before resuming a phase that died with its instance */
const WATCHDOG_SLACK_MS = 30_000;

export class RunRoom extends Room<RunEventBody> {
  private record: RunRecord | null = null;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    ctx.blockConcurrencyWhile(async () => {
      this.record = ctx.storage.kv.get<RunRecord>(RECORD_KEY) ?? null;
      if (this.record && !isTerminal(this.record.status)) {
        // A new instance of an unfinished run means the one driving it is gone (eviction, restart): resume now.
        await ctx.storage.setAlarm(Date.now());
      }
    });
  }

  // ---- RPC, called by the Worker's routes ----

  async start(init: StartRun): Promise<RoomResult> {
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
    };
    await insertRun(openDb(this.env.DB), record);
    if (record.synthesis) await saveSynthesis(openDb(this.env.DB), record.id, record.synthesis);
    this.record = record;
    this.save();
    await this.ctx.storage.setAlarm(Date.now());
    return { ok: true, id: record.id, status: record.status };
  }

  async detail(): Promise<RunDetail | null> {
    return this.record && toRunDetail(this.record);
  }

  async cancel(): Promise<RoomResult> {
    const r = this.record;
    if (!r) return notFound();
    if (isTerminal(r.status)) return { ok: false, code: "conflict", message: `The run is already ${r.status}; there is nothing to cancel.` };
    this.newGeneration();
    const db = openDb(this.env.DB);
    const cancelled = { status: "cancelled", error: "Cancelled before it finished." } as const;
    for (const a of r.answers.filter((a) => a.status === "pending" || a.status === "streaming")) {
      Object.assign(a, cancelled);
      await saveAnswer(db, r.id, a);
    }
    for (const s of r.reviewSets.filter((s) => s.status === "pending" || s.status === "running")) {
      Object.assign(s, cancelled);
      await saveReviewSet(db, r.id, s);
    }
    if (r.synthesis && (r.synthesis.status === "pending" || r.synthesis.status === "streaming")) {
      Object.assign(r.synthesis, cancelled);
      await saveSynthesis(db, r.id, r.synthesis);
    }
    await this.ctx.storage.deleteAlarm();
    await this.finish("cancelled", null);
    return { ok: true, id: r.id, status: r.status };
  }

  /** Starts (or restarts) cross-review and aggregation over the answers that succeeded. */
  async evaluate(): Promise<RoomResult> {
    const r = this.record;
    if (!r) return notFound();
    if (r.status === "answering" || r.status === "reviewing" || r.status === "pending")
      return { ok: false, code: "conflict", message: `The run is still ${r.status}; wait until it ends, or cancel it first.` };
    if (!r.answers.some((a) => a.status === "done")) return { ok: false, code: "conflict", message: "No answer succeeded, so there is nothing to review. Retry the failed answers first." };
    this.newGeneration();
    r.reviewSets = [];
    r.aggregation = null;
    await this.resetSynthesis();
    await this.setStatus("reviewing");
    await this.ctx.storage.setAlarm(Date.now());
    return { ok: true, id: r.id, status: r.status };
  }

  /** Asks the failed (or the named) models again; evaluation follows when the run auto-evaluates. */
  async retryAnswers(modelIds?: string[]): Promise<RoomResult> {
    const r = this.record;
    if (!r) return notFound();
    if (!isTerminal(r.status)) return { ok: false, code: "conflict", message: `The run is still ${r.status}; wait until it ends, or cancel it first.` };
    const unknown = (modelIds ?? []).filter((id) => !r.answers.some((a) => a.modelId === id));
    if (unknown.length) return { ok: false, code: "not_found", message: `Not part of this run: ${unknown.join(", ")}.` };
    const chosen = r.answers.filter((a) => (modelIds ? modelIds.includes(a.modelId) : a.status === "failed" || a.status === "cancelled"));
    if (!chosen.length) return { ok: false, code: "conflict", message: "No failed answer to retry." };
    this.newGeneration();
    const db = openDb(this.env.DB);
    // The old ranking no longer describes the answers: it goes now, not when the next one is ready.
    await clearEvaluation(db, r.id);
    for (const a of chosen) {
      Object.assign(a, newAnswer(a.id, a.label, a.modelId, a.params));
      await saveAnswer(db, r.id, a);
    }
    r.reviewSets = [];
    r.aggregation = null;
    await this.resetSynthesis();
    await this.setStatus("answering");
    await this.ctx.storage.setAlarm(Date.now());
    return { ok: true, id: r.id, status: r.status };
  }

  /** Stops everything and forgets the run's live state; D1 rows are deleted by the route. */
  async destroy(): Promise<void> {
    await this.wipe("run deleted");
    this.record = null;
  }

  // ---- the work, one phase per alarm ----

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
    await this.armWatchdog();
    if (r.status === "pending" || r.status === "answering") await this.answerPhase(generation);
    else if (r.status === "reviewing") await this.reviewPhase(generation);
    else if (r.status === "synthesizing") await this.synthesisPhase(generation);
  }

  private async answerPhase(generation: number) {
    const r = this.record!;
    if (r.status === "pending") await this.setStatus("answering");
    await runAnswerPhase(this.phaseContext(generation));
    if (!this.current(generation)) return;
    const succeeded = r.answers.filter((a) => a.status === "done");
    if (!succeeded.length) return this.finish("failed", "Every model failed to answer. See each answer's error, fix the cause, then retry.");
    if (!r.settings.autoEvaluate) return this.finish("partial", null);
    await this.setStatus("reviewing");
    await this.ctx.storage.setAlarm(Date.now());
  }

  private async reviewPhase(generation: number) {
    const outcome = await runReviewPhase(this.phaseContext(generation));
    if (!this.current(generation)) return;
    if (outcome === "aggregated" && this.record!.synthesis) {
      // D1 already says "synthesizing": it was written with the aggregation.
      await this.setStatus("synthesizing", false);
      await this.ctx.storage.setAlarm(Date.now());
    } else if (outcome === "aggregated") await this.finish("done", null, true);
    else await this.finish("partial", "Every review failed, so there is no ranking. See the reviewers' errors, then evaluate again.");
  }

  private async synthesisPhase(generation: number) {
    await runSynthesisPhase(this.phaseContext(generation));
    // A failed synthesis leaves the ranking standing: the run is done, the synthesis says why it failed.
    if (this.current(generation)) await this.finish("done", null);
  }

  private async resetSynthesis() {
    const r = this.record!;
    if (!r.synthesis) return;
    r.synthesis = newSynthesis(r.synthesis.modelId);
    await saveSynthesis(openDb(this.env.DB), r.id, r.synthesis);
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
      blind: () => isBlind(this.record!),
    };
  }

  // ---- state ----

  private save() {
    if (this.record) this.ctx.storage.kv.put(RECORD_KEY, this.record);
  }

  private async setStatus(status: RunStatus, writeD1 = true) {
    const r = this.record!;
    r.status = status;
    r.error = null;
    this.save();
    if (writeD1) await updateRunStatus(openDb(this.env.DB), r.id, status, null);
    this.emit({ type: "run.status", status });
  }

  /** Ends the run; D1 already holds the aggregation when `aggregated`. */
  private async finish(status: RunStatus, error: string | null, aggregated = false) {
    const r = this.record!;
    r.status = status;
    r.error = error;
    this.save();
    if (!aggregated) await updateRunStatus(openDb(this.env.DB), r.id, status, error);
    const reveal = r.answers.map((a) => ({ answerId: a.id, label: a.label, modelId: a.modelId, displayName: displayName(a.modelId) }));
    if (status === "failed") this.emit({ type: "run.failed", error: error ?? "the run failed", reveal });
    else if (status === "cancelled") this.emit({ type: "run.cancelled", reveal });
    else this.emit({ type: "run.completed", status, reveal });
    await this.ctx.storage.deleteAlarm();
  }

  private async armWatchdog() {
    const r = this.record!;
    const waves = Math.ceil(r.answers.length / Math.max(1, r.settings.concurrency));
    await this.ctx.storage.setAlarm(Date.now() + waves * r.settings.timeoutMs + WATCHDOG_SLACK_MS);
  }
}

function newSynthesis(modelId: string): SynthesisRecord {
  return { modelId, status: "pending", text: "", latencyMs: null, tokensIn: null, tokensOut: null, costUsd: null, error: null, truncated: false };
}

function newAnswer(id: string, label: string, modelId: string, params: ModelParams | null): AnswerRecord {
  return {
    id,
    label,
    modelId,
    params,
    status: "pending",
    text: "",
    latencyMs: null,
    tokensIn: null,
    tokensOut: null,
    costUsd: null,
    error: null,
    truncated: false,
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

const notFound = (): RoomResult => ({ ok: false, code: "not_found", message: "No run with this id." });
