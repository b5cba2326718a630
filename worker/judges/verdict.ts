/**
 * From a judge's two answers (asked once with each side as A) to one verdict, and from a panel's
 * verdicts to the panel's. A verdict that changes with the order is position, not preference:
 * it counts as a tie and is recorded as a flip.
 */
import type { JudgeWinner, SideVerdict } from "../shared/arena";

/** Which side a judge's "A" or "B" meant, given which side was shown as A. */
export function sideOf(leftShownAs: "A" | "B", winner: JudgeWinner): SideVerdict {
  if (winner === "tie") return "tie";
  return winner === leftShownAs ? "left" : "right";
}

/** `first` was asked with the left side as A, `second` with the sides swapped. */
export function combineOrders(first: JudgeWinner, second: JudgeWinner): { verdict: SideVerdict; flipped: boolean } {
  const [x, y] = [sideOf("A", first), sideOf("B", second)];
  return x === y ? { verdict: x, flipped: false } : { verdict: "tie", flipped: true };
}

/** The side most judges chose; a tie when no side has more judges than every other choice. */
export function panelVerdict(verdicts: SideVerdict[]): SideVerdict | null {
  if (!verdicts.length) return null;
  const count = (v: SideVerdict) => verdicts.filter((x) => x === v).length;
  const [left, right, tie] = [count("left"), count("right"), count("tie")];
  if (left > right && left > tie) return "left";
  if (right > left && right > tie) return "right";
  return "tie";
}
