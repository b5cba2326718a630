/**
 * What every room shares: its numbered event log, sent to its connections (connections.ts: a snapshot
 * first, or a replay after `?since=`), a generation counter that retires superseded work, and work
 * driven by the alarm one step at a time, so an evicted or restarted room picks up where it stopped.
 *
 * The watchdog: each step gets a deadline (its own calls' timeouts plus QUORUM_WATCHDOG_SLACK_MS),
 * kept in storage. A step found unfinished past its deadline — hung in this instance, or left by one
 * that died — is retired (its calls aborted, its writes refused) and run again, once; past the second
 * deadline the room ends the run or comparison with what it has and says why. A step that ends on
 * its own is progress: the next step gets its own resume.
 */
import { DurableObject } from "cloudflare:workers";
import type { WatchdogEventBody } from "../shared/events";
import { Connections } from "./connections";
import { EventLog } from "./event-log";
import { formatMs, type RetryPolicy } from "./limits";
import { logError } from "./log";
import { settings } from "../shared/config";

export { SHARE_HEADER } from "./connections";

/** The step under way: its deadline, the whole allowance it was given, and how often the watchdog resumed it. */
export interface StepWatch {
  deadline: number;
  allowanceMs: number;
  resumes: number;
}

/** Where the room keeps its StepWatch (tests move the deadline to make it pass). */
export const STEP_WATCH_KEY = "watchdog";

/** How long after a step started by `startWork` fails it is tried again: the runtime's first retry of an alarm that threw. */
const RETRY_MS = 2_000;

interface Running {
  generation: number;
  done: Promise<void>;
}

/** A chunk of streamed text (answer.delta, side.delta, synthesis.delta): the log keeps these in memory only. */
const isDelta = (event: { type: string }) => event.type.endsWith(".delta");

