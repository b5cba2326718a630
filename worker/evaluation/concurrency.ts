/**
 * How many calls are in flight, on two levels. A provider's cap (QUORUM_PROVIDER_CONCURRENCY) holds across every
 * room: every evaluation and goal battle calling it shares that many slots (rooms/provider-slots.ts). Within one
 * room, a deployed Worker invocation keeps at most six outbound connections open at once (and `wrangler dev`
 * doesn't enforce it), so one room never has more than six calls in flight in all, whatever the caps say; a cap
 * above that is reached only by work spread over several rooms.
 */

/** The most calls one room keeps in flight: a deployed invocation's simultaneous outbound connections. */
export const ROOM_MAX_IN_FLIGHT = 6;
/** A provider's cap when QUORUM_PROVIDER_CONCURRENCY doesn't name it. */
export const DEFAULT_PROVIDER_CAP = 4;

/** The cap of `provider` over every room: what its slots' owner hands out. */
export function providerCap(caps: ReadonlyMap<string, number>, provider: string): number {
  return caps.get(provider) ?? DEFAULT_PROVIDER_CAP;
}

/** The cap of `provider` within one room. */
export function roomProviderCap(caps: ReadonlyMap<string, number>, provider: string): number {
  return Math.min(providerCap(caps, provider), ROOM_MAX_IN_FLIGHT);
}
