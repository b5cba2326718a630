/**
 * What a room uses to stay within each provider's cap across every room (provider-slots-room.ts owns the count):
 * `take` slots before calls, `give` them back as calls end. Releases are batched (those given in one synchronous
 * run go in one call, and while one is under way the next ones wait for it) and never lost: one that fails is sent
 * again. While it holds slots, the room renews its lease every RENEW_MS; should the room die, its slots come free
 * when the lease runs out. Each instance of a room holds under its own `instance`, so a restarted room never counts
 * its predecessor's slots as its own.
 */
import { providerCap } from "../evaluation/concurrency";
import { settings } from "../shared/config";
import { logError } from "./log";
import { LEASE_MS, type ProviderSlotsRoom, slotsOf } from "./provider-slots-room";

/** A third of the lease: a renewal may come late twice before the lease runs out. */
const RENEW_MS = LEASE_MS / 3;
/** After a failed call to the slots' owner: how long before a release is sent again, or an ask answers 0. */
const RETRY_MS = 1_000;

export class ProviderSlots {
  private readonly instance = crypto.randomUUID();
  private readonly caps: ReadonlyMap<string, number>;
  private readonly stubs = new Map<string, DurableObjectStub<ProviderSlotsRoom>>();
  /** per provider: slots granted and not given back */
  private readonly held = new Map<string, number>();
  /** per provider: slots given back whose release is not sent yet */
  private readonly unsent = new Map<string, number>();
  /** per provider: the release under way */
  private readonly sending = new Map<string, Promise<void>>();
  private flushQueued = false;
  private renewTimer: ReturnType<typeof setTimeout> | null = null;

  /** `holder`: the room's own name, unique per room (and per shard of an evaluation). */
  constructor(
    private readonly env: Env,
    private readonly holder: string,
  ) {
    this.caps = settings(env).providerConcurrency;
  }

  /** Slots of `provider` this room holds now. */
  holding(provider: string): number {
    return this.held.get(provider) ?? 0;
  }

  /** Every provider this room holds slots of, with how many. */
  holdings(): [string, number][] {
    return [...this.held].filter(([, n]) => n > 0);
  }

  /**
   * Up to `want` slots of `provider`, waiting up to `waitMs` for one when none is free; 0 when none came, or when
   * `signal` aborted first (slots granted after that are given back).
   */
  take(provider: string, want: number, waitMs = 0, signal?: AbortSignal): Promise<number> {
    if (want <= 0 || signal?.aborted) return Promise.resolve(0);
    // Slots given back go first, so the owner counts them free before it weighs this ask.
    this.send(provider);
    const asked = this.stub(provider)
      .acquire(this.holder, want, providerCap(this.caps, provider), waitMs, this.instance)
      .catch(async (err: unknown) => {
        // A stub that threw may stay broken: the next call makes a new one.
        this.stubs.delete(provider);
        logError(`asking for ${provider}'s slots failed, asked again shortly:`, err);
        await pause(Math.min(waitMs, RETRY_MS), signal);
        return 0;
      });
    return new Promise<number>((resolve) => {
      let answered = false;
      const abandon = () => {
        answered = true;
        resolve(0);
      };
      signal?.addEventListener("abort", abandon, { once: true });
      void asked.then((granted) => {
        signal?.removeEventListener("abort", abandon);
        if (!granted) return resolve(0);
        this.held.set(provider, this.holding(provider) + granted);
        this.keepRenewing();
        if (answered) this.give(provider, granted);
        else resolve(granted);
      });
    });
  }

  /** Gives back `n` slots of `provider` (never more than held); the release goes out batched. */
  give(provider: string, n: number): void {
    const given = Math.min(Math.max(0, n), this.holding(provider));
    if (!given) return;
    this.held.set(provider, this.holding(provider) - given);
    if (!this.holding(provider)) this.held.delete(provider);
    this.unsent.set(provider, (this.unsent.get(provider) ?? 0) + given);
    if (this.flushQueued) return;
    this.flushQueued = true;
    queueMicrotask(() => {
      this.flushQueued = false;
      for (const p of this.unsent.keys()) this.send(p);
    });
  }

  /** Sends every release not sent yet and waits until the owners have them (or a send failed and is queued again). */
  async flush(): Promise<void> {
    for (const p of this.unsent.keys()) this.send(p);
    await Promise.all(this.sending.values());
  }

  private send(provider: string) {
    const n = this.unsent.get(provider) ?? 0;
    if (!n || this.sending.has(provider)) return;
    this.unsent.delete(provider);
    const sent = this.stub(provider)
      .release(this.holder, n, this.instance)
      .catch((err: unknown) => {
        this.stubs.delete(provider);
        logError(`giving back ${provider}'s slots failed, sent again shortly:`, err);
        this.unsent.set(provider, (this.unsent.get(provider) ?? 0) + n);
        setTimeout(() => this.send(provider), RETRY_MS);
      })
      .finally(() => {
        this.sending.delete(provider);
        // What was given meanwhile goes next.
        if (this.unsent.get(provider)) this.send(provider);
        else this.stopRenewingWhenIdle();
      });
    this.sending.set(provider, sent);
  }

  /** While slots are held (or releases are owed), the lease is renewed every RENEW_MS. */
  private keepRenewing() {
    this.renewTimer ??= setTimeout(() => {
      this.renewTimer = null;
      const owed = new Set([...this.held.keys(), ...this.unsent.keys()]);
      let holds = false;
      for (const p of owed) {
        const n = this.holding(p) + (this.unsent.get(p) ?? 0);
        if (!n) continue;
        holds = true;
        // A release under way renews the lease itself.
        if (this.sending.has(p)) continue;
        this.stub(p)
          .renew(this.holder, n, this.instance)
          .catch((err: unknown) => logError(`renewing ${p}'s slots failed:`, err));
      }
      if (holds) this.keepRenewing();
    }, RENEW_MS);
  }

  /** Nothing held and nothing owed: no timer is left to keep the room from being evicted. */
  private stopRenewingWhenIdle() {
    if (this.held.size || this.unsent.size || this.sending.size || !this.renewTimer) return;
    clearTimeout(this.renewTimer);
    this.renewTimer = null;
  }

  private stub(provider: string): DurableObjectStub<ProviderSlotsRoom> {
    let stub = this.stubs.get(provider);
    if (!stub) {
      stub = slotsOf(this.env, provider);
      this.stubs.set(provider, stub);
    }
    return stub;
  }
}

/** Resolves after `ms`, or at once when `signal` aborts. */
function pause(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener("abort", done, { once: true });
  });
}
