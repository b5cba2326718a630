/**
 * Chatbot Arena's rating method written out plainly over battle rows, independent of worker/rating:
 * what the leaderboard's numbers are checked against.
 */
export interface Battle {
  model_a: string;
  model_b: string;
  winner: "model_a" | "model_b" | "tie" | "tie (bothbad)";
  tstamp: number;
}

/** FastChat's online Elo: K=4, base 10, scale 400, init 1000, battles in the order given. */
export function referenceElo(battles: Battle[]): Record<string, number> {
  const r: Record<string, number> = {};
  for (const b of battles) {
    const ra = r[b.model_a] ?? 1000;
    const rb = r[b.model_b] ?? 1000;
    const ea = 1 / (1 + 10 ** ((rb - ra) / 400));
    const sa = b.winner === "model_a" ? 1 : b.winner === "model_b" ? 0 : 0.5;
    r[b.model_a] = ra + 4 * (sa - ea);
    r[b.model_b] = rb + 4 * (1 - sa - (1 - ea));
  }
  return r;
}

/**
 * Bradley–Terry maximum likelihood with a tie as half a win each way, by Zermelo's (MM) iteration
 * over the battles run until nothing moves, on Arena's scale: 400·log10(strength), mean 1000.
 */
export function referenceBradleyTerry(battles: Battle[]): Record<string, number> {
  const models = [...new Set(battles.flatMap((b) => [b.model_a, b.model_b]))];
  const at = new Map(models.map((m, i) => [m, i]));
  const n = models.length;
  const games = Array.from({ length: n }, () => new Float64Array(n));
  const wins = new Float64Array(n);
  for (const b of battles) {
    const [i, j] = [at.get(b.model_a)!, at.get(b.model_b)!];
    games[i][j]++;
    games[j][i]++;
    const sa = b.winner === "model_a" ? 1 : b.winner === "model_b" ? 0 : 0.5;
    wins[i] += sa;
    wins[j] += 1 - sa;
  }
  let p = new Float64Array(n).fill(1);
  for (let iter = 0; iter < 200_000; iter++) {
    const next = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      let denom = 0;
      for (let j = 0; j < n; j++) if (games[i][j]) denom += games[i][j] / (p[i] + p[j]);
      next[i] = wins[i] / denom;
    }
    const logMean = next.reduce((s, x) => s + Math.log(x), 0) / n;
    for (let i = 0; i < n; i++) next[i] /= Math.exp(logMean);
    const moved = next.reduce((m, x, i) => Math.max(m, Math.abs(Math.log(x) - Math.log(p[i]))), 0);
    p = next;
    if (moved < 1e-13) break;
  }
  return Object.fromEntries(models.map((m, i) => [m, 1000 + (400 * Math.log(p[i])) / Math.LN10]));
}

/** mulberry32: a small seeded generator of uniform numbers in [0, 1), independent of the code under test. */
export function mulberry32(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A battle log drawn from known strengths with a seeded generator, ties included. */
export function simulateBattles(
  strengths: Record<string, number>,
  count: number,
  seed: number,
  startTstamp = 1_700_000_000,
): Battle[] {
  const random = mulberry32(seed);
  const names = Object.keys(strengths);
  const out: Battle[] = [];
  for (let k = 0; k < count; k++) {
    const i = Math.floor(random() * names.length);
    let j = Math.floor(random() * (names.length - 1));
    if (j >= i) j++;
    const [a, b] = [names[i], names[j]];
    const pa = 1 / (1 + 10 ** ((strengths[b] - strengths[a]) / 400));
    const u = random();
    const winner = u < 0.1 ? (u < 0.03 ? "tie (bothbad)" : "tie") : random() < pa ? "model_a" : "model_b";
    out.push({ model_a: a, model_b: b, winner, tstamp: startTstamp + k * 7 });
  }
  return out;
}
