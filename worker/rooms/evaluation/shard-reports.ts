/**
 * What a shard room tells its parent, and how the parent adds the shards' reports up into the one progress a
 * client sees (the same shape an unsharded room announces). A report carries the shard's event number, so one
 * that arrives after a newer one (a push overtaken by a pull) is dropped.
 */
import type { EvaluationStatus } from "../../shared/constants";
import type { ContestantProgress, EvaluationFailure, EvaluationProgress } from "../../shared/evaluation";
import type { EvaluationRecord } from "./record";
import { isTerminal } from "./record";

export interface ShardReport {
  /** the shard's last event number when it reported: a later report has a higher one */
  seq: number;
  status: EvaluationStatus;
  error: string | null;
  progress: EvaluationProgress;
  /** calls that failed since the shard's last pushed report, for the parent to announce */
  failures: EvaluationFailure[];
}

/** What the parent keeps of each shard: whether it was started, and its latest report (failures left out). */
export interface ShardState {
  started: boolean;
  report: Omit<ShardReport, "failures"> | null;
}

/** The name of shard `index`'s room: derived from the evaluation's id, so the parent finds it again after a restart. */
export const shardRoomName = (evaluationId: string, index: number) => `${evaluationId}:shard:${index}`;

export const shardEnded = (s: ShardState) => s.report !== null && isTerminal(s.report.status);

const zeroCounts = () => ({ pending: 0, running: 0, done: 0, failed: 0, blocked: 0, cancelled: 0, total: 0 });

type Counts = EvaluationProgress["answers"];

function addCounts(into: Counts, from: Counts) {
  for (const k of Object.keys(into) as (keyof Counts)[]) into[k] += from[k];
}

/**
 * The evaluation's progress: every shard's counts, spend and failures summed; the ETA the longest of the shards'
 * (they run side by side). A shard not heard from yet counts nothing.
 */
export function sumProgress(record: EvaluationRecord, shards: ShardState[]): EvaluationProgress {
  const answers = zeroCounts();
  const judgments = zeroCounts();
  const contestants = new Map<string, ContestantProgress>(
    record.contestants.map((c) => [
      c.id,
      {
        contestant: c.id,
        displayName: c.displayName,
        answered: 0,
        answerFailed: 0,
        answersTotal: 0,
        judged: 0,
        judgeFailed: 0,
        judgedTotal: 0,
      },
    ]),
  );
  let spentUsd = 0;
  let unknownCostCalls = 0;
  let etaMs: number | null = null;
  for (const { report } of shards) {
    if (!report) continue;
    const p = report.progress;
    addCounts(answers, p.answers);
    addCounts(judgments, p.judgments);
    for (const c of p.contestants) {
      const into = contestants.get(c.contestant);
      if (!into) continue;
      into.answered += c.answered;
      into.answerFailed += c.answerFailed;
      into.answersTotal += c.answersTotal;
      into.judged += c.judged;
      into.judgeFailed += c.judgeFailed;
      into.judgedTotal += c.judgedTotal;
    }
    spentUsd += p.spentUsd;
    unknownCostCalls += p.unknownCostCalls;
    if (p.etaMs !== null) etaMs = Math.max(etaMs ?? 0, p.etaMs);
  }
  return {
    contestants: [...contestants.values()],
    answers,
    judgments,
    selfSkipped: record.selfSkipped,
    spentUsd,
    unknownCostCalls,
    etaMs,
  };
}

/**
 * How the evaluation ended once every shard has: cancelled if a shard was; failed when no answer came back at all,
 * or when a shard was stopped for a reason of its own (the watchdog's); otherwise completed, saying how many calls
 * a retry would make again.
 */
export function outcomeOf(
  shards: ShardState[],
  progress: EvaluationProgress,
): { status: EvaluationStatus; error: string | null } {
  const reports = shards.flatMap((s) => (s.report ? [s.report] : []));
  const cancelled = reports.find((r) => r.status === "cancelled");
  if (cancelled) return { status: "cancelled", error: cancelled.error };
  if (progress.answers.done === 0)
    return { status: "failed", error: "Every answer failed: see each failure's reason, fix it, then retry." };
  const stopped = reports.find((r) => r.status === "failed" && !r.error?.startsWith("Every answer failed"));
  if (stopped) return { status: "failed", error: stopped.error };
  const n = progress.answers.failed + progress.answers.blocked + progress.judgments.failed + progress.judgments.blocked;
  return { status: "completed", error: failedCallsSummary(n) };
}

/** What an evaluation that ended with failed calls says: how many a retry would make again. */
export const failedCallsSummary = (n: number): string | null =>
  n ? `${n} call${n === 1 ? "" : "s"} failed or waited on one that did; retry them with POST …/retry.` : null;
