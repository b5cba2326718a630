/** Tallies battles into the pair cells Bradley–Terry and the bootstrap take. */
import type { Winner } from "./battle-outcome";
import type { PairCell } from "./bradley-terry";

export interface PairCellBattle {
  modelA: string;
  modelB: string;
  winner: Winner;
}

/**
 * Models are indexed in order of first appearance unless `models` fixes the order (names not in it are
 * appended). A model battling itself tells nothing about strength and is skipped.
 */
export function pairCellsFromBattles(
  battles: Iterable<PairCellBattle>,
  models: readonly string[] = [],
): { models: string[]; cells: PairCell[] } {
  const order = [...models];
  const indexOf = new Map(order.map((model, index) => [model, index]));
  const cells = new Map<string, PairCell>();
  const index = (model: string): number => {
    let found = indexOf.get(model);
    if (found === undefined) {
      found = order.push(model) - 1;
      indexOf.set(model, found);
    }
    return found;
  };
  for (const { modelA, modelB, winner } of battles) {
    if (modelA === modelB) continue;
    const a = index(modelA);
    const b = index(modelB);
    const [i, j] = a < b ? [a, b] : [b, a];
    const key = `${i},${j}`;
    let cell = cells.get(key);
    if (!cell) {
      cell = { i, j, winsI: 0, winsJ: 0, ties: 0 };
      cells.set(key, cell);
    }
    if (winner === "tie" || winner === "tie (bothbad)") cell.ties++;
    else if ((winner === "model_a") === (a === i)) cell.winsI++;
    else cell.winsJ++;
  }
  return { models: order, cells: [...cells.values()] };
}
