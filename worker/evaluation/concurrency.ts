/**
 * How many calls an evaluation keeps in flight. A deployed Worker invocation keeps at most six outbound
 * connections open at once (and `wrangler dev` doesn't enforce it), so one evaluation room never has more than
 * six calls in flight in all, whatever the per-provider caps say; a cap above that would need the work spread
 * over several rooms. Within the six, each provider gets its own cap (QUORUM_PROVIDER_CONCURRENCY).
 */

/** The most calls one room keeps in flight: a deployed invocation's simultaneous outbound connections. */
export const ROOM_MAX_IN_FLIGHT = 6;
/** A provider's cap when QUORUM_PROVIDER_CONCURRENCY doesn't name it. */
export const DEFAULT_PROVIDER_CAP = 4;

/** The cap of `provider` within one room. */
export function providerCap(caps: ReadonlyMap<string, number>, provider: string): number {
  return Math.min(caps.get(provider) ?? DEFAULT_PROVIDER_CAP, ROOM_MAX_IN_FLIGHT);
}
