/** A judge's output, checked: the winner is A, B or tie, both scores are numbers 0–10, the reasons a short string. */
import type { JudgeOrder } from "../shared/arena";

const MAX_REASONS = 2000;

/** Strips a Markdown code fence some models put around JSON even when told not to. */
function unfence(raw: string): string {
  const m = /^\s*```[a-zA-Z]*\s*\n([\s\S]*?)\n\s*```\s*$/.exec(raw);
  return m ? m[1] : raw;
}

export function parseJudgeOutput(
  raw: string,
): { ok: true; value: Omit<JudgeOrder, "raw"> } | { ok: false; error: string } {
  let data: unknown;
  try {
    data = JSON.parse(unfence(raw));
  } catch {
    return { ok: false, error: "the judge's output is not JSON" };
  }
  if (typeof data !== "object" || data === null) return { ok: false, error: "the judge's output is not a JSON object" };
  const { winner, scores, reasons } = data as Record<string, unknown>;
  if (winner !== "A" && winner !== "B" && winner !== "tie")
    return { ok: false, error: 'winner must be "A", "B" or "tie"' };
  const s = (scores ?? {}) as Record<string, unknown>;
  const score = (v: unknown) => (typeof v === "number" && Number.isFinite(v) && v >= 0 && v <= 10 ? v : null);
  const [a, b] = [score(s.A), score(s.B)];
  if (a === null || b === null) return { ok: false, error: "scores.A and scores.B must be numbers from 0 to 10" };
  if (typeof reasons !== "string") return { ok: false, error: "reasons must be a string" };
  return { ok: true, value: { winner, scores: { A: a, B: b }, reasons: reasons.slice(0, MAX_REASONS) } };
}