export abstract class Room<Body extends { type: string }> extends DurableObject<Env> {
  protected readonly log: EventLog<Body | WatchdogEventBody>;
  private readonly connections: Connections;
  /** bumped whenever work in flight must stop writing (cancel, retry, delete, the watchdog) */
  private generation = 0;
  private cancelController = new AbortController();
  /** the step this instance is driving, if any */
  private running: Running | null = null;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.log = new EventLog<Body | WatchdogEventBody>(ctx.storage, isDelta);
    this.connections = new Connections(ctx);
  }

  /** True once the room holds a run or comparison. */
  protected abstract exists(): boolean;
  /** The whole state a new client starts from. */
  protected abstract snapshot(): unknown;
  /** True while there is work for the alarm to do. */
  protected abstract hasWork(): boolean;
  /** One step of work; it checks `current(generation)` after every await before writing. */
  protected abstract step(generation: number): Promise<void>;
  /** The longest the next step may take by its own calls' timeouts (the watchdog adds its slack). */
  protected abstract stepBudgetMs(): number;
  /**
   * The watchdog gave up on the step under way (already retired): end the run or comparison with what
   * it has, marking what was still pending as failed with `reason`. Runs under the new `generation`.
   */
  protected abstract stopStuck(reason: string, generation: number): Promise<void>;

  async fetch(request: Request): Promise<Response> {
    if (!this.exists()) return new Response("not found", { status: 404 });
    return this.connections.accept(request, (since) => {
      const replay = since === null ? null : this.log.after(since);
      return replay ?? [JSON.stringify({ type: "snapshot", seq: this.log.lastSeq, state: this.snapshot() })];
    });
  }

  /** Closes the sockets opened through a share link that was just revoked (their clients then find it gone). */
  async closeShared(shareId: string): Promise<void> {
    this.connections.closeShared(shareId);
  }

  async webSocketMessage(): Promise<void> {
    // Clients only listen; "ping" is answered by the auto-response without waking the room.
  }

  async webSocketClose(ws: WebSocket, code: number): Promise<void> {
    this.connections.closed(ws, code);
  }

  /**
   * Starts the next step and watches it until it ends or its deadline passes. Deployed alarms run one at
   * a time, so the alarm that started a step is also the one that notices it overrun.
   */
  async alarm(): Promise<void> {
    // A setting that doesn't parse stops every step here, naming it (ConfigInvalid): the runtime logs it and retries.
    settings(this.env);
    for (;;) {
      const run = this.running;
      if (run && run.generation !== this.generation) {
        // Cancelled or superseded a moment ago: its calls are aborted, so it unwinds at once. Never wait on it for good.
        await settlesWithin(
          run.done.catch(() => {}),
          this.watchdogSlackMs(),
        );
        if (this.running === run) this.running = null;
        continue;
      }
      if (!run) {
        if (!this.hasWork()) return void this.ctx.storage.kv.delete(STEP_WATCH_KEY);
        const watch = this.stepWatch();
        if (watch && Date.now() >= watch.deadline) await this.overdue(watch);
        else await this.begin(watch?.resumes ?? 0);
        if (!this.running) return;
        continue;
      }
      const deadline = this.stepWatch()?.deadline ?? Number.POSITIVE_INFINITY;
      if (await settlesWithin(run.done, deadline - Date.now())) {
        // A step that ended on its own made progress: the next one gets a resume of its own.
        if (run.generation === this.generation) {
          this.ctx.storage.kv.delete(STEP_WATCH_KEY);
          this.log.settle();
        }
        return;
      }
      // Another alarm (a test's, or one after a restart) may have dealt with it meanwhile.
      const watch = this.stepWatch();
      if (this.running === run && run.generation === this.generation && watch) await this.overdue(watch);
    }
  }

  /**
   * Starts the next step now, in this request, rather than when an alarm set for it is delivered: that
   * delivery is a round through the runtime's alarm scheduler, and a council run's first provider call
   * waited for it. The alarm set here stays until the step moves it to its own deadline, so work lost with
   * this instance is still picked up. A step that fails is tried again by the alarm after RETRY_MS, as the
   * runtime retries an alarm handler that threw (and from then on it does).
   */
  protected startWork(): void {
    void this.ctx.storage.setAlarm(Date.now());
    this.alarm().catch((err: unknown) => {
      // Logged as the runtime logs an alarm handler that threw.
      logError(`step failed, tried again in ${RETRY_MS / 1000} s:`, err);
      return this.ctx.storage.setAlarm(Date.now() + RETRY_MS);
    });
  }

  /** The cron sweep's nudge: unfinished work with no alarm (a lost one) gets one now. True when it did. */
  async poke(): Promise<boolean> {
    if (!this.exists() || !this.hasWork() || this.running) return false;
    if ((await this.ctx.storage.getAlarm()) !== null) return false;
    await this.ctx.storage.setAlarm(Date.now());
    return true;
  }

  /** Records the next step's deadline, arms the alarm for it, and starts the step. */
  private async begin(resumes: number): Promise<void> {
    const allowanceMs = this.stepBudgetMs() + this.watchdogSlackMs();
    const watch: StepWatch = { deadline: Date.now() + allowanceMs, allowanceMs, resumes };
    this.ctx.storage.kv.put(STEP_WATCH_KEY, watch);
    void this.ctx.storage.setAlarm(watch.deadline);
    this.log.reserve();
    const generation = this.generation;
    const run: Running = { generation, done: this.step(generation) };
    this.running = run;
    run.done
      .finally(() => {
        if (this.running === run) this.running = null;
      })
      .catch(() => {});
  }

  /** The step under way overran its deadline: retire it, then run it again once, or end the work. */
  private async overdue(watch: StepWatch): Promise<void> {
    this.newGeneration();
    this.running = null;
    const within = formatMs(watch.allowanceMs);
    if (watch.resumes >= 1) {
      const reason = `Stopped by the watchdog: no progress within ${within} after one resume.`;
      // Still overdue until the stop is written: should writing it fail, the alarm's retry stops it again.
      this.ctx.storage.kv.put(STEP_WATCH_KEY, watch);
      this.emit({ type: "watchdog", action: "stopped", message: reason });
      await this.stopStuck(reason, this.generation);
      this.ctx.storage.kv.delete(STEP_WATCH_KEY);
      return;
    }
    this.emit({
      type: "watchdog",
      action: "resumed",
      message: `No progress within ${within}: the watchdog resumed the unfinished work once.`,
    });
    await this.begin(watch.resumes + 1);
  }

  private stepWatch(): StepWatch | null {
    return this.ctx.storage.kv.get<StepWatch>(STEP_WATCH_KEY) ?? null;
  }

  private watchdogSlackMs(): number {
    return settings(this.env).watchdogSlackMs;
  }

  protected emit(event: Body | WatchdogEventBody): void {
    this.connections.broadcast(this.log.append(event));
  }

  protected current(generation: number): boolean {
    return generation === this.generation && this.exists();
  }

  /** Retires the work in flight: its calls are aborted and its writes refused; new work starts with a fresh deadline. */
  protected newGeneration(): void {
    this.generation++;
    this.cancelController.abort(new Error("cancelled"));
    this.cancelController = new AbortController();
    this.ctx.storage.kv.delete(STEP_WATCH_KEY);
  }

  protected get cancelSignal(): AbortSignal {
    return this.cancelController.signal;
  }

  /** Closes every socket, stops the alarm and forgets the room's storage. */
  protected async wipe(reason: string): Promise<void> {
    this.newGeneration();
    this.connections.closeAll(reason);
    await this.ctx.storage.deleteAlarm();
    await this.ctx.storage.deleteAll();
    this.log.forget();
  }

  protected retryPolicy(): RetryPolicy {
    return {
      ...settings(this.env).retry,
      maxDelayMs: 30_000,
    };
  }
}

/** True once `promise` settles (its rejection passes through), false when `ms` pass first. */
async function settlesWithin(promise: Promise<void>, ms: number): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), Math.max(0, Math.min(ms, 2 ** 31 - 1)));
  });
  try {
    return await Promise.race([promise.then(() => true as const), late]);
  } finally {
    clearTimeout(timer);
  }
}
