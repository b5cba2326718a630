/**
 * Which two models meet when the person names none: from QUORUM_ARENA_MODELS, else every available
 * model (the demo models only when no real provider is configured, so a fresh install has an arena).
 * Pairs with few battles and overlapping intervals are drawn more often: their next vote says the most.
 */
import { listModelGroups } from "../providers/registry";
import { settings } from "../shared/config";

export async function arenaPool(env: Env): Promise<string[]> {
  const configured = settings(env).arena.models;
  if (configured.length) return configured;
  const groups = await listModelGroups(env);
  const real = groups.filter((g) => g.id !== "demo" && g.available).flatMap((g) => g.models.map((m) => m.id));
  return real.length ? real : groups.filter((g) => g.id === "demo").flatMap((g) => g.models.map((m) => m.id));
}

export interface PairEvidence {
  /** counted battles between the two, either way round */
  battles(a: string, b: string): number;
  /** the 95% interval of a model's rating, when it has one */
  interval(model: string): [number, number] | null;
}

/** How much of the narrower interval the two share, 0–1; unknown intervals count as fully overlapping. */
export function overlap(a: [number, number] | null, b: [number, number] | null): number {
  if (!a || !b) return 1;
  const shared = Math.min(a[1], b[1]) - Math.max(a[0], b[0]);
  const narrower = Math.min(a[1] - a[0], b[1] - b[0]);
  if (shared <= 0) return 0;
  return narrower > 0 ? Math.min(1, shared / narrower) : 1;
}

/** A pair's draw weight: fewer battles and more overlap weigh more; no pair ever weighs zero. */
export function pairWeight(battles: number, sharedInterval: number): number {
  return (0.25 + sharedInterval) / Math.sqrt(1 + battles);
}

/** Draws two different models from `pool` (at least two), weighted by `pairWeight`; `with` fixes the first. */
export function drawPair(
  pool: string[],
  evidence: PairEvidence,
  random: () => number,
  first?: string,
): [string, string] {
  const pairs: [string, string, number][] = [];
  for (let i = 0; i < pool.length; i++)
    for (let j = i + 1; j < pool.length; j++) {
      const [a, b] = [pool[i], pool[j]];
      if (first && a !== first && b !== first) continue;
      pairs.push([a, b, pairWeight(evidence.battles(a, b), overlap(evidence.interval(a), evidence.interval(b)))]);
    }
  if (!pairs.length) throw new Error("drawPair needs a pool of at least two models");
  let pick = random() * pairs.reduce((s, p) => s + p[2], 0);
  for (const [a, b, w] of pairs) {
    pick -= w;
    if (pick < 0) return [a, b];
  }
  const [a, b] = pairs[pairs.length - 1];
  return [a, b];
}

/** Left or right by a fair coin, so a side says nothing about which model was asked for first. */
export function shuffleSides([a, b]: [string, string], random: () => number): { left: string; right: string } {
  return random() < 0.5 ? { left: a, right: b } : { left: b, right: a };
}

/** Uniform in [0, 1) from the platform's cryptographic source. */
export function secureRandom(): number {
  const [x] = crypto.getRandomValues(new Uint32Array(1));
  return x / 2 ** 32;
}
