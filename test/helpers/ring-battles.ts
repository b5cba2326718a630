/**
 * Synthetic battle logs for large views: a ring both ways among `models` names (so the win graph is strongly
 * connected and every model is rated), then `extra` random pairs. Model k is `${category}-${k}`; each battle's
 * outcome is drawn from `winProbability(a, b)` (P(a beats b) given no tie), with ties at `tieRate`.
 */
export interface RingBattle {
  model_a: string;
  model_b: string;
  winner: "model_a" | "model_b" | "tie";
  tstamp: number;
  category: string;
}

export interface RingOptions {
  models: number;
  extra: number;
  category: string;
  random: () => number;
  winProbability: (a: number, b: number) => number;
  tieRate?: number;
}

export function ringBattles(o: RingOptions): RingBattle[] {
  const tieRate = o.tieRate ?? 0;
  const lines: RingBattle[] = [];
  const add = (a: number, b: number) => {
    const u = o.random();
    const winner = u < tieRate ? "tie" : u < tieRate + (1 - tieRate) * o.winProbability(a, b) ? "model_a" : "model_b";
    lines.push({
      model_a: `${o.category}-${a}`,
      model_b: `${o.category}-${b}`,
      winner,
      tstamp: 1_700_000_000 + lines.length,
      category: o.category,
    });
  };
  for (let k = 0; k < o.models; k++) {
    add(k, (k + 1) % o.models);
    add((k + 1) % o.models, k);
  }
  for (let k = 0; k < o.extra; k++) {
    const a = Math.floor(o.random() * o.models);
    add(a, (a + 1 + Math.floor(o.random() * (o.models - 1))) % o.models);
  }
  return lines;
}
