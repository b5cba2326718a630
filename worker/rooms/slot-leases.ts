/**
 * The arithmetic of one provider's slots, apart from storage and waiting (provider-slots-room.ts does those): who
 * holds how many, until when, and what may be granted within a cap. No I/O, so its rules are tested directly.
 *
 * A holder is a room; `instance` tells one life of that room from the next. A room that restarts comes back under
 * the same holder with a new instance: what its predecessor held is gone with it (its calls died with it), so the
 * new instance's first ask drops the old lease instead of waiting for it to run out.
 */

/** What `holder` holds of a provider's slots, and when that stops counting unless renewed. */
export interface Lease {
  holder: string;
  instance: string;
  held: number;
  expiresAt: number;
}

/** The leases of one provider at one moment, changed by grants, releases and renewals. */
export class SlotLeases {
  private readonly live = new Map<string, Lease>();
  /** holders whose lease changed (or ended) since these were read: what storage must be told */
  private readonly touched = new Set<string>();

  constructor(
    leases: Iterable<Lease>,
    private readonly now: number,
    private readonly leaseMs: number,
  ) {
    for (const lease of leases) {
      if (lease.expiresAt > now && lease.held > 0) this.live.set(lease.holder, { ...lease });
      else this.touched.add(lease.holder);
    }
  }

  /** Slots held over every live lease. */
  inUse(): number {
    let n = 0;
    for (const lease of this.live.values()) n += lease.held;
    return n;
  }

  /**
   * Up to `want` slots for `holder` within `cap` over every live lease (possibly 0), its lease renewed. A lease of
   * the same holder under another instance was its predecessor's: dropped first.
   */
  grant(holder: string, instance: string, want: number, cap: number): number {
    const lease = this.own(holder, instance);
    const granted = Math.max(0, Math.min(whole(want), whole(cap) - this.inUse()));
    this.put(holder, instance, (lease?.held ?? 0) + granted);
    return granted;
  }

  /**
   * `holder` gives back `n` slots (never more than it holds); its lease is renewed. Another instance's lease is
   * left alone.
   */
  release(holder: string, instance: string, n: number): void {
    const lease = this.live.get(holder);
    if (!lease || lease.instance !== instance) return;
    this.put(holder, instance, lease.held - Math.min(whole(n), lease.held));
  }

  /**
   * `holder`, still alive and holding `held`, renews its lease. A lease that ran out while its holder lived (a
   * renewal came late) is taken up again at what the holder says it holds: those calls are still in flight.
   */
  renew(holder: string, instance: string, held: number): void {
    const lease = this.live.get(holder);
    if (lease && lease.instance !== instance) return;
    this.put(holder, instance, lease ? lease.held : whole(held));
  }

  /** When the first live lease runs out; null when none is held. */
  nextExpiry(): number | null {
    let first: number | null = null;
    for (const lease of this.live.values()) first = Math.min(first ?? lease.expiresAt, lease.expiresAt);
    return first;
  }

  /** What storage must be told since these were read: leases to write, and holders whose lease ended. */
  changes(): { put: Lease[]; drop: string[] } {
    const put: Lease[] = [];
    const drop: string[] = [];
    for (const holder of this.touched) {
      const lease = this.live.get(holder);
      if (lease) put.push(lease);
      else drop.push(holder);
    }
    return { put, drop };
  }

  /** The holder's lease in this instance; a predecessor's is dropped. */
  private own(holder: string, instance: string): Lease | undefined {
    const lease = this.live.get(holder);
    if (lease && lease.instance !== instance) {
      this.live.delete(holder);
      this.touched.add(holder);
      return undefined;
    }
    return lease;
  }

  private put(holder: string, instance: string, held: number) {
    this.touched.add(holder);
    if (held > 0) this.live.set(holder, { holder, instance, held, expiresAt: this.now + this.leaseMs });
    else this.live.delete(holder);
  }
}

const whole = (n: number) => (Number.isFinite(n) ? Math.max(0, Math.floor(n)) : 0);
