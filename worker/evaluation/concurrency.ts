/**
 * How many calls are in flight, on two levels. A provider's cap (QUORUM_PROVIDER_CONCURRENCY) holds across every
 * room: every evaluation and goal battle calling it shares that many slots (rooms/provider-slots.ts). Within one
 * room, a deployed Worker invocation keeps at most six outbound connections open at once (and `wrangler dev`
 * doesn't enforce it), so one room never has more than six calls in flight in all, whatever the caps say. A cap
 * above that is reached by spreading the evaluation over several rooms ("shards", each with its share of the items
 * and of the caps), each keeping its six (docs/scaling.md).
 */

/** The most calls one room keeps in flight: a deployed invocation's simultaneous outbound connections. */
export const ROOM_MAX_IN_FLIGHT = 6;
/** A provider's cap when QUORUM_PROVIDER_CONCURRENCY doesn't name it. */
export const DEFAULT_PROVIDER_CAP = 4;
/**
 * The most rooms one evaluation is spread over (48 calls in flight): each shard is a Durable Object that reports
 * to its parent, and past this many the parent's bookkeeping would cost more than the calls it spreads.
 */
export const MAX_EVALUATION_SHARDS = 8;

/** The cap of `provider` over every room (QUORUM_PROVIDER_CONCURRENCY): what its slots' owner hands out. */
export function providerCap(caps: ReadonlyMap<string, number>, provider: string): number {
  return caps.get(provider) ?? DEFAULT_PROVIDER_CAP;
}

/** The cap of `provider` within one room. */
export function roomProviderCap(caps: ReadonlyMap<string, number>, provider: string): number {
  return Math.min(providerCap(caps, provider), ROOM_MAX_IN_FLIGHT);
}

/**
 * How many rooms an evaluation calling `providers` needs: enough for the caps' sum at six a room, but never more
 * than the items (an item never splits), than MAX_EVALUATION_SHARDS, or than the smallest cap — every shard makes
 * calls to every provider (each item has calls to all of them), so each needs at least one slot of each, and a
 * provider's slots over all shards must not pass its cap.
 */
export function shardCount(caps: ReadonlyMap<string, number>, providers: readonly string[], items: number): number {
  if (!providers.length) return 1;
  const wanted = providers.map((p) => providerCap(caps, p));
  const sum = wanted.reduce((a, b) => a + b, 0);
  const needed = Math.ceil(sum / ROOM_MAX_IN_FLIGHT);
  return Math.max(1, Math.min(needed, items, MAX_EVALUATION_SHARDS, ...wanted));
}

/**
 * Each shard's per-provider caps: every provider's cap dealt out one slot at a time over the `shards`, the deal
 * going on from shard to shard across providers, so each provider's share differs by at most one between shards,
 * the shares add up to its cap, and each shard's total is within one of every other's (at most six when
 * `shardCount` chose the number).
 */
export function shardCaps(
  caps: ReadonlyMap<string, number>,
  providers: readonly string[],
  shards: number,
): Map<string, number>[] {
  const out = Array.from({ length: shards }, () => new Map<string, number>());
  let next = 0;
  for (const provider of [...providers].sort()) {
    for (let slot = 0; slot < providerCap(caps, provider); slot++) {
      const shard = out[next];
      shard.set(provider, (shard.get(provider) ?? 0) + 1);
      next = (next + 1) % shards;
    }
  }
  return out;
}

/**
 * How many of its items a shard gets through in a given time, relative to the others: its slowest provider's share
 * (its cap in the shard over the calls each item makes to it), or its six over all of an item's calls when the room's
 * six bind first. A provider's cap that doesn't divide evenly leaves some shards a slot short, and they get fewer
 * items, so that all of them finish together.
 */
export function shardWeights(
  caps: readonly ReadonlyMap<string, number>[],
  callsPerItem: ReadonlyMap<string, number>,
): number[] {
  const all = [...callsPerItem.values()].reduce((a, b) => a + b, 0);
  return caps.map((shard) =>
    Math.min(
      ROOM_MAX_IN_FLIGHT / Math.max(1, all),
      ...[...callsPerItem].map(([provider, calls]) => (shard.get(provider) ?? 0) / calls),
    ),
  );
}

/**
 * The shard that runs each of `items` items, in the prompt set's order: the first `weights.length` items one to each
 * shard, then each next item to the shard that would be least far through its share with it (its items ÷ its
 * weight; the lowest index on a tie). Deterministic — the same evaluation always splits the same way, so a restarted
 * parent finds each shard's items again — and with equal weights it deals the items round-robin (item i to shard
 * i mod K).
 */
export function itemShards(items: number, weights: readonly number[]): number[] {
  const given = weights.map(() => 0);
  const out: number[] = [];
  for (let i = 0; i < items; i++) {
    let pick = i < weights.length ? i : 0;
    if (i >= weights.length)
      for (let k = 1; k < weights.length; k++)
        if ((given[k] + 1) / weights[k] < (given[pick] + 1) / weights[pick]) pick = k;
    given[pick]++;
    out.push(pick);
  }
  return out;
}
