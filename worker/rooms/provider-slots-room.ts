/**
 * ProviderSlotsRoom: one Durable Object per provider (`slotsOf`), the owner of that provider's cap across every
 * room. Evaluation rooms and goal battle rooms ask it for slots before they call the provider and give them back
 * after (rooms/provider-slots.ts), so the calls in flight to a provider, over all of them together, stay within
 * QUORUM_PROVIDER_CONCURRENCY.
 *
 * Slots are held under leases (slot-leases.ts), kept in this object's SQLite so its own restart forgets none.
 * A lease lasts LEASE_MS from the holder's last word (an ask, a release, a renewal). A holder renews every third of
 * that while it holds slots, so one late renewal (a busy isolate: under `wrangler dev` every room shares one
 * thread) never costs it its lease; a room evicted mid-call keeps its slots from the others for LEASE_MS at most.
 * Longer would idle a dead room's slots longer; much shorter would make renewals a steady cost of every call held.
 * A room that restarts takes its old lease back at once (its predecessor's calls died with it).
 *
 * Asks that find no slot free wait here, first come first served, for up to the time they were given; a release
 * or a lease that ran out (the alarm, at the first lease's end) serves them.
 */
import { DurableObject } from "cloudflare:workers";
import { type Lease, SlotLeases } from "./slot-leases";

/** How long a holder's slots count after its last word. */
export const LEASE_MS = 30_000;
/** The longest an ask waits here for a release. */
const MAX_WAIT_MS = 30_000;

interface Waiter {
  holder: string;
  instance: string;
  want: number;
  cap: number;
  answer: (granted: number) => void;
}

interface LeaseRow extends Record<string, SqlStorageValue> {
  holder: string;
  instance: string;
  held: number;
  expires_at: number;
}

/** The owner of `provider`'s slots. */
export function slotsOf(env: Env, provider: string): DurableObjectStub<ProviderSlotsRoom> {
  return env.PROVIDER_SLOTS.get(env.PROVIDER_SLOTS.idFromName(provider));
}

export class ProviderSlotsRoom extends DurableObject<Env> {
  /** asks waiting for a release, oldest first (in memory: they are open calls, gone with this instance anyway) */
  private readonly waiters: Waiter[] = [];
  /** when the alarm is set for, as far as this instance set it */
  private alarmAt: number | null = null;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    ctx.storage.sql.exec(
      "CREATE TABLE IF NOT EXISTS slot_leases (holder TEXT PRIMARY KEY, instance TEXT NOT NULL, held INTEGER NOT NULL, expires_at INTEGER NOT NULL)",
    );
  }

  /**
   * Up to `want` slots for `holder` now, within `cap` over every live lease; with none free, waits up to `waitMs`
   * for a release before answering (possibly 0). Renews the holder's lease. `instance` tells one life of the holder
   * from the next: an ask from a new one drops what the old one held.
   */
  async acquire(holder: string, want: number, cap: number, waitMs: number, instance = ""): Promise<number> {
    const leases = this.read();
    this.serve(leases);
    // Behind others already waiting, an ask waits its turn: it is only renewed now.
    const granted = leases.grant(holder, instance, this.waiters.length ? 0 : want, cap);
    this.write(leases);
    if (granted > 0 || want <= 0 || waitMs <= 0) return granted;
    return new Promise<number>((resolve) => {
      const waiter: Waiter = {
        holder,
        instance,
        want,
        cap,
        answer: (n) => {
          clearTimeout(timer);
          resolve(n);
        },
      };
      const timer = setTimeout(
        () => {
          const at = this.waiters.indexOf(waiter);
          if (at >= 0) this.waiters.splice(at, 1);
          resolve(0);
        },
        Math.min(waitMs, MAX_WAIT_MS),
      );
      this.waiters.push(waiter);
    });
  }

  /** `holder` gives back `n` slots; those waiting are served from them. Renews the holder's lease. */
  async release(holder: string, n: number, instance = ""): Promise<void> {
    const leases = this.read();
    leases.release(holder, instance, n);
    this.serve(leases);
    this.write(leases);
  }

  /** `holder` still holds `held` slots: its lease runs LEASE_MS from now (taken up again if it ran out). */
  async renew(holder: string, held: number, instance = ""): Promise<void> {
    const leases = this.read();
    leases.renew(holder, instance, held);
    this.write(leases);
  }

  /** The first lease's end: what ran out is freed for those waiting. */
  async alarm(): Promise<void> {
    this.alarmAt = null;
    const leases = this.read();
    this.serve(leases);
    this.write(leases);
  }

  /** Grants to those waiting, oldest first, as long as the first of them gets something. */
  private serve(leases: SlotLeases) {
    while (this.waiters.length) {
      const w = this.waiters[0];
      const granted = leases.grant(w.holder, w.instance, w.want, w.cap);
      if (!granted) return;
      this.waiters.shift();
      w.answer(granted);
    }
  }

  private read(): SlotLeases {
    const rows = this.ctx.storage.sql.exec<LeaseRow>("SELECT holder, instance, held, expires_at FROM slot_leases");
    const leases: Lease[] = [...rows].map((r) => ({
      holder: r.holder,
      instance: r.instance,
      held: r.held,
      expiresAt: r.expires_at,
    }));
    return new SlotLeases(leases, Date.now(), LEASE_MS);
  }

  /** Stores what changed, and sets the alarm for the first lease's end if none is set before it. */
  private write(leases: SlotLeases) {
    const sql = this.ctx.storage.sql;
    const { put, drop } = leases.changes();
    for (const l of put)
      sql.exec(
        "INSERT INTO slot_leases (holder, instance, held, expires_at) VALUES (?, ?, ?, ?) ON CONFLICT (holder) DO UPDATE SET instance = excluded.instance, held = excluded.held, expires_at = excluded.expires_at",
        l.holder,
        l.instance,
        l.held,
        l.expiresAt,
      );
    for (const holder of drop) sql.exec("DELETE FROM slot_leases WHERE holder = ?", holder);
    const next = leases.nextExpiry();
    if (next !== null && (this.alarmAt === null || next < this.alarmAt)) {
      this.alarmAt = next;
      void this.ctx.storage.setAlarm(next);
    }
  }
}
