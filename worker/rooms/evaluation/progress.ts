/** An evaluation's progress as clients see it, counted from the room's call store. */
import type { ContestantProgress, EvaluationProgress } from "../../shared/evaluation";
import type { CallStatus, CallStore } from "./call-store";
import type { EvaluationRecord } from "./record";

/** Calls finished since a moment, for the ETA: the pace of this instance's work. */
export interface Pace {
  since: number;
  finishedAtStart: number;
}

const FINISHED: CallStatus[] = ["done", "failed"];

export function progressOf(record: EvaluationRecord, store: CallStore, pace: Pace | null): EvaluationProgress {
  const counts = store.counts();
  const tally = (kind: string) => {
    const n = (status: CallStatus) => counts.find((c) => c.kind === kind && c.status === status)?.n ?? 0;
    return {
      pending: n("pending"),
      running: n("running"),
      done: n("done"),
      failed: n("failed"),
      blocked: n("blocked"),
      cancelled: n("cancelled"),
      total: counts.filter((c) => c.kind === kind).reduce((sum, c) => sum + c.n, 0),
    };
  };
  const per = store.perContestant();
  // A council evaluation's reviews are its judgments: what the page shows as "reviewed".
  // …and a goal evaluation's battles, what it shows as "battled".
  const judging = record.method === "council" ? "review" : record.method === "goal" ? "goal" : "judge";
  const contestants = record.contestants.map((c): ContestantProgress => {
    const n = (kind: string, statuses: CallStatus[]) =>
      per
        .filter((p) => p.contestant === c.id && p.kind === kind && statuses.includes(p.status))
        .reduce((s, p) => s + p.n, 0);
    const all: CallStatus[] = ["pending", "running", "done", "failed", "blocked", "cancelled"];
    return {
      contestant: c.id,
      displayName: c.displayName,
      answered: n("answer", ["done"]),
      answerFailed: n("answer", ["failed"]),
      answersTotal: n("answer", all),
      judged: n(judging, ["done"]),
      judgeFailed: n(judging, ["failed"]),
      judgedTotal: n(judging, all),
    };
  });
  const answers = tally("answer");
  const judgments = tally(judging);
  const finished = counts.filter((c) => FINISHED.includes(c.status)).reduce((s, c) => s + c.n, 0);
  const live = counts.filter((c) => c.status === "pending" || c.status === "running").reduce((s, c) => s + c.n, 0);
  const spend = store.spend();
  return {
    contestants,
    answers,
    judgments,
    selfSkipped: record.selfSkipped,
    spentUsd: spend.usd,
    unknownCostCalls: spend.unknown,
    etaMs: etaOf(pace, finished, live),
  };
}

function etaOf(pace: Pace | null, finished: number, live: number): number | null {
  if (!pace || live === 0) return null;
  const done = finished - pace.finishedAtStart;
  const elapsed = Date.now() - pace.since;
  if (done <= 0 || elapsed <= 0) return null;
  return Math.round((live * elapsed) / done);
}
