/**
 * Which evaluation calls run when. Each provider's cap (QUORUM_PROVIDER_CONCURRENCY) holds across every room: a call
 * starts only on a slot this room took from the provider's owner (rooms/provider-slots.ts), several at one ask. Within
 * the room, each provider keeps to its room cap (`caps`: in a shard, its share of the cap) and the room to six calls in
 * flight in all (evaluation/concurrency.ts: a deployed Worker invocation's outbound connections). Answers go first; a judge call starts as soon as both its
 * answers exist, a council review as soon as every answer of its round has ended. A 429 holds back every new call to
 * that provider for as long as the provider asked (shared across the room). One step runs a slice of calls and then
 * lets the alarm start the next, so each step has a deadline the watchdog can hold it to.
 *
 * A call that ends leaves its slot to the next ready call of its provider at once, with no ask; a slot with nothing
 * to start goes back. A room gives back the next slot that comes free TURN_MS after its last grant and asks again,
 * so the rooms waiting for that provider (served first come, first served) get their turn.
 */
import { ROOM_MAX_IN_FLIGHT, roomProviderCap } from "../../evaluation/concurrency";
import type { ProviderSlots } from "../provider-slots";
import type { CallRow, CallStore } from "./call-store";
import type { EvaluationContext } from "./context";
import { makeAnswerCall, makeJudgeCall } from "./calls";
import { makeGoalCall } from "./goal-call";
import { makeReviewCall } from "./review-call";

/** Calls one step starts at most. */
export const SLICE_CALLS = 240;
/** Ready calls read from storage at once per provider, so a slot that comes free rarely waits on a query. */
const READ_AHEAD = 32;
/** How long a room keeps reusing slots it was granted before it gives one back and asks again. */
export const TURN_MS = 2_000;
/** How long one ask for slots waits at their owner for a release; then it is asked again (a pause shows meanwhile). */
const SLOT_WAIT_MS = 1_000;

/** per call under way: its provider, whether it holds one of the provider's slots, and its end */
type InFlight = Map<string, { provider: string; slot: boolean; done: Promise<void> }>;

/**
 * A goal call makes no provider call itself: it awaits its battle's room, whose calls take their own slots
 * (goal-battle/gate.ts). Holding one for it as well could leave the battles none.
 */
const needsSlot = (call: CallRow) => call.kind !== "goal";

export class Scheduler {
  /** per provider: when new calls to it may start again after a 429 */
  private readonly backoffUntil = new Map<string, number>();
  /** per provider: when this room was last granted slots of it */
  private readonly grantedAt = new Map<string, number>();

  constructor(
    private readonly caps: ReadonlyMap<string, number>,
    private readonly cancel: () => AbortSignal,
    private readonly slots: ProviderSlots,
  ) {}

  backOff(provider: string, ms: number): void {
    this.backoffUntil.set(provider, Math.max(this.backoffUntil.get(provider) ?? 0, Date.now() + ms));
  }

