/** Pair counts as typed arrays: the one input of the Bradley–Terry fit, refilled in place by each bootstrap round. */
import type { PairCell } from "./bradley-terry";

export interface PairTable {
  size: number;
  i: Int32Array;
  j: Int32Array;
  winsI: Float64Array;
  winsJ: Float64Array;
  ties: Float64Array;
}

export function pairTableOf(n: number, cells: readonly PairCell[]): PairTable {
  if (!Number.isInteger(n) || n < 0) throw new RangeError(`model count must be a non-negative integer, got ${n}`);
  const size = cells.length;
  const table: PairTable = {
    size,
    i: new Int32Array(size),
    j: new Int32Array(size),
    winsI: new Float64Array(size),
    winsJ: new Float64Array(size),
    ties: new Float64Array(size),
  };
  cells.forEach((cell, c) => {
    const { i, j, winsI, winsJ, ties } = cell;
    if (!Number.isInteger(i) || !Number.isInteger(j) || i < 0 || i >= j || j >= n) {
      throw new RangeError(`pair cell ${c} needs integer indices 0 <= i < j < ${n}, got i=${i} j=${j}`);
    }
    for (const count of [winsI, winsJ, ties]) {
      if (!(count >= 0 && Number.isFinite(count)))
        throw new RangeError(`pair cell ${c} has a count that is not a finite number >= 0`);
    }
    table.i[c] = i;
    table.j[c] = j;
    table.winsI[c] = winsI;
    table.winsJ[c] = winsJ;
    table.ties[c] = ties;
  });
  return table;
}
