/**
 * Which evaluation calls run when. Each provider has its own cap (QUORUM_PROVIDER_CONCURRENCY), and the room as
 * a whole keeps at most six calls in flight (evaluation/concurrency.ts: a deployed Worker invocation's outbound
 * connections). Answers go first; a judge call starts as soon as both its answers exist, a council review as soon
 * as every answer of its round has ended. A 429 holds back every
 * new call to that provider for as long as the provider asked (shared across the room). One step runs a slice
 * of calls and then lets the alarm start the next, so each step has a deadline the watchdog can hold it to.
 */
import { providerCap, ROOM_MAX_IN_FLIGHT } from "../../evaluation/concurrency";
import type { CallRow } from "./call-store";
import type { EvaluationContext } from "./context";
import { makeAnswerCall, makeJudgeCall } from "./calls";
import { makeReviewCall } from "./review-call";

/** Calls one step starts at most. */
export const SLICE_CALLS = 240;

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
   */
  async runSlice(ctx: EvaluationContext, accepting: () => boolean): Promise<number> {
    const inFlight = new Map<string, { provider: string; done: Promise<void> }>();
    let started = 0;
    for (;;) {
      if (!ctx.current()) break;
      if (accepting() && started < SLICE_CALLS) started += this.fill(ctx, inFlight, SLICE_CALLS - started);
      const wake = accepting() && started < SLICE_CALLS ? this.nextWake(ctx) : null;
      if (!inFlight.size && wake === null) break;
      await Promise.race([...[...inFlight.values()].map((f) => f.done), ...(wake === null ? [] : [wake])]);
    }
    // Cancelled or superseded: the calls under way were aborted and unwind at once.
    await Promise.allSettled([...inFlight.values()].map((f) => f.done));
    return started;
  }

  /** Starts what may start now, the free slots shared out evenly between the providers with calls ready. */
  private fill(ctx: EvaluationContext, inFlight: Map<string, { provider: string; done: Promise<void> }>, room: number) {
    let started = 0;
    const now = Date.now();
    const providers = ctx.store.pendingProviders().filter((p) => (this.backoffUntil.get(p) ?? 0) <= now);
    for (const [i, provider] of providers.entries()) {
      const slots = Math.min(ROOM_MAX_IN_FLIGHT - inFlight.size, room - started);
      if (slots <= 0) break;
      const running = [...inFlight.values()].filter((f) => f.provider === provider).length;
      const share = Math.ceil(slots / (providers.length - i));
      const free = Math.min(providerCap(this.caps, provider) - running, share);
      if (free <= 0) continue;
      for (const call of ctx.store.ready(provider, free)) {
        ctx.store.markRunning(call.id);
        const done = this.make(ctx, call).finally(() => inFlight.delete(call.id));
        inFlight.set(call.id, { provider, done });
        started++;
      }
    }
    return started;
  }

  private async make(ctx: EvaluationContext, call: CallRow): Promise<void> {
    const make = { answer: makeAnswerCall, judge: makeJudgeCall, review: makeReviewCall }[call.kind];
    await make(ctx, call);
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
