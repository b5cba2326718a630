/**
 * The goal battle room's provider calls under the caps evaluations keep (evaluation/concurrency.ts): a call waits
 * for a place of its provider within the room (and one of the room's six), then for one of the provider's slots
 * shared with every other room (rooms/provider-slots.ts), and gives both back when it ends.
 */
import { roomProviderCap, ROOM_MAX_IN_FLIGHT } from "../../evaluation/concurrency";
import { parseModelId } from "../../providers/registry";
import type { ProviderSlots } from "../provider-slots";

/** How long one ask for a slot waits at its owner for a release; then it is asked again (a stop shows meanwhile). */
const SLOT_WAIT_MS = 1_000;

export class ProviderGate {
  private readonly inFlight = new Map<string, number>();
  private total = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(
    private readonly caps: ReadonlyMap<string, number>,
    private readonly slots: Pick<ProviderSlots, "take" | "give">,
    private readonly cancel: () => AbortSignal,
  ) {}

  /** Runs `call` once its provider has a free slot (and the room one of its six). */
  async run<T>(modelId: string, call: () => Promise<T>): Promise<T> {
    const provider = parseModelId(modelId)?.provider ?? modelId;
    const signal = this.cancel();
    while (!this.free(provider)) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.inFlight.set(provider, (this.inFlight.get(provider) ?? 0) + 1);
    this.total++;
    try {
      const slot = await this.slot(provider, signal);
      try {
        return await call();
      } finally {
        if (slot) this.slots.give(provider, 1);
      }
    } finally {
      this.inFlight.set(provider, (this.inFlight.get(provider) ?? 1) - 1);
      this.total--;
      // Every waiter looks again; those still without a slot wait once more.
      for (const wake of this.waiting.splice(0)) wake();
    }
  }

  /** One of the provider's slots; false when the work was stopped first (its result is thrown away then). */
  private async slot(provider: string, signal: AbortSignal): Promise<boolean> {
    for (;;) {
      if (signal.aborted) return false;
      if (await this.slots.take(provider, 1, SLOT_WAIT_MS, signal)) return true;
    }
  }

  private free(provider: string): boolean {
    return this.total < ROOM_MAX_IN_FLIGHT && (this.inFlight.get(provider) ?? 0) < roomProviderCap(this.caps, provider);
  }
}
