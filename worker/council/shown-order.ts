/**
 * The order a reviewer is shown the answers in: its own shuffle, seeded by the run and the reviewer,
 * so no label is always first (judges favour the first answer they read) and a replayed step shows
 * the same order again.
 */
import { seededRandom } from "../rating/random";

/** FNV-1a, 32 bits: a stable number from a string. */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/** A Fisher–Yates shuffle whose randomness comes from `seed`: the same seed, the same order. */
export function seededShuffle<T>(items: readonly T[], seed: string): T[] {
  const random = seededRandom(hash(seed));
  const order = [...items];
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [order[i], order[j]] = [order[j], order[i]];
  }
  return order;
}

export function shownOrder(labels: readonly string[], runId: string, reviewerModelId: string): string[] {
  return seededShuffle(labels, `${runId}\n${reviewerModelId}`);
}
