/** A judge's output, checked: the winner is A, B or tie, both scores are numbers 0–10, the reasons a short string. */
import type { JudgeOrder } from "../shared/arena";
import { parseJsonObject } from "../shared/json-output";

const MAX_REASONS = 2000;

export function parseJudgeOutput(
  raw: string,
): { ok: true; value: Omit<JudgeOrder, "raw"> } | { ok: false; error: string } {
  const data = parseJsonObject(raw, "the judge's output");
  if (!data.ok) return data;
  const { winner, scores, reasons } = data.value;
  if (winner !== "A" && winner !== "B" && winner !== "tie")
    return { ok: false, error: 'winner must be "A", "B" or "tie"' };
  const s = (scores ?? {}) as Record<string, unknown>;
  const score = (v: unknown) => (typeof v === "number" && Number.isFinite(v) && v >= 0 && v <= 10 ? v : null);
  const [a, b] = [score(s.A), score(s.B)];
  if (a === null || b === null) return { ok: false, error: "scores.A and scores.B must be numbers from 0 to 10" };
  if (typeof reasons !== "string") return { ok: false, error: "reasons must be a string" };
  return { ok: true, value: { winner, scores: { A: a, B: b }, reasons: reasons.slice(0, MAX_REASONS) } };
}
