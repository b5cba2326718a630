/** Order statistics and the few formats the table uses. */

/** The q-quantile (0…1) with linear interpolation, as numpy does by default; NaN for no values. */
export function quantile(values: readonly number[], q: number): number {
  if (!values.length) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const pos = (sorted.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.min(lo + 1, sorted.length - 1);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo);
}

export const p50 = (v: readonly number[]) => quantile(v, 0.5);
export const p95 = (v: readonly number[]) => quantile(v, 0.95);

export function fixed(x: number, digits = 2): string {
  return Number.isFinite(x) ? x.toFixed(digits) : "n/a";
}

export const ms = (x: number, digits = 0) => `${fixed(x, digits)} ms`;

export function thousands(x: number): string {
  return Number.isFinite(x) ? Math.round(x).toLocaleString("en-US") : "n/a";
}

/** "p50 x · p95 y" for a list of values, each formatted by `f`. */
export function spread(values: readonly number[], f: (x: number) => string = (x) => fixed(x)): string {
  return `p50 ${f(p50(values))} · p95 ${f(p95(values))} (n=${values.length})`;
}

export const sleep = (msec: number) => new Promise<void>((resolve) => setTimeout(resolve, msec));

/**
 * Runs `task(i)` for i in 0…count-1 with at most `limit` in flight. With `staggerMs`, the k-th of the
 * `limit` lanes starts k × staggerMs late, so lanes whose tasks all take about as long don't stay in lockstep.
 */
export async function pool<T>(
  count: number,
  limit: number,
  task: (i: number) => Promise<T>,
  staggerMs = 0,
): Promise<T[]> {
  const out = new Array<T>(count);
  let next = 0;
  const worker = async (lane: number) => {
    if (staggerMs > 0 && lane > 0) await sleep(lane * staggerMs);
    while (next < count) {
      const i = next++;
      out[i] = await task(i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, count) }, (_, lane) => worker(lane)));
  return out;
}