  /**
   * Runs calls until `SLICE_CALLS` have started (or none is ready) and every call started has ended. `accepting`
   * turning false (a pause) stops new calls; those under way finish and are kept. Returns how many started.
   * A call that ends is stored first, then its slot is filled again, and only then is it written and announced
   * (`ctx.settled`): the next provider call never waits on the last one's bookkeeping. Every slot taken is given
   * back by the slice's end.
   */
  async runSlice(ctx: EvaluationContext, accepting: () => boolean): Promise<number> {
    const inFlight: InFlight = new Map();
    const ready = new ReadyCalls(ctx.store);
    /** per provider: the ask for slots under way */
    const asking = new Map<string, Promise<void>>();
    let started = 0;
    const open = () => ctx.current() && accepting() && started < SLICE_CALLS;
    const fill = () => {
      const { calls, wanted } = open()
        ? this.pick(ctx, inFlight, ready, SLICE_CALLS - started)
        : { calls: [], wanted: new Map<string, number>() };
      for (const call of calls) {
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
        inFlight.set(call.id, { provider: call.provider, slot: needsSlot(call), done });
      }
      // A slot with no call to start now goes back.
      for (const [provider, held] of this.slots.holdings())
        this.slots.give(provider, held - running(inFlight, provider, true));
      for (const [provider, want] of wanted) {
        if (asking.has(provider)) continue;
        const ask = this.slots.take(provider, want, SLOT_WAIT_MS, this.cancel()).then((granted) => {
          if (granted) this.grantedAt.set(provider, Date.now());
          asking.delete(provider);
          fill();
        });
        asking.set(provider, ask);
      }
    };
    for (;;) {
      if (!ctx.current()) break;
      fill();
      const wake = open() ? this.nextWake(ctx) : null;
      if (!inFlight.size && !asking.size && wake === null) break;
      await Promise.race([
        ...[...inFlight.values()].map((f) => f.done),
        ...asking.values(),
        ...(wake === null ? [] : [wake]),
      ]);
    }
    // Cancelled or superseded: the calls under way were aborted and unwind at once.
    await Promise.allSettled([...inFlight.values()].map((f) => f.done));
    await Promise.allSettled([...asking.values()]);
    for (const [provider, held] of this.slots.holdings()) this.slots.give(provider, held);
    await this.slots.flush();
    return started;
  }

  /**
   * What may start now on the slots this room holds, the room's free places shared out evenly between the providers
   * with calls to make; and per provider, how many more slots it could use.
   */
  private pick(ctx: EvaluationContext, inFlight: InFlight, ready: ReadyCalls, room: number) {
    const calls: CallRow[] = [];
    const wanted = new Map<string, number>();
    const now = Date.now();
    const providers = ctx.store.pendingProviders().filter((p) => (this.backoffUntil.get(p) ?? 0) <= now);
    for (const [i, provider] of providers.entries()) {
      const places = Math.min(ROOM_MAX_IN_FLIGHT - inFlight.size - calls.length, room - calls.length);
      if (places <= 0) break;
      const busy = running(inFlight, provider);
      const free = Math.min(roomProviderCap(this.caps, provider) - busy, Math.ceil(places / (providers.length - i)));
      if (free <= 0) continue;
      const slotted = running(inFlight, provider, true);
      // Its turn is over: the slots it isn't using go back, and it asks again behind whoever waits.
      if (now - (this.grantedAt.get(provider) ?? 0) >= TURN_MS)
        this.slots.give(provider, this.slots.holding(provider) - slotted);
      let idle = this.slots.holding(provider) - slotted;
      const waiting: CallRow[] = [];
      for (const call of ready.take(provider, free)) {
        if (!needsSlot(call)) calls.push(call);
        else if (idle > 0) {
          idle--;
          calls.push(call);
        } else waiting.push(call);
      }
      // The calls without a slot go back to the front of the queue, in order, and as many slots are asked for.
      for (const call of waiting.toReversed()) ready.putBack(call);
      if (waiting.length) wanted.set(provider, waiting.length);
    }
    return { calls, wanted };
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

/** Calls of `provider` under way (only those holding a slot, with `slotted`). */
function running(inFlight: InFlight, provider: string, slotted = false): number {
  let n = 0;
  for (const f of inFlight.values()) if (f.provider === provider && (!slotted || f.slot)) n++;
  return n;
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
        // Only an empty queue is read again: the store leaves out calls under way, not the ones queued here, nor
        // those taken just now (they are marked under way once picked).
        const read = this.store.ready(provider, READ_AHEAD);
        if (read.length < READ_AHEAD) this.exhausted.add(provider);
        const fresh = read.filter((c) => !taken.some((t) => t.id === c.id));
        if (!fresh.length) break;
        queue.push(...fresh);
      }
      taken.push(queue.shift()!);
    }
    return taken;
  }

  /** Returns a call taken but not started to the front of its provider's queue. */
  putBack(call: CallRow): void {
    this.queued.get(call.provider)!.unshift(call);
  }

  answerEnded(): void {
    this.exhausted.clear();
  }
}
