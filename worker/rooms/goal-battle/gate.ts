/**
 * The goal battle room's provider calls under the same per-provider caps evaluations keep (evaluation/concurrency.ts:
 * QUORUM_PROVIDER_CONCURRENCY, within a deployed invocation's six connections): a call waits for a free slot of its
 * provider before it starts. Caps hold per room, as they do for an evaluation.
 */
import { providerCap, ROOM_MAX_IN_FLIGHT } from "../../evaluation/concurrency";
import { parseModelId } from "../../providers/registry";

export class ProviderGate {
  private readonly inFlight = new Map<string, number>();
  private total = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly caps: ReadonlyMap<string, number>) {}

  /** Runs `call` once its provider has a free slot (and the room one of its six). */
  async run<T>(modelId: string, call: () => Promise<T>): Promise<T> {
    const provider = parseModelId(modelId)?.provider ?? modelId;
    while (!this.free(provider)) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.inFlight.set(provider, (this.inFlight.get(provider) ?? 0) + 1);
    this.total++;
    try {
      return await call();
    } finally {
      this.inFlight.set(provider, (this.inFlight.get(provider) ?? 1) - 1);
      this.total--;
      // Every waiter looks again; those still without a slot wait once more.
      for (const wake of this.waiting.splice(0)) wake();
    }
  }

  private free(provider: string): boolean {
    return this.total < ROOM_MAX_IN_FLIGHT && (this.inFlight.get(provider) ?? 0) < providerCap(this.caps, provider);
  }
}
