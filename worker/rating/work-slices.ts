/**
 * Long fits are generators that yield between slices of work, so a caller on a shared thread (a Durable Object
 * under `wrangler dev`) can hand the thread back between slices. Work is counted, not timed: workerd's clock
 * stands still while code runs, so a slice is a number of pair-cell visits, not milliseconds.
 */

/** A fit that yields between slices and returns its result. */
export type Sliced<T> = Generator<void, T, void>;

/** Pair-cell visits per slice: a few ms of CPU, well under the ~20 ms a slice may take (timings: bench/HISTORY.md). */
export const WORK_PER_SLICE = 100_000;

/** Counts work and says when a slice is used up. */
export class Slicer {
  private spent = 0;
  slices = 0;

  constructor(private readonly perSlice = WORK_PER_SLICE) {}

  /** Adds `units` of work; true when the slice is full and the caller should yield. */
  spend(units: number): boolean {
    this.spent += units;
    if (this.spent < this.perSlice) return false;
    this.spent = 0;
    this.slices++;
    return true;
  }
}

/** Runs a sliced fit to the end without yielding: for small fits and pure callers. */
export function drain<T>(steps: Sliced<T>): T {
  for (;;) {
    const next = steps.next();
    if (next.done) return next.value;
  }
}

const CHUNK = 16_384;

/** Calls `body` over [0, count) in chunks, yielding whenever the slicer says the slice is full. */
export function* inChunks(count: number, slicer: Slicer, body: (from: number, to: number) => void): Sliced<void> {
  for (let from = 0; from < count; from += CHUNK) {
    const to = Math.min(count, from + CHUNK);
    body(from, to);
    if (slicer.spend(to - from)) yield;
  }
}
