/**
 * Sums of fractional weights drift (0.1 + 0.2 ≠ 0.3); rounding to nine decimals before values are
 * compared or shown keeps ties real and displayed totals clean.
 */
export function roundClean(x: number): number {
  return Math.round(x * 1e9) / 1e9 || 0; // `|| 0` turns -0 into 0
}
