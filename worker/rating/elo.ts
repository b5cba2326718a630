/** Online Elo exactly as Chatbot Arena's compute_online_elo: one update per battle, in the order given. */
import { scoreOfA, type Winner } from "./battle-outcome";

export interface EloParameters {
  k: number;
  base: number;
  scale: number;
  init: number;
}

export const ELO_DEFAULTS: Readonly<EloParameters> = Object.freeze({ k: 4, base: 10, scale: 400, init: 1000 });

export type EloOptions = Partial<typeof ELO_DEFAULTS>;

export interface EloBattle {
  modelA: string;
  modelB: string;
  winner: Winner;
}

/** Applies one battle to `ratings` in place; a model not yet in the map starts at `init`. */
export function updateElo(
  ratings: Map<string, number>,
  modelA: string,
  modelB: string,
  winner: Winner,
  opts?: EloOptions,
): void {
  const { k, base, scale, init } = { ...ELO_DEFAULTS, ...opts };
  const ra = ratings.get(modelA) ?? init;
  const rb = ratings.get(modelB) ?? init;
  const ea = 1 / (1 + base ** ((rb - ra) / scale));
  const eb = 1 / (1 + base ** ((ra - rb) / scale));
  const sa = scoreOfA(winner);
  // Read-modify-write per side (not `set(b, rb + …)`) so a model battling itself nets to zero, as in FastChat.
  ratings.set(modelA, (ratings.get(modelA) ?? init) + k * (sa - ea));
  ratings.set(modelB, (ratings.get(modelB) ?? init) + k * (1 - sa - eb));
}

export function computeElo(battles: Iterable<EloBattle>, opts?: EloOptions): Map<string, number> {
  const ratings = new Map<string, number>();
  for (const b of battles) updateElo(ratings, b.modelA, b.modelB, b.winner, opts);
  return ratings;
}
