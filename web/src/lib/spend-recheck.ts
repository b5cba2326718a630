/**
 * How often the header's spend line reads /api/spend again while something is set aside. An unvoted blind
 * comparison keeps its hold until the vote, possibly for hours, so the reads slow down while the figures stand
 * still, and speed up again as soon as they move or the page gives a reason to look (a page change, a live event,
 * the tab coming back into view).
 */

export const RECHECK_FIRST_MS = 2_000;
export const RECHECK_MAX_MS = 60_000;

/** The figures a read found (as one comparable string), and how long to wait before the next read. */
export interface Recheck {
  figures: string;
  delayMs: number;
}

/**
 * The schedule after a read: back to the first delay when it was prompted (not a timed re-read) or found other
 * figures than the read before; otherwise twice the last delay, up to the most.
 */
export function nextRecheck(previous: Recheck | null, figures: string, prompted: boolean): Recheck {
  if (!previous || prompted || previous.figures !== figures) return { figures, delayMs: RECHECK_FIRST_MS };
  return { figures, delayMs: Math.min(previous.delayMs * 2, RECHECK_MAX_MS) };
}
