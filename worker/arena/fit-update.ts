/**
 * Between exact refits, a view's sandwich fit follows new battles at once (rooms/fit-room.ts): their counts go
 * into the last fit's pair table, and the ratings are refitted from the last ratings with the exact fit's
 * Hessian factor (rating/bradley-terry-update.ts), to the optimum an exact fit of the same counts reaches. The
 * intervals keep the exact fit's standard errors around the new ratings, and its separations, until the exact
 * refit that follows replaces them: one vote among many moves those far less than the ratings.
 */
import type { Winner } from "../rating/battle-outcome";
import { fitPairTableSliced } from "../rating/bradley-terry";
import { normalQuantile } from "../rating/normal";
import type { PairTable } from "../rating/pair-table";
import { pairWeights, weightedTable } from "../rating/sandwich";
import type { Sliced, Slicer } from "../rating/work-slices";
import { type FitBasis, ratingsOf, type ViewFit } from "./leaderboard";

export interface NewBattle {
  modelA: string;
  modelB: string;
  winner: Winner;
}

const Z95 = normalQuantile(0.975);

/**
 * Adds the battles' counts to the basis's table, in place. False, with the table untouched, when a battle
 * names a model the basis did not rate: a new row in H needs the exact refit.
 */
export function addBattles(basis: FitBasis, battles: readonly NewBattle[]): boolean {
  const { index } = basis;
  if (battles.some((b) => b.modelA !== b.modelB && !(index.has(b.modelA) && index.has(b.modelB)))) return false;
  const n = basis.names.length;
  const table = basis.table;
  basis.cells ??= pairIndex(table, n);
  const { keys, cells, added } = basis.cells;
  const cellOf = (key: number) => {
    let [lo, hi] = [0, keys.length];
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (keys[mid] < key) lo = mid + 1;
      else hi = mid;
    }
    return lo < keys.length && keys[lo] === key ? cells[lo] : added.get(key);
  };
  const fresh: { i: number; j: number }[] = [];
  const counts: [number, number, number][] = [];
  for (const b of battles) {
    if (b.modelA === b.modelB) continue;
    const [x, y] = [index.get(b.modelA)!, index.get(b.modelB)!];
    const [i, j] = x < y ? [x, y] : [y, x];
    let c = cellOf(i * n + j);
    if (c === undefined) {
      c = table.size + fresh.length;
      added.set(i * n + j, c);
      fresh.push({ i, j });
    }
    const tie = b.winner === "tie" || b.winner === "tie (bothbad)";
    const iWon = !tie && (b.winner === "model_a") === (x === i);
    counts.push([c, tie ? 0 : iWon ? 1 : -1, tie ? 1 : 0]);
  }
  if (fresh.length) basis.table = grown(table, fresh);
  for (const [c, win, tie] of counts) {
    if (win === 1) basis.table.winsI[c]++;
    else if (win === -1) basis.table.winsJ[c]++;
    basis.table.ties[c] += tie;
  }
  return true;
}

/**
 * The table's cells by pair key (i·models + j), sorted for a binary search: a few MB where a Map of as many
 * entries would take tens. Cells added later go in `added`.
 */
function pairIndex(table: PairTable, n: number): NonNullable<FitBasis["cells"]> {
  const keys = new Float64Array(table.size);
  for (let c = 0; c < table.size; c++) keys[c] = table.i[c] * n + table.j[c];
  const cells = Int32Array.from({ length: table.size }, (_, c) => c).sort((a, b) => keys[a] - keys[b]);
  return { keys: Float64Array.from(cells, (c) => keys[c]), cells, added: new Map() };
}

function grown(table: PairTable, added: { i: number; j: number }[]): PairTable {
  const size = table.size + added.length;
  const copy = <T extends Int32Array | Float64Array>(from: T, make: (n: number) => T) => {
    const to = make(size);
    to.set(from.subarray(0, table.size));
    return to;
  };
  const out: PairTable = {
    size,
    i: copy(table.i, (k) => new Int32Array(k)),
    j: copy(table.j, (k) => new Int32Array(k)),
    winsI: copy(table.winsI, (k) => new Float64Array(k)),
    winsJ: copy(table.winsJ, (k) => new Float64Array(k)),
    ties: copy(table.ties, (k) => new Float64Array(k)),
  };
  added.forEach(({ i, j }, k) => {
    out.i[table.size + k] = i;
    out.j[table.size + k] = j;
  });
  return out;
}

/** The ratings of the basis's table now, from its last ratings; `basis.ratings` becomes them. */
export function* refitSliced(basis: FitBasis, slicer: Slicer): Sliced<ViewFit & { reusedFactor: boolean }> {
  const n = basis.names.length;
  const weights = basis.method.reweight ? pairWeights(basis.table) : null;
  const fitted = weights ? weightedTable(basis.table, weights) : basis.table;
  const fit = yield* fitPairTableSliced(
    n,
    fitted,
    { anchor: basis.anchor, start: basis.ratings, hessian: basis.hessian },
    slicer,
  );
  basis.ratings = fit.ratings;
  const lower = new Float64Array(n);
  const upper = new Float64Array(n);
  for (let m = 0; m < n; m++) {
    lower[m] = fit.ratings[m] - Z95 * basis.standardError[m];
    upper[m] = fit.ratings[m] + Z95 * basis.standardError[m];
  }
  return {
    ratings: ratingsOf(basis.names, fit, { lower, upper }, basis.separation),
    // The covariance is the exact fit's to give; until its refit, pairing reads the intervals.
    differenceVariance: null,
    basis,
    reusedFactor: fit.reusedFactor,
  };
}
