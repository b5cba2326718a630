/**
 * RunRoom: one Durable Object per council run. It owns the run's lifecycle
 * (answering → reviewing → aggregation), keeps its progress in its own storage,
 * writes every finished step to D1, and streams events to WebSocket clients.
 * Work is driven by the alarm, one phase per alarm, so an evicted or restarted
 * room picks up where it stopped without repeating a finished provider call.
 */
import { DurableObject } from "cloudflare:workers";
import { clearEvaluation, insertRun, openDb, saveAnswer, saveReviewSet, updateRunStatus } from "../db/queries";
import type { RunEventBody } from "../shared/events";
import type { ModelParams, RunDetail, RunSettings, RunStatus } from "../shared/run";
import { EventLog } from "./event-log";
import { displayName, isBlind, isTerminal, toRunDetail, type AnswerRecord, type RunRecord } from "./record";
import { runAnswerPhase } from "./answer-phase";
import { runReviewPhase } from "./review-phase";
import type { RetryPolicy } from "./limits";
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

export class RunRoom extends DurableObject<Env> {
  private record: RunRecord | null = null;
  private readonly log: EventLog;
  /** bumped by cancel, retry and evaluate: work started under an older generation must not write */
  private generation = 0;
  private cancelController = new AbortController();
  /** the phase this instance is driving, if any */
  private phase: Promise<void> | null = null;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.log = new EventLog(ctx.storage.sql);
    ctx.setWebSocketAutoResponse(new WebSocketRequestResponsePair("ping", "pong"));
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
    };
    await insertRun(openDb(this.env.DB), record);
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
    await this.setStatus("answering");
    await this.ctx.storage.setAlarm(Date.now());
    return { ok: true, id: r.id, status: r.status };
  }

  /** Stops everything and forgets the run's live state; D1 rows are deleted by the route. */
  async destroy(): Promise<void> {
    this.newGeneration();
    for (const ws of this.ctx.getWebSockets()) ws.close(1000, "run deleted");
    await this.ctx.storage.deleteAlarm();
    await this.ctx.storage.deleteAll();
    this.record = null;
  }

  // ---- live events ----

  async fetch(request: Request): Promise<Response> {
    if (!this.record) return new Response("run not found", { status: 404 });
    const since = new URL(request.url).searchParams.get("since");
    const pair = new WebSocketPair();
    const [client, server] = [pair[0], pair[1]];
    this.ctx.acceptWebSocket(server);
    const replay = since === null ? null : this.log.after(Number(since));
    if (replay) for (const message of replay) server.send(message);
    else server.send(JSON.stringify({ type: "snapshot", seq: this.log.lastSeq, state: toRunDetail(this.record) }));
    return new Response(null, { status: 101, webSocket: client });
  }

  async webSocketMessage(): Promise<void> {
    // Clients only listen; "ping" is answered by the auto-response without waking the room.
  }

  async webSocketClose(ws: WebSocket, code: number): Promise<void> {
    ws.close(code === 1005 ? 1000 : code, "bye");
  }

  // ---- the work, one phase per alarm ----

  async alarm(): Promise<void> {
    // A phase cancelled or superseded a moment ago may still be unwinding: let it, then carry on.
    while (this.phase) await this.phase.catch(() => {});
    const r = this.record;
    if (!r || isTerminal(r.status)) return;
    const generation = this.generation;
    this.phase = (async () => {
      await this.armWatchdog();
      if (r.status === "pending" || r.status === "answering") await this.answerPhase(generation);
      else if (r.status === "reviewing") await this.reviewPhase(generation);
    })();
    try {
      await this.phase;
    } finally {
      this.phase = null;
    }
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
    if (outcome === "aggregated") await this.finish("done", null, true);
    else await this.finish("partial", "Every review failed, so there is no ranking. See the reviewers' errors, then evaluate again.");
  }

  private phaseContext(generation: number): PhaseContext {
    return {
      env: this.env,
      db: openDb(this.env.DB),
      record: this.record!,
      cancel: this.cancelController.signal,
      policy: this.retryPolicy(),
      current: () => this.current(generation),
      emit: (event: RunEventBody) => this.emit(event),
      save: () => this.save(),
      blind: () => isBlind(this.record!),
    };
  }

  // ---- state ----

  private current(generation: number) {
    return generation === this.generation && this.record !== null;
  }

  private newGeneration() {
    this.generation++;
    this.cancelController.abort(new Error("cancelled"));
    this.cancelController = new AbortController();
  }

  private save() {
    if (this.record) this.ctx.storage.kv.put(RECORD_KEY, this.record);
  }

  private emit(event: RunEventBody) {
    const message = this.log.append(event);
    for (const ws of this.ctx.getWebSockets()) {
      try {
        ws.send(message);
      } catch {
        // A socket that closed under us is cleaned up by the runtime.
      }
    }
  }

  private async setStatus(status: RunStatus) {
    const r = this.record!;
    r.status = status;
    r.error = null;
    this.save();
    await updateRunStatus(openDb(this.env.DB), r.id, status, null);
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

  private retryPolicy(): RetryPolicy {
    return {
      maxAttempts: Number(this.env.QUORUM_MAX_ATTEMPTS ?? 4) || 4,
      baseMs: Number(this.env.QUORUM_RETRY_BASE_MS ?? 500) || 500,
      maxDelayMs: 30_000,
    };
  }
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
