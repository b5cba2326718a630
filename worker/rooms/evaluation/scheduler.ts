/**
 * Which evaluation calls run when. Each provider has its own cap (QUORUM_PROVIDER_CONCURRENCY), and the room as
 * a whole keeps at most six calls in flight (evaluation/concurrency.ts: a deployed Worker invocation's outbound
 * connections). Answers go first; a judge call starts as soon as both its answers exist, a council review as soon
 * as every answer of its round has ended. A 429 holds back every
 * new call to that provider for as long as the provider asked (shared across the room). One step runs a slice
 * of calls and then lets the alarm start the next, so each step has a deadline the watchdog can hold it to.
 */
import { providerCap, ROOM_MAX_IN_FLIGHT } from "../../evaluation/concurrency";
import type { CallRow, CallStore } from "./call-store";
import type { EvaluationContext } from "./context";
import { makeAnswerCall, makeJudgeCall } from "./calls";
import { makeGoalCall } from "./goal-call";
import { makeReviewCall } from "./review-call";

/** Calls one step starts at most. */
export const SLICE_CALLS = 240;
/** Ready calls read from storage at once per provider, so a slot that comes free rarely waits on a query. */
const READ_AHEAD = 32;

type InFlight = Map<string, { provider: string; done: Promise<void> }>;

export class Scheduler {
  /** per provider: when new calls to it may start again after a 429 */
  private readonly backoffUntil = new Map<string, number>();

  constructor(
    private readonly caps: ReadonlyMap<string, number>,
    private readonly cancel: () => AbortSignal,
  ) {}

  backOff(provider: string, ms: number): void {
    this.backoffUntil.set(provider, Math.max(this.backoffUntil.get(provider) ?? 0, Date.now() + ms));
  }

  /**
   * Runs calls until `SLICE_CALLS` have started (or none is ready) and every call started has ended. `accepting`
   * turning false (a pause) stops new calls; those under way finish and are kept. Returns how many started.
   * A call that ends is stored first, then its slot is filled again, and only then is it written and announced
   * (`ctx.settled`): the next provider call never waits on the last one's bookkeeping.
   */
  async runSlice(ctx: EvaluationContext, accepting: () => boolean): Promise<number> {
    const inFlight: InFlight = new Map();
    const ready = new ReadyCalls(ctx.store);
    let started = 0;
    const fill = () => {
      if (!ctx.current() || !accepting() || started >= SLICE_CALLS) return;
      for (const call of this.pick(ctx, inFlight, ready, SLICE_CALLS - started)) {
        started++;
        ctx.store.markRunning(call);
        const done = this.make(ctx, call).then(
          (row) => {
            inFlight.delete(call.id);
            // A judge call waits on answers: once one ends, calls not ready before may be now.
            if (row?.kind === "answer") ready.answerEnded();
            fill();
            if (row) ctx.settled(row);
          },
          (err: unknown) => {
            inFlight.delete(call.id);
            throw err;
          },
        );
        inFlight.set(call.id, { provider: call.provider, done });
      }
    };
    for (;;) {
      if (!ctx.current()) break;
      fill();
      const wake = accepting() && started < SLICE_CALLS ? this.nextWake(ctx) : null;
      if (!inFlight.size && wake === null) break;
      await Promise.race([...[...inFlight.values()].map((f) => f.done), ...(wake === null ? [] : [wake])]);
    }
    // Cancelled or superseded: the calls under way were aborted and unwind at once.
    await Promise.allSettled([...inFlight.values()].map((f) => f.done));
    return started;
  }

  /** What may start now, the free slots shared out evenly between the providers with calls to make. */
  private pick(ctx: EvaluationContext, inFlight: InFlight, ready: ReadyCalls, room: number): CallRow[] {
    const picked: CallRow[] = [];
    const now = Date.now();
    const providers = ctx.store.pendingProviders().filter((p) => (this.backoffUntil.get(p) ?? 0) <= now);
    for (const [i, provider] of providers.entries()) {
      const slots = Math.min(ROOM_MAX_IN_FLIGHT - inFlight.size - picked.length, room - picked.length);
      if (slots <= 0) break;
      let running = 0;
      for (const f of inFlight.values()) if (f.provider === provider) running++;
      const share = Math.ceil(slots / (providers.length - i));
      const free = Math.min(providerCap(this.caps, provider) - running, share);
      if (free > 0) picked.push(...ready.take(provider, free));
    }
    return picked;
  }

  private async make(ctx: EvaluationContext, call: CallRow): Promise<CallRow | null> {
    const make = { answer: makeAnswerCall, judge: makeJudgeCall, review: makeReviewCall, goal: makeGoalCall }[
      call.kind
    ];
    return make(ctx, call);
  }

  /** When calls held back by a 429 may start; null when nothing is held back. */
  private nextWake(ctx: EvaluationContext): Promise<void> | null {
    const now = Date.now();
    const held = ctx.store
      .pendingProviders()
      .map((p) => this.backoffUntil.get(p) ?? 0)
      .filter((until) => until > now);
    if (!held.length) return null;
    const signal = this.cancel();
    return new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        signal.removeEventListener("abort", done);
        resolve();
      };
      const timer = setTimeout(done, Math.min(...held) - now);
      signal.addEventListener("abort", done, { once: true });
    });
  }
}

/**
 * The calls ready to start, per provider, read from storage a few at a time: a slot that comes free takes the next
 * one from memory. A provider with nothing ready is not asked again until an answer ends (the only thing that makes
 * a judge call ready within a slice; answers are ready from the start).
 */
class ReadyCalls {
  private readonly queued = new Map<string, CallRow[]>();
  private readonly exhausted = new Set<string>();

  constructor(private readonly store: CallStore) {}

  take(provider: string, n: number): CallRow[] {
    const queue = this.queued.get(provider) ?? [];
    this.queued.set(provider, queue);
    const taken: CallRow[] = [];
    while (taken.length < n) {
      if (!queue.length) {
        if (this.exhausted.has(provider)) break;
        // Only an empty queue is read again: the store leaves out calls under way, not the ones queued here.
        const read = this.store.ready(provider, READ_AHEAD);
        if (read.length < READ_AHEAD) this.exhausted.add(provider);
        if (!read.length) break;
        queue.push(...read);
      }
      taken.push(queue.shift()!);
    }
    return taken;
  }

  answerEnded(): void {
    this.exhausted.clear();
  }
}
