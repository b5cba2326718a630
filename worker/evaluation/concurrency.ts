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
 * The shard that runs the item at `index` in the prompt set: items are dealt round-robin (index modulo the
 * shard count), so each shard gets every K-th item, the shards' item counts differ by at most one, and the same
 * evaluation always splits the same way — a restarted parent, a test, or a person reading the report can tell
 * which room ran an item.
 */
export const shardOfItem = (index: number, shards: number): number => index % shards;
