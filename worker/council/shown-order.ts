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

export function shownOrder(labels: readonly string[], runId: string, reviewerModelId: string): string[] {
  const random = seededRandom(hash(`${runId}\n${reviewerModelId}`));
  const order = [...labels];
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [order[i], order[j]] = [order[j], order[i]];
  }
  return order;
}
