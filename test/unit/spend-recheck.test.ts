import { describe, expect, it } from "vitest";
import { nextRecheck, RECHECK_FIRST_MS, RECHECK_MAX_MS, type Recheck } from "../../web/src/lib/spend-recheck";

/** The delays a run of timed re-reads waits, each finding the figures it is given. */
function delays(reads: string[], start: Recheck | null = null): number[] {
  let at = start;
  return reads.map((figures) => {
    at = nextRecheck(at, figures, false);
    return at.delayMs;
  });
}

describe("nextRecheck", () => {
  it("waits 2 s after the first read, then doubles while nothing changes, up to 60 s", () => {
    expect(RECHECK_FIRST_MS).toBe(2_000);
    expect(RECHECK_MAX_MS).toBe(60_000);
    expect(delays(Array(8).fill("0|0.4"))).toEqual([2_000, 4_000, 8_000, 16_000, 32_000, 60_000, 60_000, 60_000]);
  });

  it("goes back to 2 s as soon as the figures change, and doubles again from there", () => {
    expect(delays(["0|0.4", "0|0.4", "0|0.4", "0.1|0.3", "0.1|0.3"])).toEqual([2_000, 4_000, 8_000, 2_000, 4_000]);
  });

  it("goes back to 2 s after a prompted read (a page change, a live event, the tab shown again), figures unchanged", () => {
    const slow: Recheck = { figures: "0|0.4", delayMs: RECHECK_MAX_MS };
    expect(nextRecheck(slow, "0|0.4", true)).toEqual({ figures: "0|0.4", delayMs: RECHECK_FIRST_MS });
    expect(nextRecheck(slow, "0|0.4", false)).toEqual({ figures: "0|0.4", delayMs: RECHECK_MAX_MS });
  });
});
