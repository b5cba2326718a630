/** How numbers, times and statuses read on the page. */
import type { AnswerView, RunStatus } from "../../../worker/shared/run";

export function formatMs(ms: number | null | undefined): string {
  if (ms == null) return "—";
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
}

export function formatTokens(tokensIn: number | null | undefined, tokensOut: number | null | undefined): string {
  if (tokensIn == null && tokensOut == null) return "—";
  return `${tokensIn ?? "?"} in · ${tokensOut ?? "?"} out`;
}

function formatCost(usd: number | null | undefined): string {
  if (usd == null) return "—";
  if (usd === 0) return "$0";
  if (usd < 0.0001) return "< $0.0001";
  return `$${usd < 0.01 ? usd.toFixed(4) : usd.toFixed(usd < 1 ? 3 : 2)}`;
}

/** A total's known part, for `describeCost`: a tiny sum keeps two significant digits ("≥ $0.000034"), never "< …" after "≥". */
export function formatTotalCost(usd: number): string {
  return usd > 0 && usd < 0.0001 ? `$${Number(usd.toPrecision(2))}` : formatCost(usd);
}

/**
 * What a group of calls cost: "≥ $0.42" when some had no known price, "cost unknown" when none had one,
 * never a false $0.
 */
export function formatSpend(f: { usd: number; unknownCostCalls: number; calls: number }): string {
  if (f.unknownCostCalls > 0 && f.unknownCostCalls >= f.calls) return "cost unknown";
  return `${f.unknownCostCalls > 0 ? "≥ " : ""}${formatTotalCost(f.usd)}`;
}

/** Said instead of a cost a blind run keeps to itself until it ends (a cost would tell a label's model). */
export const COST_HIDDEN = "shown when the run ends";

/** One call's cost: "cost unknown" once it has used tokens without a known price, "—" before it has run. */
export function formatCallCost(
  call: { costUsd: number | null; tokensIn: number | null; tokensOut: number | null },
  hidden = false,
): string {
  if (hidden) return COST_HIDDEN;
  if (call.costUsd === null && (call.tokensIn ?? 0) + (call.tokensOut ?? 0) > 0) return "cost unknown";
  return formatCost(call.costUsd);
}

export function formatScore(n: number | null | undefined, digits = 1): string {
  return n == null ? "—" : Number.isInteger(n) ? String(n) : n.toFixed(digits);
}

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });
export const formatTime = (ms: number) => dateTime.format(new Date(ms));

export const RUN_STATUS_TEXT: Record<RunStatus, string> = {
  pending: "Starting",
  answering: "Answering",
  reviewing: "Reviewing",
  synthesizing: "Writing the synthesis",
  done: "Done",
  partial: "Answers only",
  failed: "Failed",
  cancelled: "Cancelled",
};

export const ANSWER_STATUS_TEXT: Record<AnswerView["status"], string> = {
  pending: "Waiting",
  streaming: "Answering",
  done: "Done",
  failed: "Failed",
  cancelled: "Cancelled",
};

/** A model's name as people read it: the part after the provider, unless the catalog knows better. */
export function shortModelName(modelId: string): string {
  const at = modelId.indexOf(":");
  return at < 0 ? modelId : modelId.slice(at + 1);
}

/** What "retry all" does, in words: a cancelled answer didn't fail, it was stopped. */
export function retryAllLabel(answers: { status: string }[]): string {
  const failed = answers.some((a) => a.status === "failed");
  const cancelled = answers.some((a) => a.status === "cancelled");
  if (failed && cancelled) return "Retry failed and cancelled answers";
  return cancelled ? "Ask the cancelled models again" : "Retry all failed answers";
}
