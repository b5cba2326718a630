/**
 * The header's spend line reads /api/spend again when something may have cost money: a page change, or a live
 * event that isn't a streamed chunk (an answer, review, judge or side finishing). Bursts of events make one read.
 */
import { createSignal } from "solid-js";

const SETTLE_MS = 800;
const [version, setVersion] = createSignal(0);
let timer = 0;

export const spendVersion = version;

/** Called for every live event; reads again once events have paused for SETTLE_MS. */
export function spendMayHaveChanged(eventType: string): void {
  if (eventType.endsWith(".delta") || eventType === "snapshot") return;
  clearTimeout(timer);
  timer = window.setTimeout(() => setVersion((v) => v + 1), SETTLE_MS);
}
